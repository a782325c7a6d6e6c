"""The careful player's repeatable plans (issue 41): each a way to play the same careful style,
so that a computer that beats one plan is tried against the others too. ``lean`` is the flank
it works round (-1 the left of its way in, +1 the right, 0 straight at it), ``progress`` how
much each hex gained towards its goal counts, ``caution`` how much the risk of being knocked
out counts, ``hold`` whether it waits where it stands for the enemy to come into its sights
(moving only for a shot, for cover, or when its victory needs it before the game ends)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Plan:
    """One repeatable way the careful player plays (the module's text)."""

    name: str
    lean: int
    progress: float
    caution: float
    hold: bool = False
    why: str = ""


PLANS: dict[str, Plan] = {
    p.name: p
    for p in (
        Plan("hold", 0, 0.05, 2.5, hold=True, why="waits in cover for the enemy to come on"),
        Plan("flank-left", -1, 0.5, 1.6, why="works round the enemy's left flank in cover"),
        Plan("flank-right", 1, 0.5, 1.6, why="works round the enemy's right flank in cover"),
        Plan("rush", 0, 1.2, 0.7, why="drives straight at its goal, firing on the way"),
    )
}
"""The plans by name, in the order a bench cycles through them."""

DEFAULT = "flank-left"


def plan_named(name: str) -> Plan:
    """The plan called ``name``; ValueError naming the plans there are otherwise."""
    try:
        return PLANS[name]
    except KeyError:
        raise ValueError(f"careful plan {name!r}: expected one of {', '.join(PLANS)}") from None
