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
def _index() -> dict[str, dict[str, str]]:
    text = resources.files("game.rules").joinpath("data/rule_index.toml").read_text("utf-8")
    data = tomllib.loads(text)
    return {part: {str(k): str(v) for k, v in data[part].items()} for part in ("rules", "plain")}


def rule_index() -> dict[str, str]:
    """Rule id -> title.

    >>> rule_index()["RD-9"]
    'Line of sight: centre to centre, heights, hindrances'
    """
    return _index()["rules"]


def rule_plain() -> dict[str, str]:
    """Rule id -> what it means in one plain line, for a newcomer (shown beside the id).

    >>> rule_plain()["C6.12"]
    "The target has spent 1 MP or less in the firer's sight: a snap shot (+4)."
    """
    return _index()["plain"]


def explain(rule_id: str) -> str:
    """A rule id, its title and its plain line: "C6.12 Case J2: Limited Aim ...: a snap
    shot (+4)."; an id the index lacks, as it is.

    >>> print(explain("C6.12"))  # doctest: +ELLIPSIS
    C6.12 Case J2: Limited Aim, ... a snap shot (+4).
    >>> explain("B25.14")  # Blaze: a rule of ASL the game does not cite
    'B25.14'
    """
    title = rule_index().get(rule_id)
    if title is None:
        return rule_id
    plain = rule_plain().get(rule_id, "")
    return f"{rule_id} {title}: {plain}" if plain else f"{rule_id} {title}"


def rule_ids_in(text: str) -> set[str]:
    """Every rule id quoted in ``text``.

    >>> sorted(rule_ids_in("Case J2 (C6.12) under RD-9 and HX-2; the chart (002), not 1002"))
    ['002', 'C6.12', 'HX-2', 'RD-9']
    """
    return {m.group(1) for m in RULE_ID.finditer(text)}
