"""Reading a scenario file: its size limit, its UTF-8 text, its TOML, and the located error
(``file:line: field.path: reason``) every later check reports through."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from .text import printable, read_regular
from .tomlsource import line_of

MAX_SCENARIO_CHARS = 2 * 1024 * 1024
"""The largest scenario file read (2 MiB of text)."""


class ScenarioError(ValueError):
    """A scenario file that cannot be used; ``errors`` holds one line per problem."""

    def __init__(self, errors: list[str]):
        super().__init__("\n".join(errors))
        self.errors = errors


def read_toml(path: str | Path) -> tuple[dict, str]:
    """Parse a TOML file; ScenarioError (file:line: reason) when unreadable or malformed."""
    p = Path(path)
    try:
        data = read_regular(p, MAX_SCENARIO_CHARS)
        if len(data) > MAX_SCENARIO_CHARS:
            raise ScenarioError(
                [f"{p}:1: larger than {MAX_SCENARIO_CHARS // 1024} KiB (the limit)"]
            )
        text = data.decode("utf-8")
    except OSError as e:
        raise ScenarioError([f"{p}: cannot read: {e.strerror or e}"]) from None
    except UnicodeDecodeError:
        raise ScenarioError([f"{p}: not a UTF-8 text file"]) from None
    return parse_toml(text, str(p)), text


def parse_toml(text: str, name: str) -> dict:
    """The TOML document of ``text``; ScenarioError with the line of a syntax error."""
    if len(text) > MAX_SCENARIO_CHARS:
        raise ScenarioError([f"{name}:1: larger than {MAX_SCENARIO_CHARS // 1024} KiB (the limit)"])
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise ScenarioError([f"{name}:1: not valid TOML: nested too deeply"]) from None
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\(at line (\d+), column \d+\)|\(at end of document\)", str(e))
        msg = str(e)[: m.start()].strip() if m else str(e)
        if m and m.group(1):
            line = m.group(1)
        else:
            line = str(max(1, text.count("\n") + (0 if text.endswith("\n") else 1)))
        raise ScenarioError([f"{name}:{line}: not valid TOML: {msg}"]) from None


def where(name: str, text: str, field: str) -> str:
    """``file:line`` of ``field`` in the text (the file alone when no line holds it)."""
    line = line_of(text, field)
    return f"{name}:{line}" if line else name


class Errors:
    """The errors of one file, collected, each located by its field path."""

    def __init__(self, name: str, text: str):
        self.name, self.text = name, text
        self.items: list[str] = []

    def add(self, field: str, message: str) -> None:
        """One error, located; a field path or message holding text from the file is shown
        with its control characters escaped (a NUL would crash the window's text)."""
        self.items.append(printable(f"{where(self.name, self.text, field)}: {field}: {message}"))
