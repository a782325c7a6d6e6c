"""The phase state machine (RD-12): a table of phases, who acts in each, what they may do, and
the work done when each ends (named here, done in ``play/turns.py``).

A game turn is two player turns. Player turn: Rally -> Prep Fire -> Movement (the other side may
Defensive First Fire after each MP the moving unit spends in its LOS) -> Defensive Fire (the
other side) -> Advancing Fire -> end of the player turn. Before the first, the set-up (HX-12):
the scenario defender places its units in their set-up areas and makes its set-up choices, bore
sighting (C6.41-.42) and concealment (RD-11); then the other side places its units.
"""

from __future__ import annotations

from dataclasses import dataclass

from .vocabulary import Actor, PhaseName


@dataclass(frozen=True, slots=True)
class Phase:
    name: PhaseName
    title: str
    actor: Actor
    actions: frozenset[str]
    next: PhaseName | None
    """The phase that follows; None: the player turn ends (then a Rally Phase)."""
    rule: str
    on_end: tuple[str, ...] = ()
    """The work done as it ends, in order (``play/turns.py`` names each)."""


PHASES: dict[PhaseName, Phase] = {
    p.name: p
    for p in (
        Phase(
            "setup",
            "Set Up (scenario defender)",
            "scenario_defender",
            frozenset({"place", "bore_sight", "conceal", "end_phase"}),
            "setup_attacker",
            "HX-12",
            on_end=("clear_fire",),
        ),
        Phase(
            "setup_attacker",
            "Set Up",
            "scenario_attacker",
            frozenset({"place", "end_phase"}),
            "rally",
            "HX-12",
            on_end=("clear_fire", "start_player_turn"),
        ),
        Phase(
            "rally",
            "Rally Phase",
            "phasing",
            frozenset({"end_phase"}),
            "prep_fire",
            "RD-12",
            on_end=("recovery", "clear_fire"),
        ),
        Phase(
            "prep_fire",
            "Prep Fire Phase",
            "phasing",
            frozenset({"fire", "button_up", "crew_exposed", "end_phase"}),
            "movement",
            "RD-12",
            on_end=("clear_fire",),
        ),
        Phase(
            "movement",
            "Movement Phase",
            "phasing",
            frozenset({"move", "turn", "end_move", "button_up", "crew_exposed", "end_phase"}),
            "defensive_fire",
            "RD-12",
            on_end=("clear_fire", "clear_tracking"),
        ),
        Phase(
            "defensive_fire",
            "Defensive Fire Phase",
            "non_phasing",
            frozenset({"fire", "button_up", "crew_exposed", "end_phase"}),
            "advancing_fire",
            "RD-12",
            on_end=("clear_fire",),
        ),
        Phase(
            "advancing_fire",
            "Advancing Fire Phase",
            "phasing",
            frozenset({"fire", "end_phase"}),
            None,
            "RD-12",
            on_end=("clear_fire", "end_player_turn"),
        ),
    )
}
DFF_ACTIONS = frozenset({"fire", "pass"})
"""While a Defensive First Fire chance is open, the other side acts: fire or pass (C6.17)."""
