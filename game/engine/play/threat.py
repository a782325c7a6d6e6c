"""The threat map (RD-18): for a vehicle, how likely it would be removed from play (burned,
eliminated, or immobilized and then abandoned) standing in each hex it could enter, with its
current facing, if every enemy unit its side knows of that could fire at it there (in play, not
Shocked, with LOS, range and ammunition) fired once with its best ammunition. Exact odds from
the rules library, per shot as the odds panel has them (range, Case D, aspect, hindrance, TEM,
the special ammunition's availability and the chart's 90-degree die, RD-16), never an enemy's
secret Bore Sighted Location (C6.42); P = 1 - the product of each shot's chance to leave it in
play. Hypothetical: the phase and the shots already taken are not considered."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from game.board.hexes import Hex, direction_to, facing_angle
from game.engine.state import GameState, UnitState
from game.engine.unitstate import odds_key
from game.rules.attack import Attack
from game.rules.drm import RuleError
from game.rules.facing import asl_aspect, facing_offset
from game.rules.odds import Branch, Odds, blend, odds

from .shot import COVERED_ARC_HALF, ammo_choices, build_attack, leaf_choices, with_ammo


@dataclass(frozen=True, slots=True)
class Threat:
    """One enemy's shot at the vehicle in that hex."""

    firer: str
    ammo: str | None
    p_kill: float
    """P(removed from play: burn, eliminated, or immobilized then abandoned; RD-18)."""
    p_immobilized: float


@dataclass(frozen=True, slots=True)
class HexThreat:
    p_kill: float
    """1 - product over the threats of (1 - p_kill)."""
    p_immobilized: float
    """1 - product over the threats of (1 - p_immobilized)."""
    threats: tuple[Threat, ...]


ODDS_KEPT = 16384
"""The attacks whose odds are kept: a whole level-3 game on the four-board map asks some
16,000. Each holds 1.6-2.5 KiB (its attack and odds): 65,536 of them (100-160 MiB) filled up
under 20 minutes of random input on the screen (the threat and fire maps of every unit and hex
shown)."""


@lru_cache(maxsize=ODDS_KEPT)
def cached_odds(attack: Attack) -> Odds | None:
    """The odds of an attack, or None if the rules refuse it; kept (refusals too): most hexes
    of a map see the same few shots."""
    try:
        return odds(attack)
    except RuleError:
        return None


def _shooters(state: GameState, unit: UnitState, known: set[str] | None) -> list[UnitState]:
    """The enemies of ``unit`` in ``known`` (None: every enemy) that could fire at it: in
    play, not Shocked, with an AT weapon."""
    return [
        e
        for e in state.units.values()
        if (known is None or e.id in known)
        and e.active
        and e.side != unit.side
        and e.type.has_at_weapon
        and e.shock == "none"
    ]


SHOT_MEMO_LIMIT = 200_000
"""Entries the state's shot memo keeps before it starts again (a few tens of MB at most)."""


def _memo_shot(state: GameState, key: tuple, firer: UnitState, target: UnitState) -> Threat | None:
    """:func:`best_shot` through the state's shot memo (shared by the copies of a game):
    ``key`` names everything the shot depends on."""
    memo = state.shots
    if key in memo:
        known: Threat | None = memo[key]
        return known
    if len(memo) >= SHOT_MEMO_LIMIT:
        memo.clear()
    threat = memo[key] = best_shot(state, firer, target)
    return threat


def _seen(row: Any, within: list[int] | None) -> list[int]:
    """The board indexes a viewshed ``row`` sees, or only those of them ``within`` (in
    order)."""
    if within is None:
        return [int(j) for j in row.nonzero()[0]]
    return [j for j in within if row[j]]


def _out_of_arc(enemy: UnitState, h: Hex) -> bool:
    """A Gun with no turret fires only inside its Covered Arc (HX-2)."""
    return (
        not enemy.type.turret
        and bool(enemy.type.gun)
        and facing_offset(enemy.hex, enemy.facing, h) > COVERED_ARC_HALF
    )


def _combine(threats: list[Threat]) -> HexThreat:
    alive = immobile = 1.0
    for t in threats:
        alive *= 1.0 - t.p_kill
        immobile *= 1.0 - t.p_immobilized
    return HexThreat(1.0 - alive, 1.0 - immobile, tuple(threats))


def threat_here(state: GameState, unit_id: str, known: set[str] | None) -> HexThreat:
    """The threat map's figure for the hex ``unit_id`` stands in, as it stands (its facing,
    turret and Motion): each enemy in ``known`` with LOS to it (and, for a Gun with no turret,
    the hex in its Covered Arc) fires once with its best ammunition (RD-18)."""
    unit = state.unit(unit_id)
    board = state.board
    j = board.index(unit.hex)
    threats = []
    here = ("here", odds_key(unit, "target"), state.phase, unit.key_text())
    tem = board.terrain_at(unit.hex).tem
    for enemy in _shooters(state, unit, known):
        i = board.index(enemy.hex)
        row, hindrance = state.viewshed(i)
        if i == j or not row[j]:
            continue
        if _out_of_arc(enemy, unit.hex):
            continue
        if enemy.acquisition is None:
            key = (*here, enemy.key_text(), int(hindrance[j]), tem)
            threat = _memo_shot(state, key, enemy, unit)
        else:  # its Acquisition counts on this target alone (C6.5)
            threat = best_shot(state, enemy, unit)
        if threat is not None:
            threats.append(threat)
    return _combine(threats)


def threat_map(
    state: GameState,
    unit_id: str,
    known: set[str] | None,
    blocked: set[Hex],
    within: set[int] | None = None,
) -> dict[int, HexThreat]:
    """Board index -> the threat there to ``unit_id``, from the enemies in ``known`` (None:
    every enemy), over the hexes some of them can shoot into that the vehicle could enter (its
    terrain, and not one of ``blocked``: the hexes holding a unit it may not share), and only
    those ``within`` if given (the computer's: the hexes it weighs; each hex's figure is the
    same as in the whole map)."""
    unit = state.unit(unit_id)
    board = state.board
    enemies = _shooters(state, unit, known)
    shooters: dict[int, list[UnitState]] = {}
    hindrance = {}
    wanted = None if within is None else sorted(within)
    for enemy in enemies:
        i = board.index(enemy.hex)
        row, hindrance[enemy.id] = state.viewshed(i)
        for j in _seen(row, wanted):
            if j != i:
                shooters.setdefault(j, []).append(enemy)
    out: dict[int, list[Threat]] = {}
    memo: dict[tuple, Threat | None] = {}
    shared = ("threat", odds_key(unit, "target"), state.phase)
    texts = {e.id: e.key_text() for e in enemies}
    for j, there in shooters.items():
        h = board.hex_at(j)
        terrain = board.terrain_at(h)
        if not terrain.enterable_by_vehicle or h in blocked:
            continue
        ghost: UnitState | None = None  # the vehicle as it would stand there
        for enemy in there:
            if _out_of_arc(enemy, h):
                continue
            # what the shot depends on that changes from hex to hex: the same key, the same odds
            key = (
                enemy.id,
                enemy.hex.distance(h),
                *_aspects(direction_to(h, enemy.hex), unit),
                terrain.tem,
                int(hindrance[enemy.id][j]),
                board.level_at(h),  # Case B from higher (C7.22)
            )
            if enemy.acquisition is None and key in memo:
                threat = memo[key]
            else:
                if ghost is None:
                    ghost = copy.copy(unit)  # the vehicle as it would stand there
                    ghost.hex = h
                if enemy.acquisition is None:  # the same shot in any map of this game
                    full = (*shared, texts[enemy.id], *key[1:])
                    threat = memo[key] = _memo_shot(state, full, enemy, ghost)
                else:
                    threat = memo[key] = best_shot(state, enemy, ghost)
            if threat is not None:
                out.setdefault(j, []).append(threat)
    return {j: _combine(threats) for j, threats in out.items()}


def _aspects(toward: float, target: UnitState) -> tuple:
    """What a shot's odds take from the target's aspect, ``toward`` being the direction from
    it to the firer: its hull's and its turret's ASL aspect and which side of its 90-degree
    line the firer is (RD-8); computed once for both."""
    hull = _offset(toward, target.facing)
    turret = _offset(toward, target.turret) if target.type.turret else hull
    return (asl_aspect(hull), asl_aspect(turret), (hull > 90.0) - (hull < 90.0))


def _offset(toward: float, facing: int) -> float:
    """:func:`facing_offset` from a direction already computed (the same rounding)."""
    t = abs(toward - facing_angle(facing)) % 360.0
    return round(min(t, 360.0 - t), 9)


def best_shot(state: GameState, firer: UnitState, target: UnitState) -> Threat | None:
    """``firer``'s deadliest shot at ``target`` (its best ammunition, the dice before the To
    Hit DR weighed in, RD-16), or None if the rules refuse every one (range, Case D NA...).
    Its Bore Sighted Location is not applied: it is the other side's secret (C6.42)."""
    best: Threat | None = None
    bases: dict[int | None, Attack] = {}  # the geometry once per RD-8 die; each ammunition on it
    for ammo in ammo_choices(state, firer):
        parts = []
        for w, _, fired, die in leaf_choices(state, firer, target, ammo):
            if die not in bases:
                try:
                    bases[die] = build_attack(
                        state, firer, target, fired, False, die, known_bore_sight=False
                    )
                except RuleError:
                    break
            base = bases[die]
            o = cached_odds(base if base.ammo == fired else with_ammo(base, fired))
            if o is None:
                break
            parts.append(Branch(w, "", "RD-16", o))  # only the figures are kept
        else:
            o = parts[0].odds if len(parts) == 1 else blend(parts)
            t = Threat(
                firer.id,
                ammo,
                o.p["burn"] + o.p["eliminated"] + o.p["abandoned"],
                o.p["immobilized"],
            )
            if best is None or t.p_kill > best.p_kill:
                best = t
    return best


def attack_map(
    state: GameState,
    unit_id: str,
    known: set[str] | None,
    blocked: set[Hex],
    within: set[int] | None = None,
) -> dict[int, tuple[tuple[str, float], ...]]:
    """The threat map turned round (RD-18): board index -> (target id, P(removed from play))
    of each enemy in ``known`` (None: every enemy) that ``unit_id`` could shoot from there,
    stopped and turned to face it (its turret, or its hull if it has none), with its best
    ammunition and the same exact odds; over the hexes it could enter (not one of
    ``blocked``), and only those ``within`` if given (as :func:`threat_map`). Infantry is
    left out (AT fire has no effect on it, 002)."""
    unit = state.unit(unit_id)
    board = state.board
    if not unit.type.has_at_weapon:
        return {}
    targets = [
        e
        for e in state.units.values()
        if (known is None or e.id in known)
        and e.active
        and e.side != unit.side
        and e.type.category != "infantry"
    ]
    out: dict[int, list[tuple[str, float]]] = {}
    memo: dict[tuple, float | None] = {}
    stopped = copy.copy(unit)  # the firer as the map places it: stopped, no Acquisition (C6.5)
    stopped.acquisition = None
    stopped.moving = stopped.motion = False
    shared = ("attack", odds_key(stopped, "firer"), state.phase)
    wanted = None if within is None else sorted(within)
    for target in targets:
        text = (target.key_text(), board.terrain_at(target.hex).tem)
        i = board.index(target.hex)
        row, hindrance = state.viewshed(i)
        for j in _seen(row, wanted):
            h = board.hex_at(j)
            if j == i or h in blocked or not board.terrain_at(h).enterable_by_vehicle:
                continue
            key = (
                target.id,
                target.hex.distance(h),
                *_aspects(direction_to(target.hex, h), target),
                int(hindrance[j]),
                board.level_at(h),
            )
            if key not in memo:
                full = (*shared, text, *key[1:])
                shot = state.shots.get(full, False)
                if shot is False:
                    ghost = copy.copy(stopped)  # the firer there, facing the target
                    ghost.hex = h
                    face = _nearest_direction(direction_to(h, target.hex))
                    ghost.turret = face
                    if not unit.type.turret:
                        ghost.facing = face
                    shot = _memo_shot(state, full, ghost, target)
                memo[key] = shot.p_kill if shot is not None else None
            p = memo[key]
            if p:
                out.setdefault(j, []).append((target.id, p))
    return {j: tuple(shots) for j, shots in out.items()}


def _nearest_direction(angle: float) -> int:
    """The direction (0-5) whose facing angle is nearest ``angle``."""
    return min(range(6), key=lambda d: _offset(angle, d))


def threat_ahead(
    state: GameState,
    unit_id: str,
    known: set[str] | None,
    within: list[int],
    reach: dict[str, list[int]],
) -> dict[int, dict[int, HexThreat]]:
    """The threat a vehicle would meet in each hex ``within`` after the enemy's next move
    (RD-18 looking one Movement Phase ahead): board index -> facing -> the figure if each
    enemy in ``known`` that could fire (as :func:`threat_map`) first drove to the hex of its
    ``reach`` (board indexes: where it could stand after its move, :func:`next_reach`) with
    LOS to it (RD-9) whence its best shot is deadliest, stopped and turned to face it, and
    fired once; the vehicle facing each of the six ways, its turret with its hull. A flank or
    rear shot meets thinner armor (RD-8): what a defender standing still, its front to the
    enemies where they are now, does not see coming."""
    import numpy as np

    unit = state.unit(unit_id)
    board = state.board
    enemies = _shooters(state, unit, known)
    spots = {
        e.id: np.asarray(sorted(reach.get(e.id, [board.index(e.hex)])), dtype=np.int64)
        for e in enemies
    }
    ghosts = []
    for f in range(6):
        g = copy.copy(unit)
        g.facing = f
        g.turret = f
        g.moving = g.motion = False
        ghosts.append(g)
    firers = {}
    for e in enemies:
        stopped = copy.copy(e)
        stopped.acquisition = None
        stopped.moving = stopped.motion = False
        firers[e.id] = stopped
    memo: dict[tuple, Threat | None] = {}
    out: dict[int, dict[int, HexThreat]] = {}
    for j in within:
        h = board.hex_at(j)
        row, hindrance = state.viewshed(j)
        tem = board.terrain_at(h).tem
        level = board.level_at(h)
        best: list[dict[str, Threat]] = [{} for _ in range(6)]
        for e in enemies:
            xs = spots[e.id]
            seen = xs[row[xs].astype(bool)] if len(xs) else xs
            for i in seen.tolist():
                if i == j:
                    continue
                x = board.hex_at(i)
                if not e.type.is_vehicle and _out_of_arc(e, h):  # a Gun stays (HX-2)
                    continue
                toward = direction_to(h, x)
                d = x.distance(h)
                face = _nearest_direction(direction_to(x, h))
                for f in range(6):
                    key = (
                        e.id,
                        d,
                        *_aspects(toward, ghosts[f]),
                        tem,
                        int(hindrance[i]),
                        level,
                        board.level_at(x),
                    )
                    if key not in memo:
                        firer = copy.copy(firers[e.id])
                        firer.hex = x
                        if e.type.is_vehicle:
                            firer.turret = face
                            if not e.type.turret:
                                firer.facing = face
                        target = copy.copy(ghosts[f])
                        target.hex = h
                        memo[key] = best_shot(state, firer, target)
                    t = memo[key]
                    if t is not None:
                        was = best[f].get(e.id)
                        if was is None or t.p_kill > was.p_kill:
                            best[f][e.id] = t
        out[j] = {f: _combine(list(best[f].values())) for f in range(6)}
    return out
