"""Where a field of a TOML file stands: file:line for error messages.

``tomllib`` gives values without positions, so this scans the text for the table header, the
key and, for arrays, the element: enough for the hand-written files hexfire reads.
"""

from __future__ import annotations

import re

_HEADER = re.compile(r"^\s*\[(\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")


def _split_path(path: str) -> list[str | int]:
    parts: list[str | int] = []
    for token in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        parts.append(int(token[1:-1]) if token.startswith("[") else token)
    return parts


def line_of(text: str, path: str) -> int | None:
    """The 1-based line of field ``path`` (``map.hexes[3]``, ``units[2].facing``) in ``text``,
    or the nearest enclosing line found; None if nothing matches."""
    parts = _split_path(path)
    lines = text.splitlines()
    best: int | None = None
    table: list[str | int] = []
    counts: dict[str, int] = {}
    for ln, raw in enumerate(lines, 1):
        m = _HEADER.match(raw)
        if m and not raw.strip().startswith("#"):
            name = m.group(2).strip()
            if m.group(1):  # [[array.of.tables]]
                counts[name] = counts.get(name, -1) + 1
                table = [*name.split("."), counts[name]]
            else:
                table = list(name.split("."))
            if parts[: len(table)] == table:
                best = ln
                if len(parts) == len(table):
                    return ln
            continue
        if parts[: len(table)] != table or len(parts) <= len(table):
            continue
        key = parts[len(table)]
        km = re.match(r"^\s*([A-Za-z0-9_\-]+|\"[^\"]*\")\s*=", raw)
        if not km or km.group(1).strip('"') != key:
            continue
        rest = parts[len(table) + 1 :]
        if not rest or not isinstance(rest[0], int):
            return ln
        found = _element_line(lines, ln - 1, raw.index("=") + 1, rest[0])
        return found if found is not None else ln
    return best


def _element_line(lines: list[str], start: int, col: int, index: int) -> int | None:
    """The line where element ``index`` of the array that opens at ``lines[start][col:]`` starts."""
    depth = 0
    element = -1
    in_str: str | None = None
    expecting = False
    for ln in range(start, len(lines)):
        s = lines[ln]
        i = col if ln == start else 0
        while i < len(s):
            ch = s[i]
            if in_str:
                if ch == "\\" and in_str == '"':
                    i += 2
                    continue
                if ch == in_str:
                    in_str = None
            elif ch == "#":
                break
            elif ch in "\"'":
                if depth == 1 and expecting:
                    element += 1
                    expecting = False
                    if element == index:
                        return ln + 1
                in_str = ch
            elif ch == "[":
                depth += 1
                if depth == 1:
                    expecting = True
                elif depth == 2 and expecting:
                    element += 1
                    expecting = False
                    if element == index:
                        return ln + 1
            elif ch == "]":
                depth -= 1
                if depth == 0:
                    return None
            elif ch == "," and depth == 1:
                expecting = True
            elif not ch.isspace() and depth == 1 and expecting:
                element += 1
                expecting = False
                if element == index:
                    return ln + 1
            i += 1
    return None
