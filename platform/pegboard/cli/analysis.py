"""Positions and engines: ``legal``, ``eval`` and ``bench``."""


import json
from pathlib import Path
from typing import Annotated

import typer

from pegboard.cli.common import EXIT_INVALID, error_line, new_table, plugins, print_table, warning_line
from pegboard.errors import UsageProblem
from pegboard.game import State

RulesetOption = Annotated[str | None, typer.Option("--ruleset", "-r", help="Ruleset id or .toml file (default: the game's standard).")]


def _state(game_id: str, position: Path, ruleset: str | None) -> State:
    from pegboard.records.files import read_position
    from pegboard.rules.rulesets import load_game

    registry = plugins()
    spec = registry.game(game_id)
    game = load_game(game_id, ruleset, plugins=registry)
    return read_position(position, game, spec.schema_dir, registry)


def legal(
    game: Annotated[str, typer.Argument(metavar="GAME", help="The game id.")],
    position: Annotated[Path, typer.Argument(metavar="POSITION.json", help="A position file (the game's position schema).")],
    ruleset: RulesetOption = None,
) -> None:
    """Print every legal move of a position. One per line, in the game's notation."""
    state = _state(game, position, ruleset)
    if state.result is not None:
        print(f"# the game is over: {state.result.reason}", flush=True)
        return
    for move in state.legal_moves():
        print(state.move_text(move))


def evaluate(
    game: Annotated[str, typer.Argument(metavar="GAME", help="The game id.")],
    position: Annotated[Path, typer.Argument(metavar="POSITION.json", help="A position file.")],
    evaluator: Annotated[str | None, typer.Option(help="Evaluator id (default: the game's first).")] = None,
    ruleset: RulesetOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """Evaluate a position, term by term. A static evaluation, from the first seat's point of view."""
    registry = plugins()
    spec = registry.evaluator(game, evaluator)
    state = _state(game, position, ruleset)
    evaluation = spec.factory(state.game).evaluate(state)
    if as_json:
        print(json.dumps({"evaluator": spec.id, **evaluation.to_json()}, indent=2))
        return
    seats = registry.game(game).seats
    table = new_table(f"{spec.name}: score {evaluation.score:+.3f} for {seats[0]}")
    table.add_column("term")
    for seat in seats:
        table.add_column(seat, justify="right")
    table.add_column("weight", justify="right")
    table.add_column("contribution", justify="right")
    for term in evaluation.terms:
        values = [f"{term.values[i]:g}" if i < len(term.values) else "" for i in range(len(seats))]
        table.add_row(term.name, *values, f"{term.weight:g}", f"{term.contribution:+.3f}")
    table.add_section()
    table.add_row("total", *[""] * (len(seats) + 1), f"{evaluation.score:+.3f}")
    print_table(table)


def hint(
    game: Annotated[str, typer.Argument(metavar="GAME", help="The game id.")],
    position: Annotated[Path, typer.Argument(metavar="POSITION.json", help="A position file (the game's position schema).")],
    ruleset: RulesetOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of the move's text.")] = False,
) -> None:
    """Print the move the game's hint suggests. It is for the side to move, as the window offers it."""
    spec = plugins().game(game)
    if spec.hint is None:
        raise UsageProblem(f"{spec.name} offers no hints")
    state = _state(game, position, ruleset)
    move = None if state.result is not None else spec.hint(state.game, state, state.to_move)
    if as_json:
        encoded = None if move is None else state.game.encode_move(move)
        text = None if move is None else state.move_text(move)
        print(json.dumps({"seat": state.to_move, "move": encoded, "text": text}))
    elif state.result is not None:
        print("# the game is over: no hint")
    elif move is None:
        print(f"# no hint for {spec.seats[state.to_move]}")
    else:
        print(state.move_text(move))


def position(
    record: Annotated[Path, typer.Argument(metavar="MATCH_FILE", help="A match record (any format validate reads).")],
    move: Annotated[int | None, typer.Option("--move", "-m", min=0, help="The position after this many moves (default: the last).")] = None,
    out_file: Annotated[Path | None, typer.Option("--out", "-o", metavar="FILE", help="Write the JSON here instead of printing it (replaces FILE, never MATCH_FILE).")] = None,
) -> None:
    """Print a match record's position as JSON. It replays the record; legal and eval read the position."""
    from pegboard.records.files import check_output, write_text_atomic
    from pegboard.records.replay import replay
    from pegboard.records.validate import read_record

    if out_file is not None:
        check_output(out_file, record, force=True)  # an existing FILE is replaced, the record never
    data = read_record(record)
    total = len(data["moves"])
    if move is not None and move > total:
        raise UsageProblem(f"--move {move}: the record has only {total} moves")
    state, _ = replay({**data, "moves": data["moves"][:move]}, path=record)
    text = json.dumps(state.to_json(), indent=2, ensure_ascii=False) + "\n"
    if out_file is None:
        print(text, end="")
    else:
        write_text_atomic(out_file, text)
        print(f"wrote {out_file} (after {state.ply} of {total} moves)")


def _number(value: float) -> str:
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:,.1f}"
    return f"{value:.3g}"


def bench(
    game: Annotated[str | None, typer.Argument(metavar="GAME", help="Only this game (default: every game).")] = None,
    quick: Annotated[bool, typer.Option(help="A few seconds per benchmark (proves it runs; not for timing).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """Run the games' benchmarks. Prints the figures each game's benchmarks measure."""
    registry = plugins()
    game_ids = [game] if game else sorted(registry.games())
    for game_id in game_ids:
        registry.game(game_id)
    if not any(registry.benchmarks(game_id) for game_id in game_ids):
        print("[]" if as_json else f"{game} declares no benchmarks" if game else "no game declares benchmarks")
        return
    table = new_table("Benchmarks" + (" (quick)" if quick else ""))
    for column in ("game", "benchmark", "figure"):
        table.add_column(column)
    table.add_column("value", justify="right")
    table.add_column("unit")
    table.add_column("note")
    rows: list[dict[str, object]] = []
    failed = 0
    for game_id in game_ids:
        for spec in registry.benchmarks(game_id).values():
            try:
                figures = spec.run(quick)
            except Exception as exc:  # noqa: BLE001 - one broken benchmark must not hide the others
                failed += 1
                warning_line(f"benchmark {spec.id} ({game_id}) failed: {type(exc).__name__}: {exc}")
                continue
            for figure in figures:
                table.add_row(game_id, spec.name, figure.name, _number(figure.value), figure.unit, figure.note)
                rows.append({"game": game_id, "benchmark": spec.id, "figure": figure.name, "value": figure.value,
                             "unit": figure.unit, "note": figure.note})
    if as_json:
        print(json.dumps(rows, indent=2))
    else:
        print_table(table)
    if failed:
        error_line(f"{failed} benchmark(s) failed")
        raise typer.Exit(EXIT_INVALID)


def register(app: typer.Typer) -> None:
    app.command("position")(position)
    app.command("legal")(legal)
    app.command("eval")(evaluate)
    app.command("hint")(hint)
    app.command("bench")(bench)
