"""A game whose spec says ``strict_decode`` must refuse, in ``decode_move``, every value its
move schema refuses: ``pegboard validate`` then checks that game's moves by decoding them.

The check itself is :func:`pegboard.testing.check_strict_decode` (``check_game`` runs it,
so third-party games run it too); here it runs for every installed game and the toy game.
"""

from __future__ import annotations

from typing import Any

import pytest

from pegboard.errors import ConformanceError
from pegboard.plugins.manager import get_plugins
from pegboard.testing import BROKEN_SAMPLES, broken_variants, check_strict_decode
from support import toygame


def _cases() -> list[object]:
    cases = []
    for plugins in (get_plugins(), toygame.make_plugins()):
        for game_id, spec in sorted(plugins.games().items()):
            if spec.strict_decode:
                cases.append(pytest.param(plugins, spec, id=game_id))
    return cases


def test_node_war_decodes_strictly() -> None:
    assert get_plugins().games()["nodewar"].strict_decode


@pytest.mark.parametrize(("plugins", "spec"), _cases())
def test_strict_decode_refuses_what_the_move_schema_refuses(plugins: Any, spec: Any) -> None:
    assert check_strict_decode(f"{spec.id}/{spec.default_ruleset}", plugins) > 10 * len(BROKEN_SAMPLES)


def test_a_game_that_does_not_say_strict_decode_is_not_held_to_it() -> None:
    plugins = toygame.make_plugins()
    spec = plugins.game("toy")
    assert not spec.strict_decode
    assert check_strict_decode("toy/standard", plugins) == 0


def test_the_variants_break_one_part_at_a_time() -> None:
    variants = list(broken_variants({"take": 2, "pile": [0, 1]}))
    assert {"take": 2} in variants and {"pile": [0, 1]} in variants
    assert {"take": 2, "pile": [0, 1], "extra": 1} in variants and {"take": 2, "pile": [0]} in variants
    assert {"take": None, "pile": [0, 1]} in variants and {"take": 2, "pile": [0, "x"]} in variants


def test_the_check_catches_a_lax_decoder(monkeypatch: pytest.MonkeyPatch) -> None:
    plugins = get_plugins()
    spec = plugins.game("nodewar")
    from pegboard.rules.rulesets import build_game, load_ruleset

    game_class = type(build_game(load_ruleset("nodewar/standard", plugins=plugins), plugins))
    original = game_class.decode_move

    def lax(self: Any, data: Any) -> Any:
        if isinstance(data, dict) and "extra" in data:  # a decoder that ignores unknown keys
            return original(self, {k: v for k, v in data.items() if k != "extra"})
        return original(self, data)

    monkeypatch.setattr(game_class, "decode_move", lax)
    with pytest.raises(ConformanceError, match="which its move schema refuses"):
        check_strict_decode(f"nodewar/{spec.default_ruleset}", plugins)
