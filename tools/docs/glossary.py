"""Write docs/glossary.md from the game's glossary (game/rules/data/glossary.toml).

python3 tools/docs/glossary.py
"""

from __future__ import annotations

from pathlib import Path

from game.rules.glossary import glossary_markdown

if __name__ == "__main__":
    out = Path(__file__).resolve().parents[2] / "docs" / "glossary.md"
    out.write_text(glossary_markdown(), encoding="utf-8")
    print(out)
