"""Seeded mutation of scenario and save files, for the hostile-input tests and
``tests/helpers/reliability.py``: keys deleted, duplicated and retyped, values of every wrong type,
out-of-range
numbers, deep nesting, long lines, control characters, truncation, bit flips."""

from __future__ import annotations

import random
import re

WRONG_VALUES = (
    "[1, 2]",
    "{ a = 1 }",
    "7",
    "-1",
    "true",
    '"x"',
    "1.5",
    "99999999999999999999999",
    '""',
    '"\\u001b[2Jok"',
    '"A01"',
    '" B2"',
    "[[[[[[[[[[1]]]]]]]]]]",
)
JSON_VALUES = ("[1]", "{}", "7", "-1", "true", "null", '"x"', "1e400", "9" * 5000, '"\\u001b"')


def mutate_toml(text: str, rng: random.Random) -> str:
    """One random mutation of a TOML text."""
    lines = text.split("\n")
    op = rng.randrange(10)
    i = rng.randrange(len(lines))
    if op == 0:  # delete a line
        del lines[i]
    elif op == 1:  # duplicate a line
        lines.insert(i, lines[i])
    elif op == 2 or op == 3:  # retype a value
        keyed = [k for k, ln in enumerate(lines) if re.match(r"^\s*[\w.\"-]+\s*=", ln)]
        if keyed:
            k = rng.choice(keyed)
            key = lines[k].split("=", 1)[0]
            lines[k] = f"{key}= {rng.choice(WRONG_VALUES)}"
    elif op == 4:  # deep nesting
        depth = rng.choice((50, 500, 5000))
        lines.insert(i, "deep = " + "[" * depth + "]" * depth)
    elif op == 5:  # a long line
        lines.insert(i, "# " + "x" * rng.choice((1000, 100_000)))
        lines.insert(i, "[" + " " * rng.choice((1000, 20_000)) + "a")
    elif op == 6:  # control characters
        lines[i] = lines[i] + "\x1b[31m\r\n\x00\u202e"
    elif op == 7:  # truncation
        return text[: rng.randrange(len(text))]
    elif op == 8:  # bit flip
        data = bytearray(text.encode("utf-8"))
        j = rng.randrange(len(data))
        data[j] ^= 1 << rng.randrange(8)
        return data.decode("utf-8", "replace")
    else:  # a table header inside a multi-line string
        lines.insert(i, 'note = """\n[map]\ncolumns = 1\n"""')
    return "\n".join(lines)


def mutate_json(text: str, rng: random.Random) -> str:
    """One random mutation of a save's JSON text."""
    op = rng.randrange(6)
    if op == 0:
        return text[: rng.randrange(len(text))]
    if op == 1:
        data = bytearray(text.encode("utf-8"))
        j = rng.randrange(len(data))
        data[j] ^= 1 << rng.randrange(8)
        return data.decode("utf-8", "replace")
    if op == 2:
        depth = rng.choice((100, 10_000))
        return text.replace('"actions": [', '"actions": [' + "[" * depth + "]" * depth + ",", 1)
    values = list(re.finditer(r'(?<=: )(-?\d+|"[^"]*"|true|false|null)', text))
    if not values:
        return text
    m = rng.choice(values)
    return text[: m.start()] + rng.choice(JSON_VALUES) + text[m.end() :]
