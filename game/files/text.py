"""Text from files, made safe for a terminal: control characters (the ASCII and Latin-1 ones,
DEL) and invisible format characters (bidirectional overrides) are shown escaped, so a file
can neither write escape sequences nor start a line of its own (a fake "ok" line)."""

from __future__ import annotations

import unicodedata


def printable(text: object) -> str:
    """``text`` with every control or format character escaped (``\\x1b``, ``\\n``,
    ``\\u202e``); anything else as it is."""
    s = str(text)
    if s.isprintable():
        return s
    out = []
    for ch in s:
        if ch.isprintable() or (ch == " "):
            out.append(ch)
        elif unicodedata.category(ch) in ("Zs",):
            out.append(" ")
        else:
            out.append(ch.encode("unicode_escape").decode("ascii"))
    return "".join(out)
