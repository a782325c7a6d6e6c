"""The docs' game in progress (tools/docs_game.py), for the tests."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "docs_game", Path(__file__).resolve().parent.parent / "tools" / "docs_game.py"
)
assert _spec and _spec.loader
_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_module)


def build_duel(path: Path) -> Path:
    _module.main(str(path))
    return path
