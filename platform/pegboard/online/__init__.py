"""Online play for every installed game: a lobby that pairs and relays, a host that runs the match.

Modules, one job each: :mod:`.protocol` (the wire format and its limits),
:mod:`.server` (the lobby), :mod:`.link` (a connection that reconnects),
:mod:`.host` (the authoritative match), :mod:`.guest` (the other side's view),
:mod:`.player` (one player's protocol logic, no I/O), :mod:`.client` (the
threaded API a window or terminal uses), :mod:`.store` (tickets and records on
disk). See docs/online.md.
"""

#: Where a lobby listens by default (here, not in :mod:`.protocol`, so the command line's
#: defaults cost no import of the protocol's dependencies).
DEFAULT_PORT = 8765
DEFAULT_LOBBY = f"ws://127.0.0.1:{DEFAULT_PORT}"
