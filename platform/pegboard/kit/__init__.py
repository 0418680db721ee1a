"""The game author's kit: ``pegboard new game|bot|rulemod`` writes a starting point from templates.

The templates are package data under ``templates/`` (``*.tmpl`` files with
``%%{placeholder}`` fields, rendered by :mod:`pegboard.kit.writer`). Nothing
here imports a game: the CLI passes in what it needs to know about installed ones.
"""
