"""Write the README's controls table from the bindings table (game/ui/data/bindings.toml):
``python3 tools/docs/controls.py``. A test holds the README to it."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from game.ui.bindings import help_rows  # noqa: E402

README = Path(__file__).resolve().parents[2] / "README.md"
BEGIN = "<!-- controls: written by tools/docs/controls.py from game/ui/data/bindings.toml -->"
END = "<!-- /controls -->"


def controls_table() -> str:
    """The Markdown table of every binding, in the table's order."""
    lines = ["| keys / mouse | what it does |", "| --- | --- |"]
    lines += [f"| {keys} | {what} |" for keys, what in help_rows()]
    return "\n".join(lines)


def with_table(readme: str) -> str:
    """``readme`` with its controls section replaced by today's table."""
    head, _, rest = readme.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{controls_table()}\n{END}{tail}"


if __name__ == "__main__":
    README.write_text(with_table(README.read_text(encoding="utf-8")), encoding="utf-8")
