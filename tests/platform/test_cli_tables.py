"""The command line's box tables: layout, justification, sections, fitting a narrow console."""

from __future__ import annotations

import io

import pytest
from pegboard.cli.tables import Table, print_table


def sample() -> Table:
    table = Table(title="Games", caption="2 game(s)")
    table.add_column("bot")
    table.add_column("wins", justify="right")
    table.add_row("random #1", "12")
    table.add_section()
    table.add_row("expert", "3")
    return table


def test_a_table_has_a_heavy_head_light_body_right_justified_numbers_and_a_section_line() -> None:
    lines = sample().render()
    assert lines == [
        "       Games",
        "┏━━━━━━━━━━━┳━━━━━━┓",
        "┃ bot       ┃ wins ┃",
        "┡━━━━━━━━━━━╇━━━━━━┩",
        "│ random #1 │   12 │",
        "├───────────┼──────┤",
        "│ expert    │    3 │",
        "└───────────┴──────┘",
        "     2 game(s)",
    ]


def test_a_table_wider_than_the_console_wraps_its_widest_column_and_cuts_long_words() -> None:
    table = Table()
    table.add_column("id")
    table.add_column("bots")
    table.add_row("nodewar", "easy, medium, openspiel-mcts")
    lines = table.render(width=22)
    assert all(len(line) <= 22 for line in lines)
    body = [line for line in lines if line.startswith("│")]
    assert body[0] == "│ nodewar │ easy,    │"
    assert body[1] == "│         │ medium,  │"
    assert body[2] == "│         │ openspi… │"


@pytest.mark.parametrize("columns", ["30", "200"])
def test_print_table_fits_the_columns_variable(monkeypatch: pytest.MonkeyPatch, columns: str) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    stream = io.StringIO()
    print_table(sample(), stream)
    assert max(len(line) for line in stream.getvalue().splitlines()) <= int(columns)
    assert "random #1" in stream.getvalue() or "random" in stream.getvalue()
