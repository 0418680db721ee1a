"""``python -m pegboard`` runs the CLI."""

from pegboard.cli.app import main

main()
