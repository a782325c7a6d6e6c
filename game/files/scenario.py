"""Scenario files (TOML). This module reads the ``[map]`` table (the board issue's part of the
format); errors say ``file:line: field.path: what was expected``."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from game.board import Board, MapError

from .tomlsource import line_of


class ScenarioError(ValueError):
    """A scenario file that cannot be used; ``errors`` holds one line per problem."""

    def __init__(self, errors: list[str]):
        super().__init__("\n".join(errors))
        self.errors = errors


def _where(path: Path, text: str, field: str) -> str:
    line = line_of(text, field)
    return f"{path}:{line}" if line else str(path)


def read_toml(path: str | Path) -> tuple[dict, str]:
    """Parse a TOML file; ScenarioError (file:line: reason) when unreadable or malformed."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise ScenarioError([f"{p}: cannot read: {e.strerror or e}"]) from None
    except UnicodeDecodeError:
        raise ScenarioError([f"{p}: not a UTF-8 text file"]) from None
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\(at line (\d+), column \d+\)|\(at end of document\)", str(e))
        msg = str(e)[: m.start()].strip() if m else str(e)
        if m and m.group(1):
            line = m.group(1)
        else:
            line = str(max(1, text.count("\n") + (0 if text.endswith("\n") else 1)))
        raise ScenarioError([f"{p}:{line}: not valid TOML: {msg}"]) from None


def load_board(path: str | Path) -> Board:
    """The board of a scenario file, from its ``[map]`` table."""
    p = Path(path)
    data, text = read_toml(p)
    if "map" not in data:
        raise ScenarioError([f"{p}: map: missing (expected a [map] table)"])
    try:
        return Board.from_map_table(data["map"])
    except MapError as e:
        raise ScenarioError([f"{_where(p, text, e.path)}: {e.path}: {e.message}"]) from None
