"""The house rules of the code (issue 39): no module of game/ over 450 lines, and no function
radon rates E or F (cyclomatic complexity over 30): a module or function past them is split by
what it does before it lands."""

from __future__ import annotations

from pathlib import Path

from radon.complexity import cc_rank, cc_visit

GAME = Path(__file__).resolve().parents[2] / "game"
MAX_LINES = 450


def test_no_module_of_game_is_over_450_lines():
    long = {
        str(p.relative_to(GAME)): n
        for p in sorted(GAME.rglob("*.py"))
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"split these by domain: {long}"


def _blocks(blocks):
    """Every function, method and closure radon sees (a class's methods are inside it)."""
    for block in blocks:
        yield block
        yield from _blocks(getattr(block, "methods", []))
        yield from _blocks(getattr(block, "closures", []))


def test_no_function_of_game_is_rated_e_or_f_by_radon():
    bad = []
    for p in sorted(GAME.rglob("*.py")):
        for block in _blocks(cc_visit(p.read_text(encoding="utf-8"))):
            if not hasattr(block, "methods") and cc_rank(block.complexity) in ("E", "F"):
                bad.append(f"{p.relative_to(GAME)}:{block.lineno} {block.name} {block.complexity}")
    assert not bad, f"split these into named steps: {bad}"
