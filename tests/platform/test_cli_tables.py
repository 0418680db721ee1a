"""The command line's tables (rich): sections, captions, literal text, fitting the console width."""

from __future__ import annotations

import io

import pytest

from pegboard.cli.common import new_table, print_table


def sample():  # type: ignore[no-untyped-def]
    table = new_table("Games")
    table.add_column("bot")
    table.add_column("wins", justify="right")
    table.add_row("random #1", "12")
    table.add_section()
    table.add_row("expert [bold]", "3")
    table.caption = "2 game(s)"
    return table


def printed(columns: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.setenv("COLUMNS", columns)
    stream = io.StringIO()
    print_table(sample(), stream)
    return stream.getvalue().splitlines()


def test_a_table_prints_title_rows_a_section_line_and_caption_with_right_justified_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = printed("80", monkeypatch)
    assert lines[0].strip() == "Games"
    assert lines[-1].strip() == "2 game(s)"
    assert any(line.startswith("├") for line in lines), "the section line"
    row = next(line for line in lines if "random #1" in line)
    assert row.rstrip().endswith("12 │") and "   12" in row


def test_cell_text_is_printed_literally_not_read_as_markup(monkeypatch: pytest.MonkeyPatch) -> None:
    assert any("expert [bold]" in line for line in printed("80", monkeypatch))


@pytest.mark.parametrize("columns", ["24", "200"])
def test_print_table_fits_the_columns_variable(monkeypatch: pytest.MonkeyPatch, columns: str) -> None:
    lines = printed(columns, monkeypatch)
    assert max(len(line) for line in lines) <= int(columns)
    assert any("random" in line for line in lines)
