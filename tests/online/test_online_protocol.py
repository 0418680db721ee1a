"""The one check every received frame passes (protocol.decode): valid Unicode and bounded depth."""

from __future__ import annotations

import json

import pytest

from pegboard.errors import ProtocolError
from pegboard.online import protocol as p


@pytest.mark.parametrize("frame", [
    '{"t":"ready","settings":"\\ud800"}',               # a lone high surrogate
    '{"t":"ready","settings":"a\\uDFFFb"}',             # a lone low one, upper-case escape
    '{"t":"x","\\udc00":1}',                           # in a key
    '{"t":"relay","data":{"t":"move","x":["ok",{"y":"\\ud834"}]}}',  # deep inside
    '{"t":"\\ud800"}',                                 # the type itself
])
def test_a_lone_surrogate_anywhere_is_refused(frame: str) -> None:
    with pytest.raises(ProtocolError, match="valid Unicode"):
        p.decode(frame)


def test_real_text_passes_whatever_its_script() -> None:
    frame = json.dumps({"t": "hello", "name": "Zoë 李 😀", "x": "\ud83d\ude00"}, ensure_ascii=True)
    assert "\\ud83d\\ude00" in frame  # a surrogate pair: one character, not two halves
    assert p.decode(frame)["x"] == "😀"
    assert p.decode('{"t":"x","path":"C:\\\\udata"}')["path"] == "C:\\udata"  # an escaped backslash


def test_nesting_is_bounded_at_max_depth() -> None:
    def nested(depth: int) -> str:
        return '{"t":"x","v":' + "[" * (depth - 1) + "]" * (depth - 1) + "}"

    assert p.decode(nested(p.MAX_DEPTH))["t"] == "x"
    with pytest.raises(ProtocolError, match=f"nested at most {p.MAX_DEPTH} levels"):
        p.decode(nested(p.MAX_DEPTH + 1))
    with pytest.raises(ProtocolError):
        p.decode("[" * 60_000)
