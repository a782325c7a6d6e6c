"""What follows a result: the Possible Shock NTC (RD-5), the crew abandonment check (002, RD
"Immobilization and abandonment"), and Shock / UK recovery (C7.42)."""

from __future__ import annotations

from typing import Literal

from .tables import tables


def ntc_fails(dr_total: int, morale: int | None = None) -> bool:
    """RD-5: the NTC of a Possible Shock fails (Shock is placed) when the DR > the crew's morale
    (hexfire: 8 unless the catalogue says otherwise).

    >>> ntc_fails(8), ntc_fails(9), ntc_fails(9, morale=9)
    (False, True, False)
    """
    m = tables().raw["to_kill"]["crew_morale"] if morale is None else morale
    return dr_total > m


def abandoned(dr: int) -> bool:
    """002: one die; on 1-2 the crew abandons the immobilized AFV, which is removed.

    >>> [abandoned(dr) for dr in (1, 2, 3)]
    [True, True, False]
    """
    return dr <= tables().raw["abandonment"]["abandoned_max"]


def recovery(state: str, dr: int) -> tuple[Literal["none", "uk", "wreck"], str]:
    """C7.42: the recovery dr at the end of the next RPh. ``state`` "shock" or "uk" ->
    (new state: "none", "uk" or "wreck", rule).

    Shock: removed on a dr of 1-2, else UK; UK: removed on 1-3, else a wreck.

    >>> recovery("shock", 2), recovery("shock", 3)
    (('none', 'C7.42'), ('uk', 'C7.42'))
    >>> recovery("uk", 3), recovery("uk", 4)
    (('none', 'C7.42'), ('wreck', 'C7.42'))
    """
    r = tables().raw["recovery"]
    if state == "shock":
        return ("none" if dr <= r["shock_removed_max"] else "uk"), "C7.42"
    if state == "uk":
        return ("none" if dr <= r["uk_removed_max"] else "wreck"), "C7.42"
    raise ValueError(f"recovery is for a shocked AFV (shock or uk), not {state!r}")


def shock_again() -> tuple[Literal["shock"], str]:
    """C7.42: an AFV hit by a Shock result is shocked; a UK one flips back to its Shock side;
    one already on its Shock side has no additional effect.

    >>> shock_again()
    ('shock', 'C7.42')
    """
    # whatever it was (none, shock, uk), it is now on the Shock side
    return "shock", "C7.42"
