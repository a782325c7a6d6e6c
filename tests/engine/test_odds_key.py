"""The threat and attack maps keep each shot's odds by a key built from the unit's fields that
say a shot reads them (``odds_key``, RD-18): every field a kept shot reads of its firer or its
target is in the key (or is where the unit stands and faces, which the maps key themselves)."""

from __future__ import annotations

import copy
import random
from dataclasses import fields, replace

from game.engine.game import Game
from game.engine.play.threat import best_shot
from game.engine.randomplay import policy
from game.engine.unitstate import ROLES, UnitState, odds_key
from game.files.bench import LARGE
from game.files.scenario import load_scenario

FIELDS = {f.name for f in fields(UnitState)}
WHERE = {"hex", "facing", "turret"}
"""Where a unit stands and faces: the maps key a shot by range, aspect, TEM, hindrance, level."""


class _Reads(UnitState):
    """A unit that writes down the name of every field read of it."""

    def __getattribute__(self, name: str):
        if name in FIELDS:
            object.__getattribute__(self, "__dict__").setdefault("_reads", set()).add(name)
        return object.__getattribute__(self, name)


def _watched(unit: UnitState) -> _Reads:
    out = object.__new__(_Reads)
    out.__dict__.update(unit.__dict__)
    return out


def _states(n_games: int = 2):
    """States along random legal games on the four-board scenario (units moved, in Motion,
    concealed, CE, immobilized, out of special ammunition, ...)."""
    setup = replace(load_scenario(LARGE).setup, turns=8, victory=())
    for seed in range(n_games):
        game = Game(setup, seed)
        rng = random.Random(seed)
        for step in range(600):
            if game.over:
                break
            game.apply(policy(game, rng))
            if step % 40 == 39:
                yield game.state


def test_rd18_a_kept_shot_reads_no_field_of_its_firer_or_target_outside_their_odds_keys():
    read: dict[str, set[str]] = {role: set() for role in ROLES}
    shots = 0
    for state in _states():
        units = [u for u in state.units.values() if u.active]
        for firer in units:
            if not firer.type.has_at_weapon or firer.acquisition is not None:
                continue  # a firer with an Acquisition is never kept (C6.5: its target alone)
            for target in units:
                if target.side == firer.side or target.type.category == "infantry":
                    continue
                f, t = _watched(firer), _watched(target)
                best_shot(state, f, t)
                shots += 1
                read["firer"] |= f.__dict__.get("_reads", set())
                read["target"] |= t.__dict__.get("_reads", set())
    assert shots > 100
    named = {"firer": {"id"}, "target": set()}  # the kept Threat names its firer
    for role in ROLES:
        keyed = {f.name for f in fields(UnitState) if role in f.metadata.get("odds", ROLES)}
        assert read[role] - WHERE - named[role] <= keyed, (role, read[role] - WHERE - keyed)
        assert read[role] & keyed, role  # the shot does read the key's fields


def test_rd18_the_odds_key_tells_apart_what_a_shot_reads_and_nothing_else():
    state = next(_states(1))
    tank = next(u for u in state.units.values() if u.type.category == "afv")
    other = copy.copy(tank)
    other.mp_spent += 1  # a shot never reads how many MP it spent
    other.fired = not tank.fired
    assert odds_key(other, "target") == odds_key(tank, "target")
    assert odds_key(other, "firer") == odds_key(tank, "firer")
    other.ce = not tank.ce  # Case CE of its target (C7.344), not of its firer
    assert odds_key(other, "target") != odds_key(tank, "target")
    assert odds_key(other, "firer") == odds_key(tank, "firer")
    other.ammo_out = ("APCR",)  # what the firer may fire (RD-17)
    assert odds_key(other, "firer") != odds_key(tank, "firer")


def test_rd18_a_new_unit_field_enters_the_odds_key_unless_it_says_otherwise():
    unsaid = [f.name for f in fields(UnitState) if "odds" not in f.metadata]
    assert {"type", "motion", "moving"} <= set(unsaid)  # read of both firer and target
    for role in ROLES:
        state = next(_states(1))
        unit = next(iter(state.units.values()))
        assert len(odds_key(unit, role)) >= len(unsaid)
