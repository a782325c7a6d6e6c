"""``hexfire bench odds``: exact odds per second over a mixed set of attacks (the odds panel
shows the odds of every target under the mouse)."""

from __future__ import annotations

import itertools
import time

from .attack import Attack, _plan
from .dice import Dice
from .drm import RuleError
from .odds import odds
from .to_hit import Situation

GOAL_ATTACKS_PER_S = 20_000


def mixed_attacks() -> list[Attack]:
    """A fixed mix: guns and SW, both systems, all aspects, ranges, hit locations and DRM."""
    out = []
    guns = ["37L", "50L", "75", "75L", "76L", "88L", "57L", "28LL", "122L"]
    for i, (gun, rng, aspect, af) in enumerate(
        itertools.product(guns, [1, 4, 12, 24], ["front", "side", "rear"], [3, 8, 11, 14])
    ):
        sit = Situation(
            moving=i % 3 == 0, concealed=i % 5 == 0, tem=i % 3, hindrance=i % 2, size=i % 5 - 2
        )
        out.append(
            Attack(
                gun=gun,
                ammo=("AP", "APCR", "HE", "HEAT")[i % 4] if gun not in ("28LL",) else "AP",
                nationality="russian" if i % 2 else "german",
                range=rng,
                aspect=aspect,
                af_hull=af,
                af_turret=max(0, af - 3) if af != 14 else 11,
                immobilized=i % 7 == 0,
                red_cs=i % 4 == 0,
                rof=i % 3,
                situation=sit,
            )
        )
    for i, (w, rng) in enumerate(
        itertools.product(["PSK", "PIAT", "BAZ44", "PF", "ATR", "FT", "DC", "MOL"], [0, 1, 2])
    ):
        out.append(
            Attack(
                firer="sw", weapon=w, range=rng, af_hull=8, af_turret=6, worst_af=6, ce=i % 2 == 0
            )
        )
    for i, (atfp, armor, rng) in enumerate(itertools.product("ABCDEF", "ABCDEF", [2, 15, 25])):
        out.append(
            Attack(
                rules="chart",
                firer="afv",
                atfp=atfp,
                armor=armor,
                range=rng,
                immobilized=i % 5 == 0,
            )
        )
    valid = []
    for a in out:
        try:
            odds(a)
        except RuleError:
            continue
        valid.append(a)
    return valid


def bench_odds(repeat: int = 3) -> dict:
    """Time exact odds over the mix: cold (nothing cached: the rules looked up afresh for every
    attack) and warm (the dice-free plan of each attack cached, as the odds panel keeps it);
    and, for reference, the game's own procedure rolled 1,000 times per attack."""
    attacks = mixed_attacks()

    def run_cold() -> float:
        t0 = time.perf_counter()
        for a in attacks:
            _plan.cache_clear()
            odds(a)
        return time.perf_counter() - t0

    def run_warm() -> float:
        t0 = time.perf_counter()
        for a in attacks:
            odds(a)
        return time.perf_counter() - t0

    cold = min(run_cold() for _ in range(repeat))
    run_warm()
    warm = min(run_warm() for _ in range(repeat))
    from .attack import resolve

    sample = attacks[:: max(1, len(attacks) // 20)]
    dice = Dice(7)
    t0 = time.perf_counter()
    for a in sample:
        for _ in range(1000):
            resolve(a, dice)
    mc = (time.perf_counter() - t0) / len(sample)
    per_exact = cold / len(attacks)
    return {
        "attacks": len(attacks),
        "attacks_per_s": round(len(attacks) / cold),
        "attacks_per_s_warm": round(len(attacks) / warm),
        "monte_carlo_1000_rolls_ms": round(mc * 1000, 2),
        "speedup_vs_monte_carlo_1000": round(mc / per_exact, 1),
        "goals": {"attacks_per_s": f">= {GOAL_ATTACKS_PER_S}"},
    }
