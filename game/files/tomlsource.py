"""Where a field of a TOML file stands: file:line for error messages.

``tomllib`` gives values without positions, so this scans the text for the table header, the
key and, for arrays, the element: enough for the hand-written files hexfire reads.
"""

from __future__ import annotations

import re

MAX_LINE = 10_000
"""Of a longer line only its first characters are searched for a key or a header (a key stands
at the start of its line; a 100,000-character value is still found on its own line)."""
_PART = r"(?:[A-Za-z0-9_\-]+|\"[^\"\n]{0,200}\")"
_KEY = re.compile(rf"[ \t]*({_PART}(?:[ \t]*\.[ \t]*{_PART}){{0,8}})[ \t]*=")
"""A key (dotted keys too: ``rules.to_kill =``), bounded so that matching stays linear."""


def _header(raw: str) -> tuple[bool, str] | None:
    """``[table]`` -> (False, "table"); ``[[array]]`` -> (True, "array"); else None. Plain
    string scanning: linear in the line's length, whatever the line."""
    s = raw.strip()
    if not s.startswith("["):
        return None
    array = s.startswith("[[")
    start = 2 if array else 1
    end = s.find("]", start)
    if end < 0:
        return None
    name = s[start:end].strip()
    rest = s[end + 1 :]
    if array:
        if not rest.startswith("]"):
            return None
        rest = rest[1:]
    rest = rest.strip()
    if not name or (rest and not rest.startswith("#")):
        return None
    return array, name


def _string_state(raw: str, inside: str | None) -> str | None:
    """Whether a multi-line string (\"\"\" or \'\'\') is still open after this line."""
    i = 0
    while i < len(raw):
        if inside:
            j = raw.find(inside, i)
            if j < 0:
                return inside
            i, inside = j + 3, None
            continue
        hits = [(raw.find(q, i), q) for q in ('"""', "'''")]
        hits = [(j, q) for j, q in hits if j >= 0]
        hash_at = raw.find("#", i)
        if not hits:
            return None
        j, q = min(hits)
        if 0 <= hash_at < j:
            return None
        i, inside = j + 3, q
    return inside


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
    in_string: str | None = None
    for ln, raw in enumerate(lines, 1):
        if in_string is not None:  # a table header inside a multi-line string is text
            in_string = _string_state(raw, in_string)
            continue
        in_string = _string_state(raw, None)
        head = raw[:MAX_LINE]  # the key or header is at the start; its value may run on
        h = _header(head)
        if h is not None:
            array, name = h
            if array:  # [[array.of.tables]]
                counts[name] = counts.get(name, -1) + 1
                table = [*name.split("."), counts[name]]
            else:
                table = list(name.split("."))
            if parts[: len(table)] == table:
                best = ln
                if len(parts) == len(table):
                    return ln
            elif best is None and table[: len(parts)] == parts:
                best = ln  # the field is a table of tables ([sides.german] for "sides")
            continue
        if parts[: len(table)] != table or len(parts) <= len(table):
            continue
        km = _KEY.match(head)
        if not km:
            continue
        key = [k.strip().strip('"') for k in km.group(1).split(".")]  # a dotted key: a.b = 1
        here = parts[len(table) : len(table) + len(key)]
        if here != key:
            if best is None and key[: len(here)] == here and len(parts) < len(table) + len(key):
                best = ln
            continue
        rest = parts[len(table) + len(key) :]
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
