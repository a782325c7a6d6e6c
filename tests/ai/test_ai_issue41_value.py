"""Level 3's playout value as its terms apart (issue 41, fourteenth session; docs/ai.md "The
playout's value fitted to the games' results"): ``Valuation.terms`` (the enemy knocked out,
its exits, this side's losses, its objective progress, its vehicles' risk, its exit victories'
progress, each a share of a win, RD-13), weighed by ``[value]``, is the value; with the
weights 1.0 it is the hand-weighted value main played by; and tools/ai/value_fit.py's
logistic fit recovers known weights."""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import game.ai.valuation.playout as playout
from game.ai.selfplay import make_player
from game.ai.tuning import tuning
from game.ai.valuation import Valuation
from game.ai.valuation.playout import TERMS, weigh, weights
from game.engine import Game
from game.engine.table import Snapshot, Table
from game.files.scenario import load_scenario
from game.files.shipped import find_scenario

TOOL = Path(__file__).resolve().parents[2] / "tools" / "ai" / "value_fit.py"

MAIN = [
    (1, "german", 105.555555556, 0.0),
    (1, "russian", 0.0, 0.0),
    (2, "german", 164.196296296, 58.640740741),
    (2, "russian", 0.9, 0.9),
    (3, "german", 214.100397805, 108.54484225),
    (3, "russian", 72.266666667, 72.266666667),
    (4, "german", -65.366666667, -170.922222222),
    (4, "russian", 72.266666667, 72.266666667),
]
"""The Orel road (road-ambush), seed 9, level 2 on each side: at the start of each side's
Movement Phase of turns 1-4, ``Valuation.value`` and the playout's value (``__call__``) against
the side's first Movement Phase, as main (8c8f52f) computed them before the terms: an exit
victory's progress, the objective, a vehicle's risk, a kill and a loss among them."""


def positions(read: Callable[[Valuation, Table], tuple], turns: int = 4) -> list[tuple]:
    """At each of the Orel road's positions of :data:`MAIN`: (turn, side) and what ``read``
    reads of the side's Valuation and its table then (a Table follows its game)."""
    setup = load_scenario(find_scenario("road-ambush")).setup
    game = Game(setup, 9)
    seats = Snapshot(game)
    players = {s: make_player(s, 2, seed=9 + i) for i, s in enumerate(setup.sides)}
    first: dict[str, Valuation] = {}
    out = []
    seen = set()
    while not game.over and game.turn <= turns:
        key = (game.turn, game.phasing)
        if game.phase == "movement" and key not in seen:
            seen.add(key)
            side = game.phasing
            table = seats.table(side)
            value = first.setdefault(side, Valuation(players[side], table))
            out.append((game.turn, side, *read(value, table)))
        side = game.to_act
        table = seats.table(side)
        game.apply(table.engine_action(players[side].choose(table).action))
    return out


@pytest.fixture(scope="module")
def orel():
    """Each position's figures as the game goes (a Table is read while it is current)."""
    return positions(lambda v, t: (v.value(t), v(t), v.terms(t)))


def test_with_every_weight_1_the_value_is_mains(orel):
    assert weights() == dict.fromkeys(TERMS, 1.0)
    got = [(t, s, round(v, 9), round(c, 9)) for t, s, v, c, _ in orel]
    assert got == MAIN
    # every term but the enemy's exits is met in these positions
    met = {k for *_, terms in orel for k in TERMS if terms[k] != 0.0}
    assert met == set(TERMS) - {"enemy_exits"}


def test_the_terms_weighed_by_value_sum_to_the_value(orel, monkeypatch):
    by = {"kills": 0.5, "enemy_exits": 2.0, "losses": 1.5, "goal": 0.25, "risk": 3.0, "exits": 0.8}
    table = dataclasses.replace(tuning(), value=dataclasses.replace(tuning().value, **by))
    monkeypatch.setattr(playout, "tuning", lambda: table)
    assert weights() == by
    rows = positions(lambda v, t: (v.value(t), v(t), v.terms(t), v.base))
    for _, _, value, played, terms, base in rows:
        assert value == pytest.approx(sum(by[k] * terms[k] for k in TERMS))
        # the playout's value counts the exit progress from the search's start
        assert played == pytest.approx(weigh(terms, by) - by["exits"] * base)
    # they differ from the hand weights' figures: the weights are read
    hand = [w[2] for w in orel]
    assert sum(r[2] != pytest.approx(v) for r, v in zip(rows, hand, strict=True)) >= 4


def tool():
    spec = importlib.util.spec_from_file_location("value_fit", TOOL)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_fit_recovers_known_weights_on_synthetic_results():
    fit = tool()
    rng = np.random.default_rng(41)
    n = 20_000
    x = np.column_stack([np.ones(n), rng.normal(size=(n, 3))])
    true = np.array([-0.3, 1.5, -0.7, 0.0])
    y = (rng.random(n) < 1.0 / (1.0 + np.exp(-(x @ true)))).astype(float)
    w, se = fit.logistic(x, y)
    assert np.all(np.abs(w - true) < 4 * se), (w, se)
    assert np.all(se < 0.05)


def test_the_fit_reads_rows_and_the_hand_weights_slope(tmp_path):
    """On rows whose result follows the kills alone, the fitted weights put the kills first and
    predict better out of sample than the hand value, which the objective's noise blurs."""
    fit = tool()
    rng = np.random.default_rng(7)

    def rows(n):
        out = []
        for _ in range(n):
            state = dict.fromkeys(TERMS, 0.0)
            state["kills"] = float(rng.normal(0, 100))
            state["goal"] = float(rng.normal(0, 300))
            won = int(rng.random() < 1 / (1 + np.exp(-state["kills"] / 50)))
            side = "german" if rng.random() < 0.5 else "russian"
            out.append({"scenario": "s", "side": side, "state": state, "won": won})
        return out

    found = fit.compare(rows(3000), rows(3000), "state", "x")["x"]
    kills, goal = found["fit"]["weights"][0], found["fit"]["weights"][3]
    assert kills == pytest.approx(2.0, abs=0.3) and abs(goal) < 0.2
    assert found["fit"]["log_loss"] < found["hand"]["log_loss"] < found["base"]["log_loss"] + 0.01
