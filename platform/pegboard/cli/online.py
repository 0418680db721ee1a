"""Online commands: ``lobby serve``, ``online-bot``, and the terminal client behind ``play --online``."""


import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pegboard.cli.common import EXIT_INVALID, error_line, plugins, warning_line
from pegboard.errors import ProtocolError, UsageProblem
from pegboard.game import IllegalMove, Move, PegboardError
from pegboard.online import DEFAULT_LOBBY, DEFAULT_PORT
from pegboard.online.limits import Limits

# The protocol, logging and threading modules are imported by the commands that use them
# (every `pegboard` start-up imports this module to list its commands).
if TYPE_CHECKING:

    from pegboard.online.client import Notice, OnlineClient

lobby_app = typer.Typer(name="lobby", help="Run a lobby for online play.", no_args_is_help=True)


def _check_url(url: str) -> str:
    from pegboard.online import protocol as p

    try:
        return p.check_lobby_url(url)
    except ProtocolError as exc:
        raise UsageProblem(exc.reason) from None


CAFILE_HELP = "For a wss:// lobby: trust only the certificate authority in this PEM file (default: the system's)."


def _cafile(path: Path | None) -> str | None:
    if path is not None and not path.is_file():
        raise UsageProblem(f"--cafile {path}: no such file")
    return str(path) if path is not None else None


def _log_to_file(store_folder: Path) -> None:
    """Refused moves and link trouble go to ``online.log`` beside the tickets, not over the board."""
    import logging

    logger = logging.getLogger("pegboard.online")
    logger.setLevel(logging.INFO)
    logger.propagate = False
    from logging.handlers import RotatingFileHandler

    try:
        store_folder.mkdir(parents=True, exist_ok=True)
        # bounded: 1 MiB, then one older file (whatever a peer sends)
        handler: logging.Handler = RotatingFileHandler(store_folder / "online.log", maxBytes=1 << 20, backupCount=1,
                                                       encoding="utf-8")
    except OSError:
        handler = logging.NullHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    logger.addHandler(handler)


# -- pegboard lobby serve ----------------------------------------------------------------------


_LIMITS = Limits()
_SERVE_HELP = "See docs/online.md, 'Running a lobby on the internet', for what each limit guards."


@lobby_app.command("serve", epilog=_SERVE_HELP)
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (loopback by default; see docs/online.md before opening it up).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on.")] = DEFAULT_PORT,
    no_list: Annotated[bool, typer.Option("--no-list", help="Switch the list off: waiting players get a 4-letter code instead.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Log only attacks and trouble, not every connection closed.")] = False,
    tls_cert: Annotated[Path | None, typer.Option("--tls-cert", metavar="FILE", help="Serve wss:// with this PEM certificate (chain) ...")] = None,
    tls_key: Annotated[Path | None, typer.Option("--tls-key", metavar="FILE", help="... and its PEM private key.")] = None,
    data: Annotated[Path | None, typer.Option("--data", metavar="DIR", help="Folder for claimed names and open matches (default: lobby/ in the Pegboard home).")] = None,
    max_connections: Annotated[int, typer.Option(min=1, help="Connections at once, in all.")] = _LIMITS.max_connections,
    per_address: Annotated[int, typer.Option(min=1, help="Connections at once from one address (an IPv6 /64).")] = _LIMITS.per_address,
    max_message: Annotated[int, typer.Option(min=4096, help="Largest message in bytes (a bigger one closes its connection).")] = _LIMITS.max_message,
    max_rooms: Annotated[int, typer.Option(min=1, help="Open matches at once, in all.")] = _LIMITS.max_rooms,
    rooms_per_address: Annotated[int, typer.Option(min=1, help="Open matches one address may be in.")] = _LIMITS.rooms_per_address,
    rate: Annotated[float, typer.Option(min=0.1, help="Messages a second per connection (faster ones wait) ...")] = _LIMITS.rate,
    burst: Annotated[float, typer.Option(min=1, help="... and in one burst.")] = _LIMITS.burst,
    list_bytes: Annotated[float, typer.Option(min=1024, help="Bytes of list replies a second per connection (more waits).")] = _LIMITS.list_bytes,
    waiting_per_address: Annotated[int, typer.Option(min=1, help="Players one address may have waiting at once.")] = _LIMITS.waiting_per_address,
    hello_timeout: Annotated[float, typer.Option(min=0.1, help="Seconds a new connection has to say hello.")] = _LIMITS.hello_timeout,
    idle_timeout: Annotated[float, typer.Option(min=1, help="Seconds a connection may stay silent (clients ping every minute).")] = _LIMITS.idle_timeout,
    code_guesses: Annotated[int, typer.Option(min=1, help="Wrong code guesses, lobby-wide, after which a waiting code is replaced.")] = _LIMITS.code_guesses,
    claims_per_hour: Annotated[int, typer.Option(min=1, help="New names one address may claim an hour.")] = _LIMITS.claims_per_hour,
    name_days: Annotated[float, typer.Option(min=1, help="Days a claimed name is kept unused.")] = _LIMITS.name_days,
    room_ttl: Annotated[float, typer.Option(min=1, help="Seconds a match nobody is connected to stays open for a rejoin.")] = _LIMITS.room_ttl,
) -> None:
    """Run a lobby for online play. It pairs players and relays their messages (the waiting player's program runs the match)."""
    import asyncio
    import dataclasses
    import ipaddress
    import logging

    from pegboard.online.lobbydata import LobbyData
    from pegboard.online.server import Lobby, serve_forever
    from pegboard.ratings.profile import profile_home

    if (tls_cert is None) != (tls_key is None):
        raise UsageProblem("--tls-cert and --tls-key go together: the certificate and its private key")
    tls = None
    if tls_cert is not None and tls_key is not None:
        from pegboard.online.tls import server_context

        tls = server_context(tls_cert, tls_key)
    limits = dataclasses.replace(
        _LIMITS, max_connections=max_connections, per_address=per_address, max_message=max_message, max_rooms=max_rooms,
        rooms_per_address=rooms_per_address, rate=rate, burst=burst, list_bytes=list_bytes,
        list_burst=max(_LIMITS.list_burst, 4 * list_bytes), waiting_per_address=waiting_per_address,
        hello_timeout=hello_timeout, idle_timeout=idle_timeout, code_guesses=code_guesses,
        claims_per_hour=claims_per_hour, name_days=name_days, room_ttl=room_ttl)
    folder = data if data is not None else profile_home() / "lobby"
    logging.basicConfig(level=logging.WARNING if quiet else logging.INFO, format="%(asctime)s %(message)s")
    # websockets logs a failed handshake (bad input: a port scan, a plain HTTP request) at INFO with a
    # traceback; its warnings and errors (a bug in a handler) stay
    logging.getLogger("websockets").setLevel(logging.WARNING)
    try:
        if not ipaddress.ip_address(host).is_loopback and tls is None:
            warning_line(f"listening on {host} without TLS: use --tls-cert/--tls-key for anything beyond your own network (docs/online.md)")
    except ValueError:
        warning_line(f"listening on {host!r}: make sure only your friends can reach it (docs/online.md)")
    lobby = Lobby(listing=not no_list, limits=limits, data=LobbyData(folder))
    scheme = "wss" if tls is not None else "ws"

    def ready(bound: int) -> None:
        mode = "no list: waiting players get 4-letter codes" if no_list else "waiting players are listed"
        print(f"lobby on {scheme}://{host}:{bound} ({mode}); data in {folder}; Ctrl-C stops it", flush=True)

    try:
        asyncio.run(serve_forever(lobby, host, port, ready, tls))
    except KeyboardInterrupt:
        print("lobby stopped", file=sys.stderr)
    except OSError as exc:
        raise PegboardError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    finally:
        lobby.data.close()


# -- pegboard online-bot -----------------------------------------------------------------------


def online_bot(
    game: Annotated[str, typer.Argument(metavar="GAME", help="The game id.")],
    bot: Annotated[str, typer.Argument(metavar="BOT", help="The bot that plays (see pegboard games).")],
    lobby: Annotated[str, typer.Option("--lobby", metavar="URL", help="The lobby, ws://HOST:PORT (or wss:// with TLS).")] = DEFAULT_LOBBY,
    name: Annotated[str | None, typer.Option("--name", help="Name on the list (default: the bot's name).")] = None,
    ruleset: Annotated[str | None, typer.Option("--ruleset", "-r", help="Ruleset id or .toml file the bot offers.")] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=0, help="Stop after this many games (0: never).")] = 0,
    cafile: Annotated[Path | None, typer.Option("--cafile", metavar="FILE", help=CAFILE_HELP)] = None,
) -> None:
    """Wait in the lobby with a bot. It plays whoever picks it, again and again."""
    from pegboard.online.client import HostSettings, OnlineClient

    _check_url(lobby)
    registry = plugins()
    spec = registry.bot(game, bot)
    client = OnlineClient(lobby, name or spec.name, game, plugins=registry,
                          host=HostSettings(ruleset=ruleset, player=bot), cafile=_cafile(cafile))
    _log_to_file(client.player.store.folder)
    ticket = client.resume_unfinished()
    mode = client.connect(ticket)
    played = 0
    print(f"{client.player.name} ({bot}) in the lobby at {lobby} ({mode})", flush=True)
    if ticket is None:
        client.ready()
    try:
        while games == 0 or played < games:
            for notice in client.poll():
                if notice.kind in ("waiting", "paired", "start", "over", "peer", "error", "link"):
                    print(f"{notice.kind}: {notice.text}", flush=True)
                if notice.kind == "over":
                    played += 1
                    client.next_match()
                    if games == 0 or played < games:
                        client.ready()
            client.wakeup.wait(0.01)  # short: a bot's answer is collected by the next poll
    except KeyboardInterrupt:
        pass
    finally:
        client.close(leave=client.player.ticket is None)


# -- pegboard play GAME --online NAME -----------------------------------------------------------


HELP_LINES = """commands: a move as the game writes it, or its number from '?'; ? lists your moves;
board shows the board; resign leaves the match (a loss); quit leaves the program (the match stays open)"""


class _Input:
    """Lines typed by the person, read on a thread so the network keeps running."""

    def __init__(self) -> None:
        import queue
        import threading

        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, name="pegboard-stdin", daemon=True).start()

    def _read(self) -> None:
        try:
            for line in sys.stdin:
                self.lines.put(line.strip())
        except (OSError, ValueError):  # no usable input (closed, or captured by a test runner)
            pass
        self.lines.put(None)

    def get(self, timeout: float) -> str | None | bool:
        """A line, None at end of input, False when nothing was typed in ``timeout``."""
        import queue

        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            return False


def _board(client: "OnlineClient") -> None:
    view, seat = client.view(), client.seat
    if view is not None:
        print(view.text_for(seat) if seat is not None else str(view), flush=True)  # own side at the bottom
    print(client.status_line(), flush=True)


def _parse_move(client: "OnlineClient", text: str) -> Move | None:
    moves = client.legal_moves()
    if text.isdigit():
        index = int(text) - 1
        return moves[index] if 0 <= index < len(moves) else None
    view = client.view()
    wanted = " ".join(text.lower().split())
    for move in moves:
        if view is not None and " ".join(view.move_text(move).lower().split()) == wanted:
            return move
    return None


def _news(client: "OnlineClient", data: dict[str, object]) -> None:
    """What the other side did: the host hears the guest's move, the guest the events it may see."""
    moved = data.get("moved")
    if isinstance(moved, dict) and moved.get("seat") != client.seat:
        print(f"{client.player.peer_name}: {moved.get('text')}", flush=True)
    events = data.get("events")
    if isinstance(events, list):
        for event in events:
            if isinstance(event, dict) and event.get("text"):
                print(f"  {event['text']}", flush=True)


def _list_moves(client: "OnlineClient") -> None:
    view = client.view()
    moves = client.legal_moves()
    if not moves or view is None:
        print("no moves for you now", flush=True)
        return
    for index, move in enumerate(moves, start=1):
        print(f"{index:4d}. {view.move_text(move)}")


def _lobby_prompt(client: "OnlineClient") -> None:
    players = client.player.players
    if client.player.lobby_mode == "codes":
        print("the lobby list is switched off: type r to wait for a friend (you get a code), or type their code", flush=True)
        return
    first = client.player.list_offset
    if players:
        print("waiting to play:" if not first else f"waiting to play (from the {first + 1}th on):")
        for index, entry in enumerate(players, start=1):
            rating = f"{entry['rating']:.0f}" if isinstance(entry.get("rating"), (int, float)) else "-"
            print(f"{index:3d}. {entry.get('name')}  {entry.get('game')}  {entry.get('ruleset')}  rating {rating}  {entry.get('settings', '')}")
    else:
        print("nobody is waiting yet")
    more = client.player.list_total - first - len(players)
    if more > 0:
        print(f"{more} more waiting: m shows the next ones")
    print("type a number to play that player, r when you are ready to play (your name goes on the list), l to look again, q to quit", flush=True)


def play_online(game: str, name: str, lobby: str, code: str | None, ruleset: str | None,
                cafile: Path | None = None) -> int:
    """The terminal client of ``pegboard play GAME --online NAME``; returns the exit code."""
    from pegboard.online import protocol as p
    from pegboard.online.client import HostSettings, OnlineClient

    _check_url(lobby)
    if code is not None:
        try:
            code = p.normalise_code(code)
        except ProtocolError as exc:
            raise UsageProblem(exc.reason) from None
    registry = plugins()
    registry.game(game)
    from pegboard.ratings.profile import open_profile

    with open_profile() as profile:  # the rating travels with the player; the result lands here
        client = OnlineClient(lobby, name, game, plugins=registry, host=HostSettings(ruleset=ruleset), profile=profile,
                              cafile=_cafile(cafile))
        return _terminal(client, code)


def _show(client: "OnlineClient", notice: "Notice") -> None:
    """Print one piece of news for the person."""
    if notice.kind == "list":
        _lobby_prompt(client)
    elif notice.kind == "offer":
        print("the host's settings:\n  " + "\n  ".join(notice.data.get("lines", [notice.text])))
        print("play with these settings? (y/n)", flush=True)
    elif notice.kind == "state":
        _news(client, notice.data)
    else:
        print(notice.text or notice.kind, flush=True)


def _join_answer(client: "OnlineClient", wait: float = 15.0) -> str | None:
    """Wait for the lobby's answer to a code: None once paired, else why not."""
    import time

    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        for notice in client.poll():
            if notice.kind == "error":
                return notice.text
            _show(client, notice)
        if client.player.ticket is not None:
            return None
        client.wakeup.wait(0.05)
    return "the lobby did not answer the code in time"


def _terminal(client: "OnlineClient", code: str | None) -> int:
    """The terminal session itself: the lobby, then the match, until it ends or the person quits."""
    _log_to_file(client.player.store.folder)
    ticket = client.resume_unfinished() if code is None else None
    mode = client.connect(ticket)
    if ticket is not None:
        print(f"picking up your match with {client.player.peer_name} ({ticket.match[:8]})", flush=True)
    elif code is not None:
        client.join(code)
        failure = _join_answer(client)
        if failure is not None:
            error_line(failure)
            client.close()
            return EXIT_INVALID
    elif mode == "list":
        client.refresh_list()
    else:
        _lobby_prompt(client)
    typed = _Input()
    shown_turn: int | None = -1
    try:
        while True:
            for notice in client.poll():
                _show(client, notice)
                if notice.kind in ("state", "start"):
                    shown_turn = -1
                if notice.kind == "over":  # the result is recorded (or the host closed the match)
                    _board(client)
                    client.close(leave=True)
                    return 0
            player = client.player
            if player.started and player.my_turn and shown_turn != player.to_move:
                shown_turn = player.to_move
                _board(client)
                print("your move (? lists them):", flush=True)
            line = typed.get(0.05)
            if line is False:
                continue
            if line is None or line in ("q", "quit"):
                if player.started and player.result is None:
                    print("the match stays open: run the same command again to pick it up ('resign' leaves it as a loss)")
                client.close(leave=not player.started)
                return 0
            _command(client, str(line))
    except KeyboardInterrupt:
        client.close()
        return 0


def _command(client: "OnlineClient", line: str) -> None:
    player = client.player
    if not line:
        return
    if player.ticket is not None and not player.started:
        if player.guest is not None and line.lower() in ("y", "yes", "n", "no"):
            if line.lower().startswith("y"):
                client.accept()
            else:
                client.decline()
        else:
            print("waiting for the match to start" + (" (y/n?)" if player.guest is not None else ""), flush=True)
        return
    if not player.started:
        if line == "r":
            client.ready()
        elif line == "l":
            client.refresh_list()
        elif line == "m":
            client.refresh_list(player.list_offset + len(player.players))
        elif line.isdigit() and player.players and 1 <= int(line) <= len(player.players):
            client.pick(int(player.players[int(line) - 1]["id"]))
        else:
            from pegboard.errors import ProtocolError

            try:
                client.join(line)
            except ProtocolError as exc:
                print(exc.reason, flush=True)
        return
    if line == "?":
        _list_moves(client)
    elif line == "board":
        _board(client)
    elif line == "resign":
        client.resign()
    elif line in ("help", "h"):
        print(HELP_LINES)
    elif not player.my_turn:
        print("it is not your turn", flush=True)
    else:
        move = _parse_move(client, line)
        if move is None:
            print(f"not one of your moves: {line!r} (? lists them)", flush=True)
            return
        try:
            client.play(move)
        except (IllegalMove, PegboardError) as exc:
            print(str(exc), flush=True)


def register(app: typer.Typer) -> None:
    app.add_typer(lobby_app)
    app.command("online-bot")(online_bot)


__all__ = ["play_online", "register"]
