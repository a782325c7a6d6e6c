"""Text from files, made safe for a terminal: control characters (the ASCII and Latin-1 ones,
DEL) and invisible format characters (bidirectional overrides) are shown escaped, so a file
can neither write escape sequences nor start a line of its own (a fake "ok" line)."""

from __future__ import annotations

import errno
import os
import stat
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


def read_regular(path: str | os.PathLike[str], limit: int) -> bytes:
    """At most ``limit + 1`` bytes of ``path`` (so a caller can tell it is too large), never
    opening what is not a regular file: a FIFO would wait forever for a writer and a device
    (``/dev/zero``) be read without end. OSError with the reason otherwise."""
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise OSError(errno.EINVAL, "not a regular file")
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # swapped since the check
            raise OSError(errno.EINVAL, "not a regular file")
        return f.read(limit + 1)
