"""Numbers and outcomes in plain words, for every line a player reads ("1 hex", "2 hexes",
"no effect" rather than ``no_effect``)."""

from __future__ import annotations

IRREGULAR = {"hex": "hexes", "MP": "MP"}
"""Words whose plural is not the word and an s."""


FACING_WORDS = ("south-east", "north-east", "north", "north-west", "south-west", "south")
"""Hexside d faces 60 d - 30 degrees from the screen's right, counterclockwise (RD-7), the top
of the map north: "facing 0" said nothing to a newcomer."""


def facing_words(d: int) -> str:
    """A facing as a player reads it (RD-7).

    >>> facing_words(1), facing_words(6)
    ('north-east (hexside 1)', 'south-east (hexside 6)')
    """
    return f"{FACING_WORDS[d % 6]} (hexside {d})"


def plural(n: float, word: str) -> str:
    """``n`` and ``word``, the word in the plural unless ``n`` is one.

    >>> plural(1, "hex"), plural(3, "hex"), plural(2.5, "MP"), plural(0, "shot")
    ('1 hex', '3 hexes', '2.5 MP', '0 shots')
    """
    shown = f"{n:g}"
    if n == 1:
        return f"{shown} {word}"
    return f"{shown} {IRREGULAR.get(word, word + 's')}"


def outcome_words(outcome: str) -> str:
    """An attack's outcome as a player reads it.

    >>> outcome_words("no_effect"), outcome_words("possible_shock"), outcome_words("burn")
    ('no effect', 'possible Shock', 'burn')
    """
    return {"possible_shock": "possible Shock", "shock": "Shock"}.get(
        outcome, outcome.replace("_", " ")
    )
