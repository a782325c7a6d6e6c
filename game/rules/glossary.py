"""The game's words in plain language (``data/glossary.toml``): docs/glossary.md is made from
them (``tools/docs/glossary.py``) and the in-game glossary reads them."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources


@cache
def glossary() -> dict[str, str]:
    """Term -> its one-line plain explanation, in the file's order.

    >>> "AFV" in glossary() and all(text.strip() for text in glossary().values())
    True
    """
    text = resources.files("game.rules").joinpath("data/glossary.toml").read_text("utf-8")
    return {str(k): str(v) for k, v in tomllib.loads(text)["terms"].items()}


def glossary_markdown() -> str:
    """docs/glossary.md: every term, sorted, with its explanation.

    >>> glossary_markdown().splitlines()[0]
    '# Glossary'
    """
    lines = [
        "# Glossary",
        "",
        "The words of hexfire in plain language. Made from `game/rules/data/glossary.toml` by",
        "`python3 tools/docs/glossary.py`; the game's own glossary reads the same file.",
        "",
        "| term | what it means |",
        "| --- | --- |",
    ]
    for term, text in sorted(glossary().items(), key=lambda kv: kv[0].lower()):
        lines.append(f"| {term} | {text} |")
    return "\n".join(lines) + "\n"
