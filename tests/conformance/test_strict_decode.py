"""A game whose spec says ``strict_decode`` must refuse, in ``decode_move``, every value its
move schema refuses: ``pegboard validate`` then checks that game's moves by decoding them.

Values are real encoded moves from a seeded playout, broken one part at a time (a key
dropped, added or given another JSON value; an array item replaced, one added or
removed), plus plain JSON values. Whatever decodes must pass the move schema.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from pegboard.game import InvalidMoveEncoding
from pegboard.plugins.manager import get_plugins
from pegboard.records.schemas import game_schema_path
from pegboard.rules.rulesets import build_game, load_ruleset
from support import toygame

SAMPLES: list[Any] = [None, True, False, 0, 1, -1, 2.0, 2.5, 10**6, "", "x", "grow", [], [0], [0, 0], [0, 0, 0], {}, {"a": 1}]


def _cases() -> list[object]:
    cases = []
    for plugins in (get_plugins(), toygame.make_plugins()):
        for game_id, spec in sorted(plugins.games().items()):
            if spec.strict_decode:
                cases.append(pytest.param(plugins, spec, id=game_id))
    return cases


def variants(value: Any, depth: int = 2) -> Iterator[Any]:
    """``value`` with one part broken, to ``depth`` levels of nesting."""
    yield from SAMPLES
    if isinstance(value, dict):
        yield {**value, "extra": 1}
        for key, item in value.items():
            yield {k: v for k, v in value.items() if k != key}
            for other in variants(item, depth - 1) if depth else SAMPLES:
                yield {**value, key: other}
    elif isinstance(value, list):
        yield [*value, 0]
        yield value[:-1]
        for index, item in enumerate(value):
            for other in variants(item, depth - 1) if depth else SAMPLES:
                yield [*value[:index], other, *value[index + 1:]]


def test_node_war_decodes_strictly() -> None:
    assert get_plugins().games()["nodewar"].strict_decode


@pytest.mark.parametrize(("plugins", "spec"), _cases())
def test_strict_decode_refuses_what_the_move_schema_refuses(plugins: Any, spec: Any) -> None:
    with open(game_schema_path(spec.schema_dir, "move"), encoding="utf-8") as handle:
        schema = Draft202012Validator(json.load(handle))
    game = build_game(load_ruleset(f"{spec.id}/{spec.default_ruleset}", plugins=plugins), plugins)
    state, rng, encoded = game.new_state(3), random.Random(3), []
    while state.result is None and len(encoded) < 40:
        move = rng.choice(state.legal_moves())
        encoded.append(game.encode_move(move))
        state.push(move)
    decoded = refused = 0
    for original in encoded[::4]:
        for value in variants(json.loads(json.dumps(original))):
            try:
                game.decode_move(value)
            except InvalidMoveEncoding:
                refused += 1
                continue
            decoded += 1
            assert schema.is_valid(value), f"{spec.id} decodes {value!r}, which its move schema refuses"
    assert decoded and refused
