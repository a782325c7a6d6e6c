"""The phase state machine (RD-12): a table of phases, who acts in each and what they may do.

A game turn is two player turns. Player turn: Rally -> Prep Fire -> Movement (the other side may
Defensive First Fire after each MP the moving unit spends in its LOS) -> Defensive Fire (the
other side) -> Advancing Fire -> end of the player turn. Before the first: the scenario
defender's set-up choices: bore sighting (C6.41-.42) and concealment (RD-11).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Phase:
    name: str
    title: str
    actor: str
    """Who acts: "phasing", "non_phasing" or "scenario_defender"."""
    actions: frozenset[str]
    next: str
    rule: str


PHASES: dict[str, Phase] = {
    p.name: p
    for p in (
        Phase(
            "setup",
            "Set Up",
            "scenario_defender",
            frozenset({"bore_sight", "conceal", "end_phase"}),
            "rally",
            "C6.42",
        ),
        Phase("rally", "Rally Phase", "phasing", frozenset({"end_phase"}), "prep_fire", "RD-12"),
        Phase(
            "prep_fire",
            "Prep Fire Phase",
            "phasing",
            frozenset({"fire", "button_up", "crew_exposed", "end_phase"}),
            "movement",
            "RD-12",
        ),
        Phase(
            "movement",
            "Movement Phase",
            "phasing",
            frozenset({"move", "turn", "end_move", "button_up", "crew_exposed", "end_phase"}),
            "defensive_fire",
            "RD-12",
        ),
        Phase(
            "defensive_fire",
            "Defensive Fire Phase",
            "non_phasing",
            frozenset({"fire", "button_up", "crew_exposed", "end_phase"}),
            "advancing_fire",
            "RD-12",
        ),
        Phase(
            "advancing_fire",
            "Advancing Fire Phase",
            "phasing",
            frozenset({"fire", "end_phase"}),
            "end",
            "RD-12",
        ),
    )
}
DFF_ACTIONS = frozenset({"fire", "pass"})
"""While a Defensive First Fire chance is open, the other side acts: fire or pass (C6.17)."""
FIRE_PHASES = ("prep_fire", "defensive_fire", "advancing_fire")
