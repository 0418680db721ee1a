"""Rulesets (TOML files, ``extends`` chains, schema checks, digests) and rule mods."""
