"""The ``pegboard`` command line (typer): one module per command group, assembled in :mod:`.app`."""
