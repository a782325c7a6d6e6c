"""To Kill, the ``chart`` system (002): the Armor Elimination Chart (Valor & Victory, RD-15).

An unarmored vehicle or a Gun that is hit is eliminated. An AFV: the chart crosses the firer's
ATFP with the AF of the facing hit to give the Elimination Number (EN); DR < EN eliminated,
DR = EN immobilized, DR > EN no effect; no cover modifiers on this roll (002). "-": no effect is
possible; "E": every roll eliminates.
"""

from __future__ import annotations

from .drm import RuleError
from .tables import tables

LETTERS = ("A", "B", "C", "D", "E", "F")


def elimination_number(atfp: str, af: str) -> int | str:
    """The EN for ATFP and AF letters (A weakest - F strongest): an int, "E" or "-"."""
    for name, v in (("ATFP", atfp), ("AF", af)):
        if v not in LETTERS:
            raise RuleError("002", f"{name} is a letter A-F, not {v!r}")
    cell = tables().chart_cell(atfp, af)
    return cell if cell in ("E", "-") else int(cell)


def chart_result(en: int | str, dr_total: int) -> tuple[str, str]:
    """(result, rule) of the elimination DR against the EN (002)."""
    if en == "E":
        return "eliminated", "RD-15"
    if en == "-":
        return "no_effect", "RD-15"
    assert isinstance(en, int)
    if dr_total < en:
        return "eliminated", "002"
    if dr_total == en:
        return "immobilized", "002"
    return "no_effect", "002"
