"""The attacker of ``tools/load_lobby.py --hostile``: every attack of issue 26 at once, for a while.

:func:`attack` runs in a process of its own, from loopback addresses of its own
(127.0.200.x and up; the honest players use 127.0.0.x and 127.0.1.x), against a
running lobby, until ``seconds`` have passed. Each attack is a few workers that
go as fast as the lobby lets them (a refused connection waits 0.2 s before the
next try, so the attacker does not spend the machine's CPU on itself):

- **idle**: connections that never say hello, as many as an address may open;
- **codes**: wrong 4-letter codes, reconnecting after each close;
- **rooms**: ``rejoin`` with invented matches and tokens, with and without hello;
- **list**: players waiting with 400-character settings, and lists asked for non-stop;
- **frames**: lone surrogates, 970-deep nesting, binary, oversized and non-JSON frames;
- **names**: look-alikes (Cyrillic letters, a zero for an o) of the names on the list;
- **junk**: a pair of its own whose guest relays oversized and junk messages.

It returns a tally ``"attack: how the lobby answered" -> count``; :func:`describe`
prints it. An attack that got through shows as such (``names: squatted``,
``codes: paired``).
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "platform"))

LOOK_ALIKES = {"o": "\u043e", "a": "\u0430", "e": "\u0435"}  # Cyrillic о, а, е
BREATHER = 0.2


def address(block: int, n: int) -> str:
    return f"127.0.{200 + block}.{2 + n}"


def attack(url: str, seconds: float) -> dict[str, int]:
    """Attack the lobby at ``url`` for ``seconds``; returns the tally (see the module docstring)."""
    import gc

    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    return asyncio.run(_attack(url, seconds))


async def _attack(url: str, seconds: float) -> dict[str, int]:
    tally: Counter[str] = Counter()
    stop_at = time.monotonic() + seconds
    workers = [idle(url, n, tally, stop_at) for n in range(10)]
    workers += [codes(url, n, tally, stop_at) for n in range(20)]
    workers += [rooms(url, n, tally, stop_at) for n in range(10)]
    workers += [listing(url, n, tally, stop_at) for n in range(8)]
    workers += [frames(url, n, tally, stop_at) for n in range(5)]
    workers += [names(url, tally, stop_at), junk(url, tally, stop_at)]
    outcomes = await asyncio.gather(*workers, return_exceptions=True)
    for outcome in outcomes:
        if isinstance(outcome, BaseException):
            tally[f"attacker's own error: {type(outcome).__name__}: {_short(outcome)}"] += 1
    return dict(tally)


def describe(tally: dict[str, int]) -> list[str]:
    """The tally as lines, one attack after the other."""
    return [f"{key}: {count}" for key, count in sorted(tally.items())]


# -- the connections --------------------------------------------------------------------------------------


async def _open(url: str, source: str, tally: Counter[str], kind: str) -> Any:
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidHandshake

    try:
        return await connect(url, local_addr=(source, 0), max_size=None, open_timeout=10, close_timeout=1)
    except (OSError, InvalidHandshake, TimeoutError):
        tally[f"{kind}: connection refused"] += 1
        await asyncio.sleep(BREATHER)
        return None


_SECRETS: dict[str, str] = {}


async def _hello(url: str, source: str, name: str, tally: Counter[str], kind: str) -> Any:
    """A connection that said hello as ``name`` (the same secret each time: an attacker keeps its names)."""
    from pegboard.online import protocol as p

    ws = await _open(url, source, tally, kind)
    if ws is None:
        return None
    secret = _SECRETS.setdefault(name, p.new_secret())
    try:
        await ws.send(json.dumps({"t": "hello", "v": p.PROTOCOL, "name": name, "game": "nodewar", "secret": secret}))
        welcome = json.loads(await asyncio.wait_for(ws.recv(), 10))
    except Exception:  # noqa: BLE001 - closed, or no answer: the lobby turned it away
        tally[f"{kind}: turned away at hello"] += 1
        await ws.close()
        await asyncio.sleep(BREATHER)
        return None
    if welcome.get("t") != "welcome":
        tally[f"{kind}: hello refused ({_short(welcome.get('reason'))})"] += 1
        await ws.close()
        await asyncio.sleep(BREATHER)
        return None
    return ws


async def _ask(ws: Any, frame: str | bytes, tally: Counter[str], kind: str) -> dict[str, Any] | None:
    """Send one frame and read one answer; None once the lobby closed the connection."""
    from websockets.exceptions import ConnectionClosed

    try:
        await ws.send(frame)
        reply: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 30))
        return reply
    except ConnectionClosed as exc:
        reason = exc.rcvd.reason if exc.rcvd is not None else "closed"
        tally[f"{kind}: closed by the lobby ({_short(reason)})"] += 1
        return None
    except TimeoutError:
        tally[f"{kind}: no answer in 30 s"] += 1
        return None


async def _send(ws: Any, frame: str) -> bool:
    """Send without an answer; False once the connection is closed."""
    from websockets.exceptions import ConnectionClosed

    try:
        await ws.send(frame)
    except ConnectionClosed:
        return False
    return True


def _short(reason: Any) -> str:
    text = str(reason or "")
    for cut in (":", " in ", " (", "'"):
        if cut in text and text.index(cut) > 12:
            text = text[: text.index(cut)]
    return text[:60]


# -- the attacks ---------------------------------------------------------------------------------------------


async def idle(url: str, n: int, tally: Counter[str], stop_at: float) -> None:
    from websockets.exceptions import ConnectionClosed

    source = address(0, n)
    held: list[Any] = []
    while time.monotonic() < stop_at:
        held = [ws for ws in held if ws.close_code is None]
        ws = await _open(url, source, tally, "idle")
        if ws is None:
            continue
        try:
            await asyncio.wait_for(ws.recv(), 0.05)
        except ConnectionClosed as exc:
            tally[f"idle: closed by the lobby ({_short(exc.rcvd.reason if exc.rcvd else '')})"] += 1
            await asyncio.sleep(BREATHER)
            continue
        except TimeoutError:
            pass
        tally["idle: connection held"] += 1
        held.append(ws)
        if len(held) >= 25:
            await asyncio.sleep(1.0)
    for ws in held:
        await ws.close()


async def codes(url: str, n: int, tally: Counter[str], stop_at: float) -> None:
    from pegboard.online import protocol as p

    rng = random.Random(n)
    while time.monotonic() < stop_at:
        ws = await _hello(url, address(1, n // 2), f"Guess{n}", tally, "codes")
        while ws is not None and time.monotonic() < stop_at:
            code = "".join(rng.choice(p.CODE_LETTERS) for _ in range(p.CODE_LENGTH))
            reply = await _ask(ws, json.dumps({"t": "join", "code": code}), tally, "codes")
            if reply is None:
                break
            reason = str(reply.get("reason", ""))
            tally["codes: paired" if reply.get("t") == "paired" else
                  "codes: backed off" if "too many wrong codes" in reason else
                  "codes: wrong code" if "no player is waiting" in reason else f"codes: {_short(reason)}"] += 1
        if ws is not None:
            await ws.close()


async def rooms(url: str, n: int, tally: Counter[str], stop_at: float) -> None:
    import secrets

    from pegboard.online import protocol as p

    def invented() -> str:
        return json.dumps({"t": "rejoin", "match": secrets.token_urlsafe(12), "token": p.new_token(),
                           "guest_token": p.new_token()})

    while time.monotonic() < stop_at:
        bare = await _open(url, address(2, n), tally, "rooms")
        if bare is not None:
            reply = await _ask(bare, invented(), tally, "rooms")
            if reply is not None:
                tally[f"rooms: without hello: {_short(reply.get('reason'))}"] += 1
            await bare.close()
        ws = await _hello(url, address(2, n), f"Room{n}", tally, "rooms")
        while ws is not None and time.monotonic() < stop_at:
            reply = await _ask(ws, invented(), tally, "rooms")
            if reply is None:
                break
            tally["rooms: REJOINED AN INVENTED ROOM" if reply.get("t") == "rejoined" else
                  f"rooms: {reply.get('t')}: {_short(reply.get('reason'))}"] += 1
            if not await _send(ws, json.dumps({"t": "leave"})):
                break
        if ws is not None:
            await ws.close()


async def listing(url: str, n: int, tally: Counter[str], stop_at: float) -> None:
    from pegboard.online import protocol as p

    junk = "x" * p.MAX_SETTINGS
    while time.monotonic() < stop_at:
        ws = await _hello(url, address(3, n // 2), f"Crowd{n}", tally, "list")
        if ws is None:
            continue
        reply = await _ask(ws, json.dumps({"t": "ready", "settings": junk}), tally, "list")
        if reply is not None:
            tally["list: waiting with junk settings" if reply.get("t") == "waiting" else
                  f"list: ready refused ({_short(reply.get('reason'))})"] += 1
        while reply is not None and time.monotonic() < stop_at:
            started = time.monotonic()
            try:
                await ws.send(json.dumps({"t": "list"}))
                frame = await asyncio.wait_for(ws.recv(), 30)
            except Exception:  # noqa: BLE001 - closed
                break
            tally["list: replies"] += 1
            tally["list: bytes received"] += len(frame)
            tally["list: largest reply (bytes)"] = max(tally["list: largest reply (bytes)"], len(frame))
            if time.monotonic() - started > 0.02:
                tally["list: replies held back by the byte rate"] += 1
        await ws.close()


async def frames(url: str, n: int, tally: Counter[str], stop_at: float) -> None:
    from pegboard.online import protocol as p

    deep = "[" * 970 + "]" * 970
    bad: list[str | bytes] = [
        '{"t":"ready","settings":"\\ud800"}', '{"t":"list","game":"\\ud800"}',
        '{"t":"relay","data":{"t":"move","x":' + deep + "}}", b"\x00\xffbinary", "{not json", "[1,2,3]",
        json.dumps({"t": "explode"}), "x" * (p.MAX_MESSAGE_BYTES + 1),
    ]
    rng = random.Random(n)
    while time.monotonic() < stop_at:
        ws = await _hello(url, address(4, n), f"Frame{n}", tally, "frames")
        while ws is not None and time.monotonic() < stop_at:
            frame = rng.choice(bad)
            reply = await _ask(ws, frame, tally, "frames")
            if reply is None:
                break
            tally[f"frames: {reply.get('t')}: {_short(reply.get('reason'))}"] += 1
        if ws is not None:
            await ws.close()


async def names(url: str, tally: Counter[str], stop_at: float) -> None:
    """Look-alikes of the names on the list: each must be refused as taken."""
    seen: set[str] = set()
    tried: set[str] = set()
    while time.monotonic() < stop_at:
        viewer = await _hello(url, address(5, 0), "Viewer", tally, "names")
        reply = await _ask(viewer, json.dumps({"t": "list"}), tally, "names") if viewer is not None else None
        if viewer is not None:
            await viewer.close()
        for entry in (reply or {}).get("players", []):
            seen.add(str(entry.get("name", "")))
        fresh = [name for name in sorted(seen) if name not in tried and any(c in name for c in LOOK_ALIKES)]
        for name in fresh[:20]:
            tried.add(name)
            fake = "".join(LOOK_ALIKES.get(c, c) for c in name)
            ws = await _hello(url, address(5, 1 + len(tried) % 8), fake, tally, "names")
            if ws is not None:
                tally["names: SQUATTED A LOOK-ALIKE"] += 1
                await ws.close()
        await asyncio.sleep(1.0)


async def junk(url: str, tally: Counter[str], stop_at: float) -> None:
    """A pair of the attacker's own: its guest relays oversized and junk messages to its host."""
    host = await _hello(url, address(6, 0), "JunkHost", tally, "junk")
    guest = await _hello(url, address(6, 1), "JunkGuest", tally, "junk")
    if host is None or guest is None:
        return
    await host.send(json.dumps({"t": "ready"}))
    json.loads(await host.recv())  # waiting
    await guest.send(json.dumps({"t": "list"}))
    listed = json.loads(await guest.recv())
    name = next((e["name"] for e in listed.get("players", []) if str(e.get("name", "")).startswith("JunkHost")), None)
    if name is None:
        tally["junk: could not pair"] += 1
        return
    reply = await _ask(guest, json.dumps({"t": "pick", "name": name}), tally, "junk")
    if reply is None or reply.get("t") != "paired":
        tally["junk: could not pair"] += 1
        return

    async def drain() -> None:
        try:
            async for _ in host:
                tally["junk: relays that reached its host"] += 1
        except Exception:  # noqa: BLE001 - closed
            pass

    drainer = asyncio.create_task(drain())
    big = json.dumps({"t": "relay", "data": {"t": "move", "x": "y" * 60_000}})
    small = json.dumps({"t": "relay", "data": {"t": "junk", "x": "z" * 10_000}})
    while time.monotonic() < stop_at:
        reply = await _ask(guest, big, tally, "junk")
        if reply is None:
            break
        tally[f"junk: oversized relay: {_short(reply.get('reason'))}"] += 1
        if not await _send(guest, small):
            break
        await asyncio.sleep(0.01)
    drainer.cancel()
    await host.close()
    await guest.close()
