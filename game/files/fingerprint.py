"""The rules' fingerprint: what the rules make of a fixed corpus of play, as one digest per
shipped scenario and one for the rules library, recorded with the rules version it was made
under (``tests/data/rules_fingerprint.json``, ``tools/data/record_rules_fingerprint.py``). A change
that alters play changes a digest; the test that compares them fails unless RULES_VERSION was
raised (CONTRIBUTING.md "Add or change a rule").

What is digested is play, not wording: each position's legal actions, the action taken, each
event's kind, rules, dice and data (and what each side may read of it, RD-11), the state hash
after it; and the dice-free outcomes of a seeded sample of attacks (To Hit Number and DRM, Final
TK# of each hit location, the chart's elimination number) with their exact odds."""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import replace
from typing import Any

from game.engine import Game
from game.engine.catalogue import unit_types
from game.engine.events import Event
from game.engine.randomplay import pick
from game.rules.attack import Attack, Plan, plan
from game.rules.drm import RuleError
from game.rules.odds import odds
from game.rules.tables import tables
from game.rules.to_hit import Situation

from .scenario import load_scenario
from .shipped import shipped_scenarios

SEEDS = 2
"""Random legal games a scenario and To Kill system."""
MAX_ACTIONS = 300
"""Actions a game at most (the long scenarios' games are cut there)."""
ATTACKS = 3000
"""Attacks in the rules library's sample."""


def fingerprint(names: list[str] | None = None) -> dict[str, str]:
    """Digest name -> SHA-256 (16 hex digits): one a shipped scenario (those in ``names``, or
    every one), then "library"."""
    out = {}
    for path in shipped_scenarios():
        if names is None or path.stem in names:
            out[path.stem] = _play_digest(load_scenario(path).setup)
    if names is None or "library" in names:
        out["library"] = _library_digest()
    return out


def _play_digest(setup: Any) -> str:
    """Seeded random legal games of ``setup`` under both To Kill systems (HX-1)."""
    h = hashlib.sha256()
    for to_kill in ("asl", "chart"):
        for seed in range(SEEDS):
            game = Game(replace(setup, to_kill=to_kill), seed)
            rng = random.Random(seed)
            for _ in range(MAX_ACTIONS):
                if game.over:
                    break
                acts = game.legal_actions()
                action = pick(acts, rng)
                events = game.apply(action)
                _feed(h, [a.to_json() for a in acts], action.to_json())
                _feed(h, [_event(e) for e in events], game.state_hash())
    return h.hexdigest()[:16]


def _event(e: Event | None) -> Any:
    """An event as play knows it: not its words, its facts (and what each side may read)."""
    if e is None:
        return None
    return [e.kind, e.rules, e.dice, e.data, [[side, _event(s)] for side, s in e.secret]]


def _library_digest() -> str:
    """The dice-free outcome and the exact odds of a seeded sample of attacks."""
    rng = random.Random(39)
    guns = sorted({t.gun for t in unit_types().values() if t.gun})
    weapons = [None, *sorted(tables().sw)]
    h = hashlib.sha256()
    for _ in range(ATTACKS):
        a = _attack(rng, guns, weapons)
        try:
            p = plan(a)
            o = odds(a)
        except RuleError as refused:
            _feed(h, "refused", refused.rule)
            continue
        _feed(h, _plan_facts(p), {k: round(v, 12) for k, v in sorted(o.p.items())})
    return h.hexdigest()[:16]


def _attack(rng: random.Random, guns: list[str], weapons: list[str | None]) -> Attack:
    def one(*xs: Any) -> Any:
        return rng.choice(xs)

    weapon = rng.choice(weapons)
    situation = Situation(
        moving=one(False, True),
        motion=one(False, True),
        was_motion=one(False, True),
        non_stopped=one(False, True),
        dff_mp=one(None, 0.5, 1.0, 3.0, 5.0),
        dff_exempt=one(False, True),
        concealed=one(False, True),
        acquired=one(0, 1, 2),
        bore_sighted=one(False, True),
        size=one(-1, 0, 1, 2),
        tem=one(0, 1, 2),
        hindrance=one(0, 1, 2),
        firer_non_stopped=one(False, True),
        infantry_target=one(False, True),
    )
    return Attack(
        rules=one("asl", "chart"),
        firer="sw" if weapon else one("gun", "afv"),
        gun=None if weapon else rng.choice(guns),
        weapon=weapon,
        nationality=one("german", "russian"),
        ammo=None if weapon else one("AP", "APCR", "APDS", "HE", "HEAT"),
        range=one(0, 1, 2, 4, 7, 12, 18, 25),
        aspect=one("front", "side", "rear"),
        turret_aspect=one(None, "front", "side", "rear"),
        target=one("afv", "vehicle", "gun", "infantry"),
        af_hull=one(0, 1, 2, 4, 6, 8, 11),
        af_turret=one(0, 2, 4, 8, 11),
        worst_af=one(1, 2, 4),
        open_topped=one(False, True),
        ce=one(False, True),
        immobilized=one(False, True),
        red_cs=one(False, True),
        atfp=one(None, "A", "C", "E"),
        armor=one(None, "B", "D", "F"),
        rof=one(0, 1, 2),
        phase_allows_rof=one(False, True),
        advancing_fire=one(False, True),
        elevation_advantage=one(False, True),
        situation=situation,
    )


def _plan_facts(p: Plan) -> Any:
    tk = [
        [str(k), t.table, t.basic, [[m.case, m.value, m.rule] for m in t.modifications], t.final]
        for k, t in sorted(p.tk.items(), key=lambda kv: str(kv[0]))
    ]
    drms = [[d.case, d.value, d.rule] for d in p.drms]
    no_effect = p.no_effect[0] if p.no_effect else None
    return [
        p.to_hit_number,
        p.to_hit_rule,
        drms,
        p.dc_position,
        tk,
        p.elimination_number,
        no_effect,
    ]


def _feed(h: Any, *parts: Any) -> None:
    h.update(json.dumps(parts, sort_keys=True, default=str).encode())
