"""The conformance suite: the game-contract checks every game must pass.

A game author runs it from their own repository with one line::

    from pegboard.testing import check_game

    def test_conformance() -> None:
        check_game("mygame")          # every shipped ruleset, two seeds each

``check_game`` plays seeded random games under each of the game's rulesets
and checks the contract at every move (see docs/plugins.md, "Testing with the
conformance suite"); the first broken promise raises :class:`ConformanceError`
(an ``AssertionError``) naming the ruleset, the seed and the ply. Pegboard's
own test suite runs the same checks for every registered game.

Only the public API is used (:mod:`pegboard.game`, :mod:`pegboard.rules.rulesets`,
:mod:`pegboard.records`, :mod:`pegboard.records.schemas`), and pytest is not needed.
"""

from __future__ import annotations

import json
import math
import random
import tempfile
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pegboard.errors import ConformanceError, PegboardError
from pegboard.game import Game, IllegalMove, InvalidMoveEncoding, Move, Refusal, State
from pegboard.plugins import resolve
from pegboard.records.files import dumps_record, parse_record, record_from_moves
from pegboard.records.schemas import game_schema_path, issues, validator
from pegboard.records.validate import validate_file, validate_record
from pegboard.rules.rulesets import Ruleset, build_game, list_rulesets, load_ruleset, ruleset_from_data

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

    from pegboard.plugins.manager import Plugins

SAMPLE = 8  # moves sampled per position for the check/legal agreement
CLONE_EVERY = 37  # plies between clone-independence checks
HIDDEN_EVERY = 5  # plies between observation checks
ROUND_TRIP_EVERY = 3  # plies between to_json -> state_from_json round trips
SCHEMA_EVERY = 97  # plies between position-schema checks (schema validation is slow)
POOL_PLIES = 200  # length of the playout that supplies foreign moves for the illegal-move checks
DRAWS_PER_MOVE = 24  # random_move draws per legal move in the uniformity check
RANDOM_MOVE_PLIES = (0, 8, 60, 150)  # where in a seeded game random_move is checked
#: Plain JSON values every strict decoder is fed, besides broken copies of real moves.
BROKEN_SAMPLES: tuple[Any, ...] = (None, True, False, 0, 1, -1, 2.0, 2.5, 10**6, "", "x", "grow", [], [0], [0, 0], [0, 0, 0], {}, {"a": 1})
#: The common ``[timers]`` table every game's ruleset schema must accept (see docs/plugins.md).
TIMERS = {"enabled": True, "clock_seconds": 300, "move_seconds": 30}


def expect(condition: object, message: str) -> None:
    """Raise :class:`ConformanceError` with ``message`` unless ``condition`` holds (works under ``-O``)."""
    if not condition:
        raise ConformanceError(message)


@dataclass
class Playout:
    """A seeded random game: its moves, whether it finished, and a pool of legal moves seen."""

    game: Game
    ruleset: Ruleset
    seed: int
    moves: list[Move] = field(default_factory=list)
    finished: bool = False
    state: State | None = None
    pool: list[Move] = field(default_factory=list)


def setup(plugins: Plugins, ref: str) -> tuple[Game, Ruleset]:
    """The game (rule mods applied) and the resolved ruleset for a ruleset reference."""
    ruleset = load_ruleset(ref, plugins=plugins)
    return build_game(ruleset, plugins), ruleset


def random_playout(plugins: Plugins, ref: str, seed: int, max_plies: int) -> Playout:
    """A quick playout without checks: supplies move pools and records."""
    game, ruleset = setup(plugins, ref)
    rng = random.Random(seed)
    state = game.new_state(seed)
    playout = Playout(game, ruleset, seed)
    while state.result is None and state.ply < max_plies:
        moves = state.legal_moves()
        playout.pool.extend(rng.sample(moves, min(len(moves), 4)))
        move = rng.choice(moves)
        state.apply(move)
        playout.moves.append(move)
    playout.finished = state.result is not None
    playout.state = state
    return playout


def _pointer(document: Any, pointer: str) -> tuple[bool, Any]:
    node = document
    for raw in pointer.split("/")[1:]:
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return False, None
    return True, node


def check_observations(state: State) -> None:
    """Every player's observation is JSON, leaves out what it must, and rebuilds into a fair view."""
    game = state.game
    for player in range(len(game.seats)):
        observation = state.observation(player)
        json.dumps(observation)
        for pointer in state.hidden_from(player):
            present, value = _pointer(observation, pointer)
            expect(not present or value is None, f"{game.seats[player]} can see hidden {pointer}: {value!r}")
        view = state.player_view(player)
        expect(view.observation(player) == observation, "player_view must be built from the observation")
        if player == state.to_move and state.result is None:
            real = set(state.legal_moves())
            offered = view.legal_moves()
            expect(offered, "the mover's view must offer moves")
            expect(set(offered) <= real, "a player's view offers moves that are illegal in the real state")


def _check_refusals(state: State, legal: set[Move], candidates: Sequence[Move], rng: random.Random, snapshot: Any) -> None:
    """Moves from another game's positions: ``check`` agrees with ``legal_moves`` and ``apply`` refuses cleanly."""
    for move in rng.sample(list(candidates), min(SAMPLE, len(candidates))):
        reason = state.check(move)
        if move in legal:
            expect(reason is None, f"check refuses legal {state.move_text(move)} at ply {state.ply}")
            continue
        expect(reason is not None, f"check accepts a move missing from legal_moves at ply {state.ply}")
        expect(isinstance(reason, Refusal) and reason.reason and reason.rule, f"check must return a Refusal with a reason and a rule id, not {reason!r}")
        assert isinstance(reason, Refusal)
        try:
            state.apply(move)
        except IllegalMove as exc:
            expect(exc.reason and exc.rule, "IllegalMove needs a reason and a rule id")
            expect(exc.rule == reason.rule, f"check refuses {state.move_text(move)} by rule {reason.rule!r}, apply by {exc.rule!r}")
        else:
            raise ConformanceError(f"apply accepted an illegal move at ply {state.ply}")
        expect(state.to_json() == snapshot, "a refused move changed the state")


def checked_playout(plugins: Plugins, ref: str, seed: int, max_plies: int, candidates: Sequence[Move]) -> Playout:
    """A seeded random playout that checks the contract at every ply.

    ``candidates`` are moves seen in other positions (see :func:`random_playout`),
    used to test that illegal moves are refused.
    """
    game, ruleset = setup(plugins, ref)
    rng = random.Random(seed)
    state = game.new_state(seed)
    position_check = _position_validator(plugins, game.id)
    playout = Playout(game, ruleset, seed)
    expect(state.ply == 0 and state.result is None, "a new game starts at ply 0, not over")
    while state.ply < max_plies:
        snapshot = state.to_json()
        if state.ply % ROUND_TRIP_EVERY == 0 or state.result is not None:
            again = game.state_from_json(snapshot).to_json()
            expect(again == snapshot, f"to_json/state_from_json round trip differs at ply {state.ply}")
        if position_check is not None and (state.ply % SCHEMA_EVERY == 0 or state.result is not None):
            problems = issues(position_check, snapshot)
            expect(not problems, f"position at ply {state.ply} breaks the position schema: {problems[0] if problems else ''}")
        if game.hidden_information and state.ply % HIDDEN_EVERY == 0:
            check_observations(state)
        if state.result is not None:
            expect(state.legal_moves() == [], "legal_moves must be empty once the game is over")
            break
        moves = state.legal_moves()
        expect(moves, f"no legal moves at ply {state.ply} but the game is not over")
        legal = set(moves)
        expect(len(legal) == len(moves), f"legal_moves repeats a move at ply {state.ply}")
        for move in rng.sample(moves, min(SAMPLE, len(moves))):
            reason = state.check(move)
            expect(reason is None, f"check refuses a legal move {state.move_text(move)} at ply {state.ply}: {reason}")
        _check_refusals(state, legal, candidates, rng, snapshot)
        move = rng.choice(moves)
        ply = state.ply
        state.apply(move)
        expect(state.ply == ply + 1, f"apply must add one ply (ply {ply})")
        expect(state.undo() == move, "undo must return the move it took back")
        expect(state.to_json() == snapshot, f"apply+undo of {state.move_text(move)} does not restore ply {ply}")
        if ply % CLONE_EVERY == 0:
            copy = state.clone()
            copy.apply(move)
            expect(state.to_json() == snapshot, "changing a clone changed the original")
            copy.undo()
            expect(copy.to_json() == snapshot, "a clone's undo does not restore it")
        for event in state.apply(move):
            json.dumps(event.to_json())
        playout.moves.append(move)
    playout.finished = state.result is not None
    playout.state = state
    return playout


def _position_validator(plugins: Plugins, game_id: str) -> Draft202012Validator | None:
    path = game_schema_path(plugins.game(game_id).schema_dir, "position")
    return validator(path) if path.is_file() else None


def check_move_encodings(playout: Playout, plugins: Plugins) -> None:
    """Every move played and every move in the pool: encode -> JSON -> decode is identity, schema-valid."""
    game = playout.game
    move_check = validator(game_schema_path(plugins.game(game.id).schema_dir, "move"))
    for move in [*playout.moves, *playout.pool]:
        encoded = game.encode_move(move)
        decoded = game.decode_move(json.loads(json.dumps(encoded)))
        expect(decoded == move, f"decode(encode({move!r})) gave {decoded!r}")
        expect(hash(decoded) == hash(move), f"decode(encode({move!r})) hashes differently")
        problems = issues(move_check, encoded)
        expect(not problems, f"encoded move {encoded} breaks the move schema: {problems[0] if problems else ''}")
        text = game.move_text(move)
        expect(isinstance(text, str) and text, f"move_text({move!r}) must be a non-empty string")


def check_record(playout: Playout, plugins: Plugins, folder: str | Path | None = None) -> None:
    """The playout as a match record validates through every stage, in JSON and every text format.

    Files are written to ``folder`` (a temporary folder when None).
    """
    if folder is None:
        with tempfile.TemporaryDirectory(prefix="pegboard-conformance-") as temp:
            check_record(playout, plugins, temp)
        return
    state = playout.state
    expect(state is not None, "the playout has no final state")
    assert state is not None
    record = record_from_moves(playout.game, playout.ruleset, playout.seed, ["random"] * len(playout.game.seats), playout.moves, state.result)
    path = Path(folder) / "playout.match.json"
    path.write_text(dumps_record(record, ".json", plugins), encoding="utf-8")
    report = validate_file(path, plugins)
    expect(report.ok, f"the playout's record does not validate: {report.errors[0] if report.errors else ''}")
    expect(report.moves == len(playout.moves), f"validation replayed {report.moves} moves, the playout made {len(playout.moves)}")
    for suffix in plugins.game(playout.game.id).text_formats:
        text_path = Path(folder) / f"playout{suffix}"
        text_path.write_text(dumps_record(record, suffix, plugins), encoding="utf-8")
        again = parse_record(text_path.read_text(encoding="utf-8"), text_path, plugins)
        expect(again["moves"] == record["moves"], f"{suffix} round trip changes the moves")
        expect(again["seed"] == record["seed"], f"{suffix} round trip changes the seed")
        expect(validate_record(again, text_path, plugins).ok, f"the {suffix} record does not validate")


def check_advance(playout: Playout) -> None:
    """``advance`` plays every move exactly as ``push`` does, and an ``undo`` after it either takes
    the move back exactly (the default) or raises IndexError and leaves the position alone."""
    game = playout.game
    pushed, advanced = game.new_state(playout.seed), game.new_state(playout.seed)
    for number, move in enumerate(playout.moves, 1):
        pushed.push(move)
        advanced.advance(move)
        if number % ROUND_TRIP_EVERY == 0 or number == len(playout.moves):
            expect(advanced.to_json() == pushed.to_json(), f"advance and push differ after move {number}")
            expect(advanced.ply == pushed.ply, f"advance and push count plies differently after move {number}")
    if not playout.moves:
        return
    before = advanced.to_json()
    copy = advanced.clone()
    expect(copy.to_json() == before, "a clone of an advanced state differs from it")
    try:
        taken = advanced.undo()
    except IndexError:
        expect(advanced.to_json() == before, "a refused undo after advance changed the position")
        return
    pushed.undo()
    expect(taken == playout.moves[-1], "undo after advance must return the move it took back")
    expect(advanced.to_json() == pushed.to_json(), "undo after advance does not restore the position")


def check_ruleset(ref: str, seed: int = 1, plugins: Plugins | None = None, *, max_plies: int = 2500) -> Playout:
    """Every check for one ruleset (``"<game>/<id>"`` or a .toml path) and one seed; returns the playout."""
    plugins = resolve(plugins)
    pool = random_playout(plugins, ref, seed + 1000, POOL_PLIES).pool
    try:
        playout = checked_playout(plugins, ref, seed, max_plies, pool)
        expect(playout.moves, "a playout made no move")
        check_move_encodings(playout, plugins)
        check_record(playout, plugins)
        check_advance(playout)
    except ConformanceError as exc:
        raise ConformanceError(f"{ref}, seed {seed}: {exc}") from None
    return playout


def broken_variants(value: Any, depth: int = 2) -> Iterator[Any]:
    """``value`` (a move's JSON) with one part broken, to ``depth`` levels of nesting: a key
    dropped, added or given another value; an array item replaced, one added or removed;
    then the plain :data:`BROKEN_SAMPLES`."""
    yield from BROKEN_SAMPLES
    if isinstance(value, dict):
        yield {**value, "extra": 1}
        for key, item in value.items():
            yield {k: v for k, v in value.items() if k != key}
            for other in broken_variants(item, depth - 1) if depth else BROKEN_SAMPLES:
                yield {**value, key: other}
    elif isinstance(value, list):
        yield [*value, 0]
        yield value[:-1]
        for index, item in enumerate(value):
            for other in broken_variants(item, depth - 1) if depth else BROKEN_SAMPLES:
                yield [*value[:index], other, *value[index + 1 :]]


def check_strict_decode(ref: str, plugins: Plugins | None = None, *, seed: int = 3, moves: int = 40) -> int:
    """A game whose spec says ``strict_decode`` refuses in ``decode_move`` every value its move
    schema refuses: broken copies of real moves (:func:`broken_variants`) that decode must
    pass the schema. Returns how many values were tried (0 when the game does not say
    ``strict_decode``, which this check then has nothing to hold it to)."""
    plugins = resolve(plugins)
    game, _ = setup(plugins, ref)
    spec = plugins.game(game.id)
    if not spec.strict_decode:
        return 0
    schema = validator(game_schema_path(spec.schema_dir, "move"))
    state, rng = game.new_state(seed), random.Random(seed)
    encoded: list[Any] = []
    while state.result is None and len(encoded) < moves:
        move = rng.choice(state.legal_moves())
        encoded.append(game.encode_move(move))
        state.push(move)
    tried = decoded = 0
    for original in encoded[::4]:
        for value in broken_variants(json.loads(json.dumps(original))):
            tried += 1
            try:
                game.decode_move(value)
            except InvalidMoveEncoding:
                continue
            decoded += 1
            expect(schema.is_valid(value), f"strict_decode: {game.id} decodes {value!r}, which its move schema refuses")
    expect(decoded < tried, "strict_decode: no broken move was refused")
    return tried


def chi_square_limit(df: int, z: float = 4.753) -> float:
    """The chi-square value exceeded with probability about 1e-6 (Wilson-Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def check_uniform_random_move(state: State, seed: int = 1) -> None:
    """``state.random_move`` draws only legal moves, every one of them, equally often (a
    chi-square test at the one-in-a-million tail: a fair sampler passes, a move twice as
    likely as another fails by far), and leaves the position alone."""
    legal = state.legal_moves()
    before = (state.ply, state.to_json())
    rng = random.Random(seed)
    draws = DRAWS_PER_MOVE * len(legal)
    counts = Counter(state.random_move(rng) for _ in range(draws))
    expect((state.ply, state.to_json()) == before, "random_move changed the position")
    expect(set(counts) <= set(legal), f"random_move drew illegal moves: {sorted(map(repr, set(counts) - set(legal)))[:3]}")
    expect(set(counts) == set(legal), f"random_move never drew {len(set(legal) - set(counts))} of {len(legal)} legal moves")
    if len(legal) > 1:
        expected = draws / len(legal)
        chi2 = sum((counts[move] - expected) ** 2 / expected for move in legal)
        expect(chi2 < chi_square_limit(len(legal) - 1), f"random_move is not uniform: chi-square {chi2:.0f} over {len(legal)} moves")


def check_random_move(ref: str, plugins: Plugins | None = None, *, seed: int = 5, plies: Sequence[int] = RANDOM_MOVE_PLIES) -> int:
    """:func:`check_uniform_random_move` at the given plies of a seeded game, and None once it
    is over; returns how many positions were checked (a game may end before a ply)."""
    plugins = resolve(plugins)
    game, _ = setup(plugins, ref)
    checked = 0
    for target in plies:
        state, rng = game.new_state(seed), random.Random(target)
        while state.result is None and state.ply < target:
            moves = state.legal_moves()
            state.push(moves[rng.randrange(len(moves))])
        if state.result is None:
            check_uniform_random_move(state)
            checked += 1
        else:
            expect(state.random_move(rng) is None, "random_move must be None once the game is over")
    return checked


def check_timers(game_id: str, plugins: Plugins | None = None) -> None:
    """The game's ruleset schema accepts the common ``[timers]`` table on its default ruleset,
    and the game built from it answers ``timers()``."""
    plugins = resolve(plugins)
    spec = plugins.game(game_id)
    ruleset = load_ruleset(f"{game_id}/{spec.default_ruleset}", plugins=plugins)
    try:
        timed = ruleset_from_data({**ruleset.data, "timers": TIMERS}, plugins)
    except PegboardError as exc:
        raise ConformanceError(f"the ruleset schema must accept the common [timers] table: {exc}") from None
    build_game(timed, plugins).timers()


def check_game(game_id: str, plugins: Plugins | None = None, *, seeds: Sequence[int] = (1, 2), max_plies: int = 2500) -> list[str]:
    """Run the whole suite for ``game_id`` under each ruleset it ships; returns the rulesets checked.

    Per ruleset and seed, :func:`check_ruleset`; per ruleset, :func:`check_random_move`;
    for the default ruleset, :func:`check_strict_decode` and :func:`check_timers`.
    Plugins load as the CLI loads them (entry points and ``PEGBOARD_PLUGINS``)
    unless ``plugins`` is given. Raises :class:`ConformanceError` at the first
    broken promise, or when the game ships no ruleset.
    """
    plugins = resolve(plugins)
    spec = plugins.game(game_id)  # an unknown id raises UnknownId naming the known games
    refs = [ref.ref for ref in list_rulesets(game_id, plugins)]
    expect(refs, f"{game_id} ships no ruleset (GameSpec.ruleset_dir holds no *.toml file)")
    for ref in refs:
        for seed in seeds:
            check_ruleset(ref, seed, plugins, max_plies=max_plies)
        try:
            check_random_move(ref, plugins)
        except ConformanceError as exc:
            raise ConformanceError(f"{ref}: {exc}") from None
    default = f"{game_id}/{spec.default_ruleset}"
    try:
        check_strict_decode(default, plugins)
        check_timers(game_id, plugins)
    except ConformanceError as exc:
        raise ConformanceError(f"{default}: {exc}") from None
    return refs


__all__ = [
    "ConformanceError",
    "Playout",
    "broken_variants",
    "check_advance",
    "check_game",
    "check_move_encodings",
    "check_observations",
    "check_random_move",
    "check_record",
    "check_ruleset",
    "check_strict_decode",
    "check_timers",
    "check_uniform_random_move",
    "checked_playout",
    "expect",
    "random_playout",
]
