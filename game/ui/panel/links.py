"""The log's words a newcomer may not know, made links of the pygame-gui text box: a rule id
(C6.17, RD-12, HX-15, 002) or a short word of the glossary (NTC, UK, DFF...); a click on one
shows its words by the mouse (the side panel's rule ids had them on hover, the log's none)."""

from __future__ import annotations

import re

from game.rules.glossary import glossary
from game.rules.rule_index import RULE_ID, explain, rule_index

TERMS = ("NTC", "UK", "DFF", "TEM", "DRM", "ROF", "LOS", "AFV", "ATFP")
"""The glossary's short words made links in the log."""

_WORD = re.compile(RULE_ID.pattern + "|" + r"\b(" + "|".join(TERMS) + r")\b")
_TAG = re.compile(r"(<[^>]*>)")


def linked(html_line: str) -> str:
    """``html_line`` (already escaped) with its rule ids and short words as links; the tags
    themselves are left alone, and a link is never nested."""
    out = []
    for part in _TAG.split(html_line):
        if part.startswith("<"):
            out.append(part)
        else:
            out.append(_WORD.sub(_link, part))
    return "".join(out)


def _link(m: re.Match[str]) -> str:
    """A link, for a word with words to show: never a hex label (a chapter C rule is linked
    only with its dot, as in C6.17), never an id the index lacks."""
    word = m.group(0)
    if word in TERMS or (rule_index().get(word) and not re.fullmatch(r"C\d+", word)):
        return f"<a href='{word}'>{word}</a>"
    return word


def words_of(target: str) -> tuple[str, ...]:
    """What a link says when clicked: a rule's title and plain line, or a word's meaning."""
    meaning = glossary().get(target)
    if meaning is not None:
        return (f"{target}: {meaning}",)
    return (explain(target),)
