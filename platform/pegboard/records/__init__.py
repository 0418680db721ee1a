"""Match records: files (:mod:`.files`), the one replay path (:mod:`.replay`), validation
(:mod:`.validate`), the schemas and their compiled fast checks (:mod:`.schemas`, :mod:`.fastschema`).

Internal: scripts use :mod:`pegboard.scripting` (``pegboard.validate``, ``pegboard.read_record`` ...).
"""

MATCH_FORMAT = "pegboard.match/1"
"""The ``format`` of a match record (``schemas/match.schema.json``)."""
