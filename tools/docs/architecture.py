"""Write docs/architecture.md's module tables from the code: every package and module of
``game/`` with the first sentence of its docstring (``python3 tools/docs/architecture.py``).
A test holds the page to it, so a new module without a docstring, or a page gone stale, fails
with the command to run."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
BEGIN = "<!-- modules: written by tools/docs/architecture.py from the docstrings of game/ -->"
END = "<!-- /modules -->"
# the layers, top to bottom, as the import-linter contract in pyproject.toml has them
LAYERS = ["cli", "ui", "server", "net", "session", "ai", "files", "engine", "rules", "board"]


def first_sentence(path: Path) -> str:
    """The first sentence of the module's docstring, on one line ("" if it has none)."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    text = " ".join(doc.split("\n\n")[0].split())
    m = re.search(r"(?<!e\.g)(?<!i\.e)(?<!\bvs)\.(\s|$)", text)
    sentence = text[: m.start() + 1] if m else text
    return sentence.replace("|", "\\|")


def packages() -> list[Path]:
    """Every package of game/ (sub-packages after their parent), in layer order."""
    found = sorted(p.parent for p in (ROOT / "game").rglob("__init__.py"))
    found = [p for p in found if p != ROOT / "game"]

    def key(p: Path) -> tuple[int, str]:
        top = p.relative_to(ROOT / "game").parts[0]
        return (LAYERS.index(top) if top in LAYERS else len(LAYERS), p.as_posix())

    return sorted(found, key=key)


def modules_markdown() -> str:
    """One table per package: its modules and what each holds."""
    out: list[str] = []
    for package in packages():
        name = ".".join(package.relative_to(ROOT).parts)
        out += [f"### `{name}`", "", first_sentence(package / "__init__.py"), ""]
        rows = [p for p in sorted(package.glob("*.py")) if p.name != "__init__.py"]
        if rows:
            out += ["| module | what it holds |", "| --- | --- |"]
            out += [f"| `{p.stem}` | {first_sentence(p)} |" for p in rows]
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def with_modules(doc: str) -> str:
    """``doc`` with its module section replaced by today's."""
    head, _, rest = doc.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n\n{modules_markdown()}\n{END}{tail}"


if __name__ == "__main__":
    DOC.write_text(with_modules(DOC.read_text(encoding="utf-8")), encoding="utf-8")
