"""The generic game-contract checks every game must pass.

Game authors: these functions only use the public API (pegboard.game,
pegboard.rulesets, pegboard.records, pegboard.schemas), so a new game is
covered as soon as its plugin is installed: tests/conformance/test_conformance.py
parametrises over every registered game and every shipped ruleset.

Hidden information: when ``game.hidden_information`` is true, a state may
offer ``hidden_from(player) -> iterable of JSON pointers`` (RFC 6901, e.g.
"/board/17/star") into ``to_json()`` naming what ``player`` may not know.
Each pointer must be absent from ``observation(player)`` (or resolve to
null there). Without ``hidden_from`` the suite still checks that a bot's
``player_view`` only offers moves that are legal in the real state and that
its observation equals the observation it was built from.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pegboard.game import Game, IllegalMove, Move, State
from pegboard.plugins import Plugins
from pegboard.records import dumps_record, parse_record, record_from_moves, validate_file, validate_record
from pegboard.rulesets import Ruleset, build_game, load_ruleset
from pegboard.schemas import game_schema_path, issues, validator

SAMPLE = 8  # moves sampled per position for the check/legal agreement
CLONE_EVERY = 37  # plies between clone-independence checks
HIDDEN_EVERY = 5  # plies between observation checks
ROUND_TRIP_EVERY = 3  # plies between to_json -> state_from_json round trips
SCHEMA_EVERY = 97  # plies between position-schema checks (schema validation is slow)


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
    game = state.game
    for player in range(len(game.seats)):
        observation = state.observation(player)
        json.dumps(observation)
        hidden = getattr(state, "hidden_from", None)
        if hidden is not None:
            for pointer in hidden(player):
                present, value = _pointer(observation, pointer)
                assert not present or value is None, f"{game.seats[player]} can see hidden {pointer}: {value!r}"
        view = state.player_view(player)
        assert view.observation(player) == observation, "player_view must be built from the observation"
        if player == state.to_move and state.result is None:
            real = set(state.legal_moves())
            offered = view.legal_moves()
            assert offered, "the mover's view must offer moves"
            assert set(offered) <= real, "a player's view offers moves that are illegal in the real state"


def checked_playout(plugins: Plugins, ref: str, seed: int, max_plies: int, candidates: list[Move]) -> Playout:
    """A seeded random playout that checks the contract at every ply."""
    game, ruleset = setup(plugins, ref)
    rng = random.Random(seed)
    state = game.new_state(seed)
    position_check = _position_validator(plugins, game.id)
    playout = Playout(game, ruleset, seed)
    assert state.ply == 0 and state.result is None, "a new game starts at ply 0, not over"
    while state.ply < max_plies:
        snapshot = state.to_json()
        if state.ply % ROUND_TRIP_EVERY == 0 or state.result is not None:
            assert game.state_from_json(snapshot).to_json() == snapshot, f"to_json/state_from_json round trip differs at ply {state.ply}"
        if position_check is not None and (state.ply % SCHEMA_EVERY == 0 or state.result is not None):
            problems = issues(position_check, snapshot)
            assert not problems, f"position at ply {state.ply} breaks the position schema: {problems[0]}"
        if game.hidden_information and state.ply % HIDDEN_EVERY == 0:
            check_observations(state)
        if state.result is not None:
            assert state.legal_moves() == [], "legal_moves must be empty once the game is over"
            break
        moves = state.legal_moves()
        assert moves, f"no legal moves at ply {state.ply} but the game is not over"
        legal = set(moves)
        assert len(legal) == len(moves), f"legal_moves repeats a move at ply {state.ply}"
        for move in rng.sample(moves, min(SAMPLE, len(moves))):
            assert state.check(move) is None, f"check refuses a legal move {state.move_text(move)} at ply {state.ply}: {state.check(move)}"
        for move in rng.sample(candidates, min(SAMPLE, len(candidates))):
            reason = state.check(move)
            if move in legal:
                assert reason is None, f"check refuses legal {state.move_text(move)} at ply {state.ply}"
            else:
                assert isinstance(reason, str) and reason, f"check accepts a move missing from legal_moves at ply {state.ply}"
                try:
                    state.apply(move)
                except IllegalMove as exc:
                    assert exc.reason and exc.rule, "IllegalMove needs a reason and a rule id"
                else:
                    raise AssertionError(f"apply accepted an illegal move at ply {state.ply}")
                assert state.to_json() == snapshot, "a refused move changed the state"
        move = rng.choice(moves)
        ply = state.ply
        state.apply(move)
        assert state.ply == ply + 1
        assert state.undo() == move, "undo must return the move it took back"
        assert state.to_json() == snapshot, f"apply+undo of {state.move_text(move)} does not restore ply {ply}"
        if ply % CLONE_EVERY == 0:
            copy = state.clone()
            copy.apply(move)
            assert state.to_json() == snapshot, "changing a clone changed the original"
            copy.undo()
            assert copy.to_json() == snapshot, "a clone's undo does not restore it"
        events = state.apply(move)
        for event in events:
            json.dumps(event.to_json())
        playout.moves.append(move)
    playout.finished = state.result is not None
    playout.state = state
    return playout


def _position_validator(plugins: Plugins, game_id: str) -> Any:
    path = game_schema_path(plugins.game(game_id).schema_dir, "position")
    return validator(path) if path.is_file() else None


def check_move_encodings(playout: Playout, plugins: Plugins) -> None:
    """Every move played and every move in the pool: encode -> JSON -> decode is identity, schema-valid."""
    game = playout.game
    move_check = validator(game_schema_path(plugins.game(game.id).schema_dir, "move"))
    for move in [*playout.moves, *playout.pool]:
        encoded = game.encode_move(move)
        decoded = game.decode_move(json.loads(json.dumps(encoded)))
        assert decoded == move, f"decode(encode({move!r})) gave {decoded!r}"
        assert hash(decoded) == hash(move)
        problems = issues(move_check, encoded)
        assert not problems, f"encoded move {encoded} breaks the move schema: {problems[0]}"
        assert isinstance(game.move_text(move), str) and game.move_text(move)


def check_record(playout: Playout, plugins: Plugins, folder: Path) -> None:
    """The playout as a match record validates through every stage, in JSON and every text format."""
    state = playout.state
    assert state is not None
    record = record_from_moves(
        playout.game, playout.ruleset, playout.seed, ["random"] * len(playout.game.seats), playout.moves, state.result
    )
    path = folder / "playout.match.json"
    path.write_text(dumps_record(record, ".json", plugins), encoding="utf-8")
    report = validate_file(path, plugins)
    assert report.ok, f"the playout's record does not validate: {report.errors[0]}"
    assert report.moves == len(playout.moves)
    for suffix in plugins.game(playout.game.id).text_formats:
        text_path = folder / f"playout{suffix}"
        text_path.write_text(dumps_record(record, suffix, plugins), encoding="utf-8")
        again = parse_record(text_path.read_text(encoding="utf-8"), text_path, plugins)
        assert again["moves"] == record["moves"], f"{suffix} round trip changes the moves"
        assert again["seed"] == record["seed"], f"{suffix} round trip changes the seed"
        assert validate_record(again, text_path, plugins).ok
