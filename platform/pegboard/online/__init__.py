"""Online play for every installed game: a lobby that pairs and relays, a host that runs the match.

Modules, one job each: :mod:`.protocol` (the wire format and its limits),
:mod:`.server` (the lobby), :mod:`.link` (a connection that reconnects),
:mod:`.host` (the authoritative match), :mod:`.guest` (the other side's view),
:mod:`.player` (one player's protocol logic, no I/O), :mod:`.client` (the
threaded API a window or terminal uses), :mod:`.store` (tickets and records on
disk). See docs/online.md.
"""
