"""The threat map: for a vehicle, how likely it would be eliminated (burned or eliminated) or
immobilized standing in each hex with its current facing, if every known enemy unit that could
fire at it there fired once with its best ammunition. Exact odds from the rules library, per
shot as the odds panel has them (range, Case D, aspect, hindrance, TEM); P = 1 - the product of
each shot's chance to leave it alive. Hypothetical: phase and shots already taken are not
considered, and only the enemies the vehicle's side can see count."""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from functools import lru_cache

from game.board.hexes import direction_to, facing_angle, label
from game.engine.state import GameState, UnitState
from game.rules.attack import Attack
from game.rules.drm import RuleError
from game.rules.facing import asl_aspect, facing_offset
from game.rules.odds import Odds, odds

from .shot import COVERED_ARC_HALF, ammo_choices, build_attack


@dataclass(frozen=True, slots=True)
class Threat:
    """One enemy's shot at the vehicle in that hex."""

    firer: str
    ammo: str | None
    p_kill: float
    """P(burn or eliminated)."""
    p_immobilized: float


@dataclass(frozen=True, slots=True)
class HexThreat:
    p_kill: float
    """1 - product over the threats of (1 - p_kill)."""
    p_immobilized: float
    """1 - product over the threats of (1 - p_immobilized)."""
    threats: tuple[Threat, ...]


@lru_cache(maxsize=65536)
def cached_odds(attack: Attack) -> Odds | None:
    """The odds of an attack, or None if the rules refuse it; kept (refusals too): most hexes
    of a map see the same few shots."""
    try:
        return odds(attack)
    except RuleError:
        return None


def threat_map(state: GameState, unit_id: str, known: set[str]) -> dict[int, HexThreat]:
    """Board index -> the threat there to ``unit_id`` (only hexes some known enemy can shoot
    into, where the vehicle could stand)."""
    unit = state.unit(unit_id)
    board = state.board
    enemies = [
        e
        for e in state.units.values()
        if e.id in known and e.active and e.side != unit.side and e.type.has_at_weapon
    ]
    shooters: dict[int, list[UnitState]] = {}
    hindrance = {}
    for enemy in enemies:
        i = board.index(enemy.hex)
        row, hindrance[enemy.id] = state.viewshed(i)
        for j in row.nonzero()[0]:
            j = int(j)
            if j != i:
                shooters.setdefault(j, []).append(enemy)
    out: dict[int, list[Threat]] = {}
    memo: dict[tuple, Threat | None] = {}
    for j, there in shooters.items():
        h = board.hex_at(j)
        terrain = board.terrain_at(h)
        if not terrain.enterable_by_vehicle:
            continue
        ghost: UnitState | None = None  # the vehicle as it would stand there
        spot = label(h)
        for enemy in there:
            if (
                not enemy.type.turret
                and enemy.type.gun
                and facing_offset(enemy.hex, enemy.facing, h) > COVERED_ARC_HALF
            ):
                continue
            # what the shot depends on that changes from hex to hex: the same key, the same odds
            toward = direction_to(h, enemy.hex)  # once for the hull's and the turret's aspect
            hull = _offset(toward, unit.facing)
            turret = _offset(toward, unit.turret) if unit.type.turret else hull
            key = (
                enemy.id,
                enemy.hex.distance(h),
                asl_aspect(hull),
                asl_aspect(turret),
                (hull > 90.0) - (hull < 90.0),
                terrain.tem,
                int(hindrance[enemy.id][j]),
                enemy.bore_sight == spot,
            )
            if enemy.acquisition is None and key in memo:
                threat = memo[key]
            else:
                if ghost is None:
                    ghost = copy.copy(unit)  # the vehicle as it would stand there
                    ghost.hex = h
                threat = memo[key] = best_shot(state, enemy, ghost)
            if threat is not None:
                out.setdefault(j, []).append(threat)
    result = {}
    for j, threats in out.items():
        alive = immobile = 1.0
        for t in threats:
            alive *= 1.0 - t.p_kill
            immobile *= 1.0 - t.p_immobilized
        result[j] = HexThreat(1.0 - alive, 1.0 - immobile, tuple(threats))
    return result


def _offset(toward: float, facing: int) -> float:
    """:func:`facing_offset` from a direction already computed (the same rounding)."""
    t = abs(toward - facing_angle(facing)) % 360.0
    return round(min(t, 360.0 - t), 9)


def best_shot(state: GameState, firer: UnitState, target: UnitState) -> Threat | None:
    """``firer``'s deadliest shot at ``target`` (its best ammunition), or None if the rules
    refuse every one (range, Case D NA...)."""
    best: Threat | None = None
    base: Attack | None = None
    for ammo in ammo_choices(firer):
        if base is None:  # the geometry once; each ammunition on the same shot
            try:
                base = build_attack(state, firer, target, ammo, dff=False, chart_die=1)
            except RuleError:
                continue
            attack = base
        else:
            attack = replace(base, ammo=ammo)
        o = cached_odds(attack)
        if o is None:
            continue
        t = Threat(firer.id, ammo, o.p["burn"] + o.p["eliminated"], o.p["immobilized"])
        if best is None or t.p_kill > best.p_kill:
            best = t
    return best
