"""What the threat map keeps (issue 44, item 7): 20 minutes of random input on the screen
grew the window by 344 MB; the largest share was the odds kept for every attack the threat
and fire maps asked of (65,536 of them, 1.6-2.5 KiB each). Fewer are kept now, and what they hold
is measured."""

from __future__ import annotations

import dataclasses
import gc
import tracemalloc

from game.engine import Game
from game.engine.play.shot import build_attack
from game.engine.play.threat import ODDS_KEPT, cached_odds
from game.files.scenario import load_scenario
from game.files.shipped import scenarios_dir
from game.rules.attack import _plan
from game.rules.odds import Odds

BUDGET = 48 * 2**20
"""The most the kept odds may hold (65,536 held 100-160 MiB)."""


def _attack():
    """A real shot of the tutorial: the first side's AFV at the other side's."""
    sc = load_scenario(scenarios_dir() / "tutorial-duel.toml")
    state = Game(sc.setup, 1).state
    units = list(state.units.values())
    firer = next(u for u in units if u.type.has_at_weapon)
    target = next(u for u in units if u.side != firer.side and u.type.armored)
    return build_attack(state, firer, target, None, False, 1, known_bore_sight=False)


def test_the_odds_kept_stay_within_their_number_and_memory():
    """Attacks asked of one after another (each range and hindrance a new one, as the maps of
    every unit and hex shown ask): the kept stay within ODDS_KEPT, and ODDS_KEPT real odds
    hold less than 48 MiB."""
    base = _attack()
    cached_odds.cache_clear()
    gc.collect()
    tracemalloc.start()
    try:
        real = 0
        for r in range(1, 16):
            for h in range(12):
                a = dataclasses.replace(
                    base, range=r, situation=dataclasses.replace(base.situation, hindrance=h)
                )
                real += isinstance(cached_odds(a), Odds)
        _plan.cache_clear()  # (its own, 8,192 at most): the odds kept hold their attacks alone
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
        cached_odds.cache_clear()
        gc.collect()
        each = (held - tracemalloc.get_traced_memory()[0]) / (15 * 12)
    finally:
        tracemalloc.stop()
    assert real > 100  # most are real shots, not refusals
    kept = cached_odds.cache_info().maxsize or 0
    assert kept <= ODDS_KEPT and each * kept <= BUDGET, f"{each:.0f} B each, {kept} kept"
    for r in range(1, ODDS_KEPT + 2000):  # more than are kept (refused beyond the gun's range)
        cached_odds(dataclasses.replace(base, range=r, situation=base.situation))
    assert cached_odds.cache_info().currsize <= ODDS_KEPT
    cached_odds.cache_clear()
