"""The index of every rule id hexfire may cite (``data/rule_index.toml``): the seeds' rules
(C6.x, C7.x, 000 / 002 / 004), the rules decisions (RD-n) and hexfire's own decisions (HX-n),
each with a title for the player."""

from __future__ import annotations

import re
import tomllib
from functools import cache
from importlib import resources

RULE_ID = re.compile(r"(?<![\w.])(C\d+(?:\.\d+)?|RD-\d+|HX-\d+|00[024])(?![\w])")
"""How a rule id looks in text: C6.17, C7, RD-9, HX-2, 002."""


@cache
def rule_index() -> dict[str, str]:
    """Rule id -> title."""
    text = resources.files("game.rules").joinpath("data/rule_index.toml").read_text("utf-8")
    rules = tomllib.loads(text)["rules"]
    return {str(k): str(v) for k, v in rules.items()}


def rule_ids_in(text: str) -> set[str]:
    """Every rule id quoted in ``text``."""
    return {m.group(1) for m in RULE_ID.finditer(text)}
