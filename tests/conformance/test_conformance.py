"""The game contract (:mod:`pegboard.testing`), checked for every registered game under every shipped ruleset.

New games are picked up automatically (entry points and PEGBOARD_PLUGINS);
the test-only toy game is always included so the suite itself stays tested,
and so are the example plugins: the single-file ones under plugins/examples
and the example game packages there (loaded as ``--plugin FOLDER`` would).
Playouts are seeded and capped so the whole suite stays fast.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from pegboard.plugins.manager import Plugins, get_plugins
from pegboard.rules.rulesets import list_rulesets
from pegboard.testing import Playout, check_advance, check_move_encodings, check_record, checked_playout, random_playout
from support import toygame

SEEDS = (1, 2)
MAX_PLIES = 2500
EXAMPLES = Path(__file__).resolve().parents[2] / "plugins" / "examples"


def _cases() -> list[object]:
    cases = []
    for plugins in (get_plugins(), toygame.make_plugins()):
        for game_id in sorted(plugins.games()):
            for ref in list_rulesets(game_id, plugins):
                for seed in SEEDS:
                    cases.append(pytest.param(plugins, ref.ref, seed, id=f"{ref.ref}-seed{seed}"))
    # the example plugins' rulesets (rule mods, whole games) must keep the contract too
    packages = sorted(init.parent for init in EXAMPLES.glob("*/*/__init__.py"))
    with_examples = Plugins(plugin_files=[*sorted(EXAMPLES.glob("*.py")), *packages])
    for ref in list_rulesets(plugins=with_examples):
        if EXAMPLES in ref.path.parents and ref.game in with_examples.games():
            cases.append(pytest.param(with_examples, ref.ref, SEEDS[0], id=f"example-{ref.ref}"))
    return cases


CASES = _cases()


@cache
def _pool(plugins: Plugins, ref: str, seed: int) -> tuple[object, ...]:
    """Legal moves seen in another seed's playout: candidates for the illegal-move checks."""
    return tuple(random_playout(plugins, ref, seed + 1000, 200).pool)


@cache
def _checked(plugins: Plugins, ref: str, seed: int) -> Playout:
    return checked_playout(plugins, ref, seed, MAX_PLIES, list(_pool(plugins, ref, seed)))


@pytest.fixture(autouse=True)
def _process_wide(request: pytest.FixtureRequest) -> Iterator[None]:
    """Make the case's plugin manager the process-wide one, as the CLI does (game code may call get_plugins())."""
    from pegboard.plugins import manager

    case = getattr(request.node, "callspec", None)
    previous = manager._current
    if case is not None and "plugins" in case.params:
        manager.set_plugins(case.params["plugins"])
    yield
    manager.set_plugins(previous)


@pytest.mark.parametrize(("plugins", "ref", "seed"), CASES)
def test_playout_keeps_the_contract(plugins: Plugins, ref: str, seed: int) -> None:
    playout = _checked(plugins, ref, seed)
    assert playout.moves, "a playout made no move"


@pytest.mark.parametrize(("plugins", "ref", "seed"), CASES)
def test_moves_encode_decode_and_match_the_schema(plugins: Plugins, ref: str, seed: int) -> None:
    check_move_encodings(_checked(plugins, ref, seed), plugins)


@pytest.mark.parametrize(("plugins", "ref", "seed"), CASES)
def test_playout_record_validates(plugins: Plugins, ref: str, seed: int, tmp_path: Path) -> None:
    check_record(_checked(plugins, ref, seed), plugins, tmp_path)


@pytest.mark.parametrize(("plugins", "ref", "seed"), CASES)
def test_advance_plays_like_push(plugins: Plugins, ref: str, seed: int) -> None:
    check_advance(_checked(plugins, ref, seed))


def test_every_installed_game_has_a_case() -> None:
    games = {param.values[1].split("/")[0] for param in CASES}  # type: ignore[attr-defined]
    assert "toy" in games
    assert "connect4" in games, "the example game package is checked too"
    assert set(get_plugins().games()) <= games
