"""The computer's candidate actions (docs/ai.md "How it decides"), one module a kind: set-up
(``setup``), move (``move``, its steps in ``steps``), fire (``fire``), Defensive First Fire
(``dff``), pass (``pass_``), and level 0's random play (``randomplay``); the loop that picks
among them (``base``, after Wesnoth's candidate-action loop). :func:`candidates` gives a
decision's candidates, by the level and the phase."""

from __future__ import annotations

from game.engine.table import Table

from .base import Candidate, best
from .dff import DffCandidate
from .fire import FireCandidate
from .move import DriveOnCandidate, LeaveCandidate, NextUnitCandidate, StandCandidate
from .pass_ import FIRE_PHASES, SETUP_PHASES, PassCandidate
from .randomplay import RandomCandidate
from .setup import BoreSightCandidate, ConcealCandidate, PlaceCandidate

PASS = PassCandidate()
RANDOM: tuple[Candidate, ...] = (RandomCandidate(),)
DFF: tuple[Candidate, ...] = (DffCandidate(), PASS)
SETUP: tuple[Candidate, ...] = (PlaceCandidate(), ConcealCandidate(), BoreSightCandidate(), PASS)
FIRE: tuple[Candidate, ...] = (FireCandidate(), PASS)
MOVE: tuple[Candidate, ...] = (
    LeaveCandidate(),
    StandCandidate(),
    DriveOnCandidate(),
    NextUnitCandidate(),
    PASS,
)
OTHER: tuple[Candidate, ...] = (PASS,)


def candidates(table: Table, level: int) -> tuple[Candidate, ...]:
    """The candidates of the decision ``table``'s side makes now at ``level``: level 0 random
    play; a Defensive First Fire chance (during the enemy's move); the set-up; a fire phase;
    the Movement Phase; any other phase, only the pass candidate."""
    if level == 0:
        return RANDOM
    if table.dff_pending:
        return DFF
    if table.phase in SETUP_PHASES:
        return SETUP
    if table.phase in FIRE_PHASES:
        return FIRE
    if table.phase == "movement":
        return MOVE
    return OTHER


__all__ = ["Candidate", "best", "candidates"]
