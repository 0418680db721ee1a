"""The window's background analysis (pegboard.analysis.background): one position per job on the
bot workers, the same verdicts as a plain run, and a resumed analysis that skips what it has."""

from __future__ import annotations

import pytest

from pegboard.analysis.analyse import Analysis
from pegboard.analysis.background import BackgroundAnalysis
from pegboard.analysis.engine import Settings
from pegboard.plugins.manager import Plugins

SETTINGS = Settings(budget=40)


@pytest.fixture(scope="module")
def record() -> dict:
    from pegboard.ui import make_session

    session = make_session("nodewar", "skirmish", ["random", "random"], Plugins(), seed=1, threaded=False)
    session.run_bots(max_moves=20)
    return session.to_record()


def test_inline_judges_one_position_per_poll_and_matches_a_plain_run(record):
    plugins = Plugins()
    expected = Analysis.of_record(record, SETTINGS, plugins).run()
    analysis = Analysis.of_record(record, SETTINGS, plugins)
    runner = BackgroundAnalysis(analysis, "inline")
    polls = 0
    while runner.running:
        arrived = runner.poll()
        polls += 1
        assert len(arrived) == 1 and arrived[0].ply == polls - 1, "one position per poll, in order"
        assert polls <= 100
    assert polls == expected.total == 21 and runner.complete and runner.error is None
    assert analysis.review.curve() == expected.curve()
    assert [r.to_json() for r in analysis.review.rows] == [r.to_json() for r in expected.rows]


def test_a_thread_worker_fills_the_review_and_a_resumed_one_skips_what_it_has(record):
    plugins = Plugins()
    analysis = Analysis.of_record(record, SETTINGS, plugins)
    first = BackgroundAnalysis(analysis, "inline")
    for _ in range(5):
        first.poll()
    first.close()
    assert first.closed and not first.running and analysis.review.done == 5
    assert first.poll() == [], "a closed analysis judges nothing more"
    again = BackgroundAnalysis(analysis, "thread")
    judged = []
    for _ in range(500):
        judged += [v.ply for v in again.poll()]
        if again.complete:
            break
        again.wait(30.0)
    assert again.complete and judged == list(range(5, 21)), "the five judged positions are not judged again"
