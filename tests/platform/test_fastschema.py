"""The fast move check must agree with jsonschema wherever it gives an answer."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from pegboard.plugins.manager import get_plugins
from pegboard.records.fastschema import _tagged, compile_predicate
from pegboard.records.schemas import game_schema_path

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.floats(-3, 12, allow_nan=False) | st.sampled_from(
        ["grow", "split", "loop", "revive", "swap", "move", "fire", "claim", "pass", "concede", "ram", "x", ""]
    ),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(
        st.sampled_from(["kind", "type", "from", "to", "a", "b", "at", "dir", "side", "reason", "seat", "extra"]),
        inner,
        max_size=4,
    ),
    max_leaves=12,
)

SCHEMAS = {
    "object": {
        "type": "object",
        "required": ["type"],
        "additionalProperties": False,
        "properties": {"type": {"const": "a"}, "n": {"type": "integer", "minimum": 0, "maximum": 9}},
    },
    "oneOf": {"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 2}]},
    "anyOf": {"anyOf": [{"type": "string", "minLength": 2}, {"type": "null"}]},
    "tuple": {"type": "array", "prefixItems": [{"type": "boolean"}, {"enum": [1, "x", None]}], "items": False, "minItems": 1},
    "recursive": {"$defs": {"t": {"type": "array", "items": {"$ref": "#/$defs/t"}, "maxItems": 2}}, "$ref": "#/$defs/t"},
    "pattern": {"type": ["string", "integer"], "pattern": "^[a-z][a-z0-9_-]*$"},
    "tagged": {"oneOf": [  # told apart by "type": only the branch a tag names is run
        {"type": "object", "required": ["type", "a"], "properties": {"type": {"const": "swap"}, "a": {"type": "integer"}}},
        {"type": "object", "required": ["type"], "additionalProperties": False,
         "properties": {"type": {"enum": ["move", "fire"]}, "to": {"type": "integer", "minimum": 2}}},
        {"type": "object", "required": ["type"], "properties": {"type": {"const": "pass"}}},
    ]},
    "overlapping tags": {"oneOf": [  # "move" in two branches: every branch is run
        {"type": "object", "required": ["type"], "properties": {"type": {"enum": ["move", "fire"]}}},
        {"type": "object", "required": ["type"], "properties": {"type": {"const": "move"}, "a": {"type": "integer"}}},
    ]},
    "pair": {  # an exact length, typed items: the compiler drops the checks the type test proved
        "type": "array",
        "prefixItems": [{"type": "integer", "minimum": 0}, {"type": "string", "minLength": 1}],
        "minItems": 2,
        "maxItems": 2,
    },
    "untyped": {"minimum": 1, "maxItems": 1, "minLength": 1, "required": ["a"]},  # each keyword ignores other types
    "list": {"$defs": {"p": {"type": "object", "required": ["a"]}}, "type": "array", "items": {"$ref": "#/$defs/p"}},
}


def test_only_a_oneof_of_disjoint_tags_is_dispatched() -> None:
    assert _tagged(SCHEMAS["tagged"]["oneOf"]) is not None
    assert _tagged(SCHEMAS["overlapping tags"]["oneOf"]) is None
    assert _tagged(SCHEMAS["oneOf"]["oneOf"]) is None


def game_move_schemas() -> list[tuple[str, dict]]:
    found = []
    for game_id, spec in sorted(get_plugins().games().items()):
        with open(game_schema_path(spec.schema_dir, "move"), encoding="utf-8") as handle:
            found.append((game_id, json.load(handle)))
    return found


@pytest.mark.parametrize("name", sorted(SCHEMAS))
@settings(max_examples=300, deadline=None)
@given(value=json_values)
def test_agrees_with_jsonschema_on_hand_written_schemas(name: str, value: object) -> None:
    schema = SCHEMAS[name]
    fast = compile_predicate(schema)
    assert fast is not None
    assert fast(value) == Draft202012Validator(schema).is_valid(value)


@pytest.mark.parametrize(("game_id", "schema"), game_move_schemas(), ids=lambda v: v if isinstance(v, str) else "")
@settings(max_examples=400, deadline=None)
@given(value=json_values)
def test_agrees_with_jsonschema_on_every_games_move_schema(game_id: str, schema: dict, value: object) -> None:
    fast = compile_predicate(schema)
    assert fast is not None, f"{game_id}'s move schema should stay within the fast subset"
    assert fast(value) == Draft202012Validator(schema).is_valid(value)


def test_real_moves_pass_and_near_misses_fail() -> None:
    schema = dict(game_move_schemas())["nodewar"]
    fast = compile_predicate(schema)
    assert fast({"kind": "grow", "from": [6, 2], "to": [6, 6]})
    assert not fast({"kind": "grow", "from": [6, 2], "to": [6, -1]})
    assert not fast({"kind": "grow", "from": [6, 2], "to": [6, 6, 1]})
    assert not fast({"kind": "hop", "from": [6, 2], "to": [6, 6]})
    assert not fast({"kind": "grow", "from": [6, 2], "to": [6, True]})


def test_unsupported_keywords_mean_no_fast_path() -> None:
    assert compile_predicate({"type": "string", "format": "date"}) is None
    assert compile_predicate({"type": "string", "pattern": "(unclosed"}) is None
    assert compile_predicate({"$ref": "https://elsewhere.example/s.json"}) is None
    assert compile_predicate({"type": "quaternion"}) is None


def test_external_refs_link_in_compiled_predicates() -> None:
    uri = "https://pegboard.dev/schemas/current-game/move.schema.json"
    fast = compile_predicate({"type": "array", "items": {"$ref": uri}}, {uri: lambda v: v == 1})
    assert fast is not None
    assert fast([1, 1]) and not fast([1, 2])


def _nodewar_record() -> dict:
    from pegboard.records.files import record_from_moves
    from pegboard.rules.rulesets import build_game, load_ruleset

    ruleset = load_ruleset("standard", game="nodewar")
    game = build_game(ruleset)
    state = game.new_state()
    moves = state.legal_moves()[:1]
    return record_from_moves(game, ruleset, 0, ["random", "random"], moves)


@pytest.mark.parametrize(
    "spoil",
    [
        lambda r: r.update(game="Node War"),  # the envelope's pattern
        lambda r: r.pop("seed"),
        lambda r: r.update(format="pegboard.match/2"),
        lambda r: r["moves"].append({"kind": "grow", "from": [0, 0], "to": [0]}),
        lambda r: r["ruleset"].update(name=7),
        lambda r: r["ruleset"]["board"].update(width="wide"),
        lambda r: r["players"][0].update(seat=""),
        lambda r: r.update(result={"winner": -1, "reason": "no_moves"}),
    ],
)
def test_whole_record_check_agrees_with_jsonschema(spoil) -> None:
    from pegboard.records.schemas import issues, match_predicate, match_validator

    spec = get_plugins().game("nodewar")
    fast = match_predicate(spec.schema_dir)
    assert fast is not None, "the match envelope and Node War's schemas should stay within the fast subset"
    record = _nodewar_record()
    assert fast(record) and not issues(match_validator(spec.schema_dir), record)
    spoil(record)
    assert not fast(record)
    assert issues(match_validator(spec.schema_dir), record)
