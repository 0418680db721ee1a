"""docs/messages.md, the table of what the window says, is linked from the README and says what
the code says: every message it quotes without a placeholder is in the sources as written."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [*(ROOT / "platform" / "pegboard" / "ui").glob("*.py"), *(ROOT / "platform" / "pegboard" / "online").glob("*.py"),
           *(ROOT / "plugins" / "pegboard_starfall").rglob("*.py")]


def quoted_messages() -> list[str]:
    """The backticked messages of the table rows with no placeholder and no example values."""
    out = []
    for line in (ROOT / "docs" / "messages.md").read_text(encoding="utf-8").splitlines():
        if not line.startswith("|") or line.startswith("|---"):
            continue
        cell = line.split("|")[-2]
        if "e.g." in cell:  # examples, with values filled in
            continue
        for text in re.findall(r"`([^`]+)`", cell):
            if "{" not in text and not re.search(r"\b[a-k](?:1[01]|[1-9])\b|\d+:\d\d|→|…", text):
                out.append(text)
    return out


def test_the_readme_links_the_table_of_messages():
    assert "(docs/messages.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_quoted_message_is_what_the_code_says():
    code = " ".join(" ".join(p.read_text(encoding="utf-8").split()) for p in SOURCES).lower()
    code = re.sub(r'"\s*f?"', "", code)  # strings split over lines read as one
    messages = quoted_messages()
    missing = [m for m in messages if m.strip().rstrip(".").lower() not in code]
    assert not missing, f"docs/messages.md quotes messages the code does not say: {missing}"
    assert len(messages) >= 25
