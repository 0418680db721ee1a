"""``python -m pegboard``: the same as the ``pegboard`` command."""

from pegboard.cli.app import main

main()
