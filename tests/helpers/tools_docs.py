"""The scripts of tools/docs/, loaded for the tests (they are scripts, not a package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

DOCS_TOOLS = Path(__file__).resolve().parents[2] / "tools" / "docs"


def docs_tool(name: str) -> ModuleType:
    """``tools/docs/NAME.py`` as a module."""
    spec = importlib.util.spec_from_file_location(f"docs_{name}", DOCS_TOOLS / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # a dataclass in the script looks its module up there
    spec.loader.exec_module(module)
    return module


def build_duel(path: Path) -> Path:
    """The docs' game in progress (tools/docs/duel_save.py), written to ``path``."""
    docs_tool("duel_save").main(str(path))
    return path
