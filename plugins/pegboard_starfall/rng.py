"""Counter-based randomness: draw number ``n`` of a match is a pure function of (seed, n).

A state only stores how many draws it has made, so undo restores the generator by
restoring one integer, and replaying a match record from its seed redraws exactly.
"""

from __future__ import annotations

import struct
from functools import lru_cache

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_C1 = 0xBF58476D1CE4E5B9
_C2 = 0x94D049BB133111EB


def seed_key(seed: int) -> int:
    """Scramble a match seed once; :func:`draw` mixes this key with the draw counter."""
    return _mix((seed * _GOLDEN) & _MASK ^ 0x5DEECE66D)


def _mix(z: int) -> int:
    # splitmix64 finaliser
    z = (z ^ (z >> 30)) * _C1 & _MASK
    z = (z ^ (z >> 27)) * _C2 & _MASK
    return z ^ (z >> 31)


def draw(key: int, n: int, bound: int) -> int:
    """Draw number ``n`` as an integer in ``0 .. bound - 1``."""
    return _mix((key + (n + 1) * _GOLDEN) & _MASK) % bound


# Draws come from blocks of _BLOCK consecutive raw numbers, mixed all at once: each draw's
# counter sits in its own 128-bit lane of one big integer, so a 64-bit product never
# carries into the next lane, and every lane is cut back to 64 bits after each step.
_BLOCK = 64
_LANES = sum(1 << (128 * i) for i in range(_BLOCK))  # 1 in every lane
_LOW64 = _MASK * _LANES
_STEPS = sum(((i * _GOLDEN) & _MASK) << (128 * i) for i in range(_BLOCK))  # lane i: i steps on
_UNPACK = struct.Struct("<" + "Q8x" * _BLOCK).unpack  # each lane's low 64 bits; the high half is 0


@lru_cache(maxsize=64)
def _block(key: int, b: int) -> tuple[int, ...]:
    """The 64-bit numbers of draws ``b * _BLOCK`` .. ``b * _BLOCK + _BLOCK - 1`` (:func:`draw` before ``% bound``)."""
    z = (((key + (b * _BLOCK + 1) * _GOLDEN) & _MASK) * _LANES + _STEPS) & _LOW64
    z = ((z ^ (z >> 30)) & _LOW64) * _C1 & _LOW64
    z = ((z ^ (z >> 27)) & _LOW64) * _C2 & _LOW64
    z = (z ^ (z >> 31)) & _LOW64
    return _UNPACK(z.to_bytes(16 * _BLOCK, "little"))


def draws(key: int, first: int, count: int, bound: int) -> list[int]:
    """Draws number ``first`` .. ``first + count - 1``, as :func:`draw` gives them one by one.

    Fast path of calling ``draw`` ``count`` times, held equal by
    tests/starfall/test_setup_flow.py::test_a_batch_of_draws_is_the_draws_one_by_one.
    """
    b, i = divmod(first, _BLOCK)
    out = list(map(bound.__rmod__, _block(key, b)[i:i + count]))
    while len(out) < count:
        b += 1
        out += map(bound.__rmod__, _block(key, b)[:count - len(out)])
    return out
