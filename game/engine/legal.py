"""Candidate actions: everything that might be legal now, by phase; :meth:`Game.legal_actions`
keeps those that pass the same checks as :meth:`Game.apply`."""

from __future__ import annotations

from collections.abc import Callable

from game.board.hexes import label

from .actions import (
    Action,
    BoreSight,
    ButtonUp,
    Conceal,
    CrewExposed,
    EndMove,
    EndPhase,
    Fire,
    Move,
    Pass,
    Place,
    Turn,
)
from .play.setup import bore_sight_hexes, setup_hexes
from .play.shot import ammo_choices
from .state import GameState, UnitState
from .vocabulary import PhaseName


def candidates(state: GameState) -> list[Action]:
    """Every action worth trying now (a superset of the legal ones)."""
    if state.dff_pending:
        target = state.moving_target()
        found: list[Action] = [Pass()]
        if target:
            for firer_id in state.dff_pending:
                found.extend(
                    Fire(firer_id, target.id, ammo)
                    for ammo in ammo_choices(state, state.units[firer_id])
                )
        return found
    found = [EndPhase()]
    mine = [u for u in state.units.values() if u.active and u.side == state.to_act]
    by_phase = BY_PHASE.get(state.phase)
    if by_phase:
        found.extend(by_phase(state, mine))
    return found


def _setup(state: GameState, mine: list[UnitState]) -> list[Action]:
    found: list[Action] = [Conceal(unit.id) for unit in mine]
    for unit in mine:
        if unit.type.gun:
            found.extend(BoreSight(unit.id, spot) for spot in bore_sight_hexes(state, unit))
    return found + _placing(state, mine)


def _placing(state: GameState, mine: list[UnitState]) -> list[Action]:
    """Set-up placements (HX-12): every hex of a unit's area with its facing, and its own hex
    with every other facing."""
    found: list[Action] = []
    for unit in mine:
        here = label(unit.hex)
        for spot in setup_hexes(state, unit):
            if spot != here:
                found.append(Place(unit.id, spot, unit.facing))
        if unit.id in state.areas:
            found.extend(Place(unit.id, here, f) for f in range(6) if f != unit.facing)
    return found


def _movement(state: GameState, mine: list[UnitState]) -> list[Action]:
    found: list[Action] = []
    board = state.board
    for unit in mine:
        if state.moving_unit not in (None, unit.id):
            continue
        ahead = unit.hex.neighbor(unit.facing)
        if unit.type.is_vehicle and board.contains(ahead):
            found.append(Move(unit.id, label(ahead)))
        if any(not board.contains(n) for n in unit.hex.neighbors()):
            found.append(Move(unit.id, "off"))  # from an edge hex: off, or along the map
        found.extend(Move(unit.id, label(n)) for n in unit.hex.neighbors() if board.contains(n))
        found.extend(Turn(unit.id, (unit.facing + d) % 6) for d in (1, -1))
        found.extend([EndMove(unit.id, False), EndMove(unit.id, True)])
        found.extend([ButtonUp(unit.id), CrewExposed(unit.id)])
    return found


def _fire(state: GameState, mine: list[UnitState]) -> list[Action]:
    found: list[Action] = []
    enemies = [u for u in state.units.values() if u.active and u.side != state.to_act]
    for unit in mine:
        if unit.type.has_at_weapon:
            for target in enemies:
                found.extend(Fire(unit.id, target.id, ammo) for ammo in ammo_choices(state, unit))
        found.extend([ButtonUp(unit.id), CrewExposed(unit.id)])
    return found


BY_PHASE: dict[PhaseName, Callable[[GameState, list[UnitState]], list[Action]]] = {
    "setup": _setup,
    "setup_attacker": _placing,
    "movement": _movement,
    "prep_fire": _fire,
    "defensive_fire": _fire,
    "advancing_fire": _fire,
}
