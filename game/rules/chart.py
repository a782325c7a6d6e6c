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
    """The EN for ATFP and AF letters (A weakest - F strongest): an int, "E" or "-".

    The rules' own examples (TABLES.md, RD-15): ATFP D against AF D, and a Panzerfaust (D)
    against an M4A3E8's front (E); 7 on the diagonal, 2 a step, "E" past 12, "-" below 3:

    >>> elimination_number("D", "D"), elimination_number("D", "E")
    (7, 5)
    >>> elimination_number("F", "A"), elimination_number("A", "F")
    ('E', '-')
    """
    for name, v in (("ATFP", atfp), ("AF", af)):
        if v not in LETTERS:
            raise RuleError("002", f"{name} is a letter A-F, not {v!r}")
    cell = tables().chart_cell(atfp, af)
    return cell if cell in ("E", "-") else int(cell)


def chart_result(en: int | str, dr_total: int) -> tuple[str, str]:
    """(result, rule) of the elimination DR against the EN (002): below it eliminated, equal
    immobilized, above no effect; "E" always eliminates, "-" never affects (RD-15).

    >>> [chart_result(7, dr)[0] for dr in (6, 7, 8)]
    ['eliminated', 'immobilized', 'no_effect']
    >>> chart_result("E", 12)
    ('eliminated', 'RD-15')
    """
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
