"""Elo arithmetic (:mod:`.elo`) and the local profile (:mod:`.profile`: ratings, rated games, settings)."""
