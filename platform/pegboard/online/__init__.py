"""Online play for every installed game: a lobby that pairs and relays, a host that runs the match.

Modules, one job each: :mod:`.protocol` (the wire format, its limits and the edge
checks), :mod:`.lobby` (the lobby's handlers), :mod:`.server` (serving a lobby,
TLS included), :mod:`.limits` (every limit and its counters), :mod:`.guard`
(per-address bookkeeping, the attack log), :mod:`.lobbydata` (claimed names and
open matches on disk), :mod:`.names` (look-alike names folded together),
:mod:`.tls` (certificates), :mod:`.link` (a connection that reconnects),
:mod:`.host` (the authoritative match), :mod:`.guest` (the other side's view),
:mod:`.offer_text` (the host's settings in sentences), :mod:`.player` (one
player's protocol logic, no I/O), :mod:`.client` (the threaded API a window or
terminal uses), :mod:`.store` (tickets, records and the name secret on disk).
See docs/online.md.
"""

#: Where a lobby listens by default (here, not in :mod:`.protocol`, so the command line's
#: defaults cost no import of the protocol's dependencies).
DEFAULT_PORT = 8765
DEFAULT_LOBBY = f"ws://127.0.0.1:{DEFAULT_PORT}"
