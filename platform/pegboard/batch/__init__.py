"""Headless matches and tournaments, played in this process, in worker processes or on Ray."""
