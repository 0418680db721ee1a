"""Counter-based randomness: draw number ``n`` of a match is a pure function of (seed, n).

A state only stores how many draws it has made, so undo restores the generator by
restoring one integer, and replaying a match record from its seed redraws exactly.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def seed_key(seed: int) -> int:
    """Scramble a match seed once; :func:`draw` mixes this key with the draw counter."""
    return _mix((seed * _GOLDEN) & _MASK ^ 0x5DEECE66D)


def _mix(z: int) -> int:
    # splitmix64 finaliser
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & _MASK
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB & _MASK
    return z ^ (z >> 31)


def draw(key: int, n: int, bound: int) -> int:
    """Draw number ``n`` as an integer in ``0 .. bound - 1``."""
    return _mix((key + (n + 1) * _GOLDEN) & _MASK) % bound


def draws(key: int, first: int, count: int, bound: int) -> list[int]:
    """Draws number ``first`` .. ``first + count - 1``, as :func:`draw` gives them one by one."""
    z = (key + (first + 1) * _GOLDEN) & _MASK
    if count == 1:  # the common refill: one hole in a column
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & _MASK
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB & _MASK
        return [(z ^ (z >> 31)) % bound]
    out = []
    for _ in range(count):
        y = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & _MASK
        y = (y ^ (y >> 27)) * 0x94D049BB133111EB & _MASK
        out.append((y ^ (y >> 31)) % bound)
        z = (z + _GOLDEN) & _MASK  # the next draw's counter, without a multiplication
    return out
