"""Candidate actions: everything that might be legal now, by phase; :meth:`Game.legal_actions`
keeps those that pass the same checks as :meth:`Game.apply`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

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
from .errors import IllegalAction
from .phases import PHASES
from .play.movement import mover, steps
from .play.setup import bore_sight_hexes, bore_sights, placements, setup_hexes
from .play.shot import ammo_choices, firer_problem, sw_range
from .state import GameState, UnitState
from .vocabulary import PhaseName


class Checked(list):
    """Candidates already known legal: a handler's own checks asked once a unit instead of
    once an action (:func:`setup.placements`, :func:`setup.bore_sights`,
    :func:`movement.steps`); :func:`legal` keeps them without passing each through the door."""


Candidate = Action | Checked


def candidates(state: GameState, prune: bool = True) -> list[Action]:
    """Every action worth trying now (a superset of the legal ones). ``prune``: leave out
    those the first checks of their handlers refuse (a unit that may not move or fire now, a
    target out of LOS, a hatch already so), asked once a unit instead of once an action;
    without it, every candidate (the reference the tests hold the pruned list to)."""
    return list(iter_candidates(state, prune))


def iter_candidates(state: GameState, prune: bool = True) -> Iterator[Action]:
    """:func:`candidates` one at a time, made as they are asked for: a question that stops
    at the first legal one (:meth:`Game.nothing_to_do`) does not list a set-up's tens of
    thousands of placements on a large map."""
    for c in _candidates(state, prune):
        if isinstance(c, Checked):
            yield from c
        else:
            yield c


def legal(state: GameState, allowed: Callable[[Action], bool]) -> list[Action]:
    """Every action :meth:`Game.apply` accepts now, in the candidates' order: those
    ``allowed`` accepts, and the :class:`Checked` ones (a set-up's thousands of placements
    through the door were a fifth of the list's time)."""
    out: list[Action] = []
    for c in _candidates(state, True):
        if isinstance(c, Checked):
            out.extend(c)
        elif allowed(c):
            out.append(c)
    return out


def _candidates(state: GameState, prune: bool) -> Iterator[Candidate]:
    if state.dff_pending:
        yield Pass()
        target = state.moving_target()
        if target:
            for firer_id in state.dff_pending:
                for ammo in ammo_choices(state, state.units[firer_id]):
                    yield Fire(firer_id, target.id, ammo)
        return
    if not (prune and state.phase == "movement" and state.moving_unit):
        yield EndPhase()  # not while a unit moves (its move is ended first)
    side = state.to_act
    mine = [u for u in state.units.values() if u.side == side and u.active]
    by_phase = BY_PHASE.get(state.phase)
    if by_phase is None:
        return
    if not prune:
        yield from by_phase(state, mine, prune)
        return
    allowed = PHASES[state.phase].actions  # the phase table's first check, once a list
    for c in by_phase(state, mine, prune):
        if isinstance(c, Checked):
            yield Checked(a for a in c if a.type in allowed)
        elif c.type in allowed:
            yield c


def _setup(state: GameState, mine: list[UnitState], prune: bool) -> Iterator[Candidate]:
    for unit in mine:
        yield Conceal(unit.id)
    for unit in mine:
        if prune:
            yield Checked(bore_sights(state, unit))
        elif unit.type.gun:
            for spot in bore_sight_hexes(state, unit):
                yield BoreSight(unit.id, spot)
    yield from _placing(state, mine, prune)


def _placing(state: GameState, mine: list[UnitState], prune: bool) -> Iterator[Candidate]:
    """Set-up placements (HX-12): every hex of a unit's area with its facing, and its own hex
    with every other facing."""
    for unit in mine:
        if prune:
            yield Checked(placements(state, unit))
            continue
        here = label(unit.hex)
        for spot in setup_hexes(state, unit):
            if spot != here:
                yield Place(unit.id, spot, unit.facing)
        if unit.id in state.areas:
            for f in range(6):
                if f != unit.facing:
                    yield Place(unit.id, here, f)


def _movement(state: GameState, mine: list[UnitState], prune: bool) -> list[Candidate]:
    found: list[Candidate] = []
    board = state.board
    for unit in mine:
        if state.moving_unit not in (None, unit.id):
            continue
        if not prune or _may_move(state, unit):
            ahead = unit.hex.neighbor(unit.facing)
            vehicle = unit.type.is_vehicle
            drives = not prune or (unit.type.category != "gun" and not unit.immobilized)
            if vehicle and drives and board.contains(ahead):
                if prune:  # the hex checks of movement.move, the unit's once
                    found.append(Checked(steps(state, unit, (ahead,))))
                else:
                    found.append(Move(unit.id, label(ahead)))
            inside, edge = board.around(unit.hex)
            if drives and edge:
                found.append(Move(unit.id, "off"))  # from an edge hex: off, or along the map
            if not prune:
                found.extend(Move(unit.id, label(n)) for n in inside)
            elif drives and not vehicle:  # a vehicle only through its front
                found.append(Checked(steps(state, unit, inside)))
            if not prune or unit.type.category != "infantry":  # Infantry have no facing
                found.extend(Turn(unit.id, (unit.facing + d) % 6) for d in (1, -1))
        if not prune or state.moving_unit == unit.id:
            found.extend([EndMove(unit.id, False), EndMove(unit.id, True)])
        found.extend(_hatches(unit, prune))
    return found


def _may_move(state: GameState, unit: UnitState) -> bool:
    """The first check of every Move and Turn (:func:`movement.mover`) passes for ``unit``."""
    try:
        mover(state, unit.id)
    except IllegalAction:
        return False
    return True


def _hatches(unit: UnitState, prune: bool) -> list[Action]:
    """Button up, or Crew Exposed: an AFV's change of hatches (the other is no change)."""
    if not prune:
        return [ButtonUp(unit.id), CrewExposed(unit.id)]
    if not unit.type.armored:
        return []
    return [ButtonUp(unit.id) if unit.ce else CrewExposed(unit.id)]


def _fire(state: GameState, mine: list[UnitState], prune: bool) -> list[Action]:
    found: list[Action] = []
    side = state.to_act
    enemies = [u for u in state.units.values() if u.active and u.side != side]
    if prune:  # fire_problem's target checks that need no firer but its LOS
        enemies = [e for e in enemies if e.type.category != "infantry" or e.concealed]
    index, sees = state.board.index, state.visibility.sees  # can_see, each enemy's hex once
    at = [index(e.hex) for e in enemies]
    for unit in mine:
        if unit.type.has_at_weapon and not (prune and firer_problem(state, unit)):
            ammo = ammo_choices(state, unit)
            reach = sw_range(unit) if prune else None
            here = index(unit.hex)
            for target, there in zip(enemies, at, strict=True):
                if prune and not sees(here, there):
                    continue
                if reach is not None and unit.hex.distance(target.hex) > reach:
                    continue  # an AT SW fires only within its range (002)
                found.extend(Fire(unit.id, target.id, a) for a in ammo)
        found.extend(_hatches(unit, prune))
    return found


BY_PHASE: dict[PhaseName, Callable[[GameState, list[UnitState], bool], Iterable[Candidate]]] = {
    "setup": _setup,
    "setup_attacker": _placing,
    "movement": _movement,
    "prep_fire": _fire,
    "defensive_fire": _fire,
    "advancing_fire": _fire,
}
