"""Level 3's playout value fitted to the games' results (issue 41, docs/ai.md "The playout's
value fitted to the games' results"): does the hand-weighted sum of ``Valuation.terms``
(``[value]``) predict who wins, and would other weights predict it better?

``collect`` plays seeded games of level 3 against level 2 as ``match.py`` plays them (game k of
seed S: seed S+k, level 3 on each side in turn, k even the scenario's first side) and, at the
start of each Movement Phase of each side, reads that side's terms from its own table, as the
search would (``Valuation(player, table)``, RD-11: never what it may not see):

- ``step``: the terms of the position at the start of that side's next Movement Phase (or the
  game's end) against a Valuation set up at this phase's start, the exit progress less the
  start's (what ``Valuation.__call__`` counts): a player turn and the enemy's answer, the span
  of a playout;
- ``state``: the position's terms against the game's start: the steps' kills, enemy exits,
  losses and objective progress summed to here, and the risk and exit progress where the
  side stands now. The search compares plans by the value at their playouts' ends from one
  start, so a difference of ``state`` values is a difference of ``step`` values: the weights
  that make ``state`` predict the result are the ones its comparisons need;

and the game's result for that side (1 won, 0 not). One JSON line a Movement Phase.

``fit`` reads such files and fits, per scenario and pooled, a logistic regression of the
result on the terms (an intercept for each scenario's side; Newton's method, numpy), and
compares it out of sample (fit on some files, tested on others) with the hand weights (the
same intercepts and one slope on the hand-weighted value): weights, standard errors,
log-loss, accuracy, and the correlations of the values with the result.

    python3 tools/ai/value_fit.py collect tutorial-duel --games 40 --seed 1000 --out FILE
    python3 tools/ai/value_fit.py fit --train A.jsonl B.jsonl --test C.jsonl D.jsonl
    python3 tools/ai/value_fit.py trace TRACE.jsonl --weights goal=0.5,risk=2

``trace`` reweighs level 3's searches as ``search_trace.py --jsonl`` kept them.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import numpy as np

from game.ai.opponent import ComputerPlayer
from game.ai.selfplay import make_player
from game.ai.valuation import Valuation
from game.ai.valuation.playout import TERMS, WIN, weigh, weights
from game.engine import Game
from game.engine.table import Snapshot
from game.files.scenario import load_scenario
from game.files.shipped import find_scenario

ADDITIVE = ("kills", "enemy_exits", "losses", "goal")
"""The terms counted from a Valuation's start (what happened since); the others are read where
the side stands (its vehicles' risk, its exit progress)."""


def collect_game(scenario: str, setup: Any, seed: int, levels: dict[str, int]) -> list[dict]:
    """One game as ``match.play`` plays it; a row for each Movement Phase of each side."""
    game = Game(setup, seed)
    seats = Snapshot(game)
    players = {s: make_player(s, levels[s], seed=seed * 7 + i) for i, s in enumerate(setup.sides)}
    # the judges read the objectives only: their own players, so play is not touched
    judges = {s: ComputerPlayer(s, 3, seed=0) for s in setup.sides}
    open_: dict[str, tuple[Valuation, dict]] = {}  # each side's last phase: its Valuation, row
    done: dict[str, dict[str, float]] = {s: dict.fromkeys(ADDITIVE, 0.0) for s in setup.sides}
    rows: list[dict] = []
    seen: set[tuple[int, str]] = set()

    def close(side: str) -> None:
        value, row = open_.pop(side)
        terms = value.terms(seats.table(side))
        terms["exits"] -= value.base
        row["step"] = terms
        for k in ADDITIVE:
            done[side][k] += terms[k]

    n = 0
    while not game.over and n < 20_000:
        key = (game.turn, game.phasing)
        if game.phase == "movement" and key not in seen:
            seen.add(key)
            side = game.phasing
            if side in open_:
                close(side)
            table = seats.table(side)
            value = Valuation(judges[side], table)
            now = value.terms(table)
            state = {k: done[side][k] if k in ADDITIVE else now[k] for k in TERMS}
            row = {
                "scenario": scenario,
                "seed": seed,
                "side": side,
                "level": levels[side],
                "turn": game.turn,
                "state": state,
            }
            rows.append(row)
            open_[side] = (value, row)
        side = game.to_act
        table = seats.table(side)
        game.apply(table.engine_action(players[side].choose(table).action))
        n += 1
    for side in list(open_):
        close(side)
    for row in rows:
        row["won"] = int(game.winner == row["side"])
    return rows


def collect(args: argparse.Namespace) -> int:
    setup = load_scenario(find_scenario(args.scenario)).setup
    sides = list(setup.sides)
    with open(args.out, "w") as out:
        for k in range(args.games):
            three = sides[k % 2]
            levels = {s: 3 if s == three else 2 for s in sides}
            for row in collect_game(args.scenario, setup, args.seed + k, levels):
                out.write(json.dumps(row) + "\n")
            out.flush()
            print(f"\r{args.scenario} {k + 1}/{args.games}", end="", file=sys.stderr)
    print(file=sys.stderr)
    return 0


def logistic(
    x: np.ndarray, y: np.ndarray, ridge: float | np.ndarray = 1e-4
) -> tuple[np.ndarray, np.ndarray]:
    """The weights of a logistic regression of ``y`` (0/1) on the columns of ``x`` (Newton's
    method; ``ridge``, an L2 penalty, one for all columns or one a column: a small one keeps a
    column that separates the results finite) and their standard errors (the inverse
    Hessian's diagonal)."""
    w = np.zeros(x.shape[1])
    pen = np.diag(np.broadcast_to(np.asarray(ridge, float), (x.shape[1],)))
    h = np.eye(x.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        g = x.T @ (y - p) - pen @ w
        h = (x * (p * (1 - p))[:, None]).T @ x + pen
        step = np.linalg.solve(h, g)
        w += step
        if np.max(np.abs(step)) < 1e-10:
            break
    return w, np.sqrt(np.diag(np.linalg.inv(h)))


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


SHRINK = 1.0
"""The ``shrunk`` fit's penalty on each term's weight apart from the hand weights' direction (per
win squared): with a few hundred rows a term seldom met (a vehicle's risk at a Movement
Phase's start) gets a weight of noise alone."""

SCALE = 100.0
"""The terms' unit in the fit (a win's share: a fitted weight is per win)."""


def design(
    rows: list[dict], groups: list[str], what: str, by: dict[str, float] | None
) -> np.ndarray:
    """The columns: an intercept for each group (scenario and side), then each term (``by``
    None) or the value weighed by ``by``, in wins."""
    out = []
    for r in rows:
        g = [1.0 if f"{r['scenario']}/{r['side']}" == name else 0.0 for name in groups]
        t = r[what]
        terms = [t[k] / SCALE for k in TERMS] if by is None else [weigh(t, by) / SCALE]
        out.append(g + terms)
    return np.array(out)


def compare(
    train: list[dict],
    test: list[dict],
    what: str,
    label: str,
    given: dict[str, float] | None = None,
) -> dict[str, Any]:
    """The fitted weights against the hand ones on ``what`` (``state`` or ``step``)."""
    groups = sorted({f"{r['scenario']}/{r['side']}" for r in train + test})
    ytr = np.array([r["won"] for r in train], float)
    yte = np.array([r["won"] for r in test], float)
    hand = weights()
    out: dict[str, Any] = {"rows": [len(train), len(test)]}
    models: list[tuple[str, Any]] = [("base", "none"), ("hand", hand), ("fit", None)]
    if given is not None:  # weights chosen beforehand, one slope fitted as the hand ones'
        models.append(("given", given))
    for name, by in models:
        if by == "none":  # the intercepts alone: each side's share of wins
            xtr = design(train, groups, what, hand)[:, : len(groups)]
            xte = design(test, groups, what, hand)[:, : len(groups)]
        else:
            xtr = design(train, groups, what, by)
            xte = design(test, groups, what, by)
        w, se = logistic(xtr, ytr)
        p = 1.0 / (1.0 + np.exp(-(xte @ w)))
        out[name] = {
            "log_loss": round(log_loss(p, yte), 4),
            "accuracy": round(float(np.mean((p > 0.5) == (yte > 0.5))), 3),
            "weights": [round(float(v), 3) for v in w[len(groups) :]],
            "se": [round(float(v), 3) for v in se[len(groups) :]],
        }
    # shrunk: the hand value's slope and each term's own weight apart from it, penalized
    xtr = np.hstack(
        [design(train, groups, what, hand), design(train, groups, what, None)[:, len(groups) :]]
    )
    xte = np.hstack(
        [design(test, groups, what, hand), design(test, groups, what, None)[:, len(groups) :]]
    )
    ridge = np.array([1e-4] * (len(groups) + 1) + [SHRINK] * len(TERMS))
    w, se = logistic(xtr, ytr, ridge)
    p = 1.0 / (1.0 + np.exp(-(xte @ w)))
    slope_h = float(w[len(groups)])
    own = [slope_h * hand[k] + float(d) for k, d in zip(TERMS, w[len(groups) + 1 :], strict=True)]
    out["shrunk"] = {
        "log_loss": round(log_loss(p, yte), 4),
        "accuracy": round(float(np.mean((p > 0.5) == (yte > 0.5))), 3),
        "weights": [round(v, 3) for v in own],
    }
    fit, slope = out["fit"]["weights"], out["hand"]["weights"][0]
    if slope > 0:  # the fitted weights in the hand value's unit: a win stays [playout] win
        out["scaled"] = {k: round(v / slope, 3) for k, v in zip(TERMS, fit, strict=True)}
    fitted = dict(zip(TERMS, fit, strict=True))
    shrunk = dict(zip(TERMS, out["shrunk"]["weights"], strict=True))
    for name, by in (("hand", hand), ("fit", fitted), ("shrunk", shrunk)):
        v = np.array([weigh(r[what], by) for r in test])
        out[name]["corr"] = round(float(np.corrcoef(v, yte)[0, 1]), 3) if v.std() > 0 else 0.0
    return {label: out}


def read(paths: list[str]) -> list[dict]:
    """The rows of ``collect``'s files, each side's last of its game marked ``last``: its step
    ends the game, which a playout counts as a win or a loss (``Valuation.__call__``), not by
    its terms, so the steps' fit leaves it out (a kill that ends the duel would tell the
    result by itself)."""
    rows = []
    for path in paths:
        with open(path) as f:
            rows += [json.loads(line) for line in f if line.strip()]
    last = {(r["scenario"], r["seed"], r["side"]): i for i, r in enumerate(rows)}
    for i in last.values():
        rows[i]["last"] = True
    return rows


def fit(args: argparse.Namespace) -> int:
    train, test = read(args.train), read(args.test)
    scenarios = sorted({r["scenario"] for r in train})
    print(f"terms: {', '.join(TERMS)} (per win); hand weights {weights()}")
    for what in ("state", "step"):
        parts = [(s, [r for r in train if r["scenario"] == s]) for s in scenarios]
        for name, rows in [*parts, ("pooled", train)]:
            held = test if name == "pooled" else [r for r in test if r["scenario"] == name]
            if what == "step":
                rows, held = (
                    [r for r in rows if not r.get("last")],
                    [r for r in held if not r.get("last")],
                )
            if not rows or not held:
                continue
            found = compare(rows, held, what, f"{what} {name}", parse_weights(args.weights))
            print(json.dumps(found))
    return 0


def playout_value(end: dict | int, by: dict[str, float]) -> float:
    """A traced playout's value (``search_trace.py --jsonl``) by the weights ``by``: a game's
    end is twice a win whatever the weights (``Valuation.__call__``)."""
    if isinstance(end, int):
        return 2 * WIN * end
    return weigh(end, by)


def trace(args: argparse.Namespace) -> int:
    """Level 3's searches traced (``search_trace.py --jsonl``) weighed by the hand weights and
    by ``--weights``: the correlation of level 2's plan's mean playout value with the game's
    result, and how many searches' best plan by the mean would change."""
    by = parse_weights(args.weights) or weights()
    games = read_games(args.files)
    for side in sorted({g["side"] for g in games}):
        xs: dict[str, list[float]] = {"hand": [], "fit": []}
        ys, changed, searches = [], 0, 0
        mine = [g for g in games if g["side"] == side]
        for g in mine:
            for s in g["searches"]:
                best = {}
                for name, w in (("hand", weights()), ("fit", by)):
                    means = {
                        p: float(np.mean([playout_value(e, w) for e in ends]))
                        for p, ends in s["terms"].items()
                        if ends
                    }
                    xs[name].append(means["steady"])
                    best[name] = max(means, key=lambda p: means[p])
                ys.append(float(g["winner"] == side))
                searches += 1
                changed += best["hand"] != best["fit"]
        y = np.array(ys)
        corr = {
            k: round(float(np.corrcoef(np.array(v), y)[0, 1]), 3) if np.std(v) > 0 else 0.0
            for k, v in xs.items()
        }
        print(
            f"{side}: {len(mine)} games, {searches} searches; corr(level 2's plan's mean "
            f"value, won) hand {corr['hand']:+.3f}, fitted {corr['fit']:+.3f}; the best plan by "
            f"the mean changes in {changed}"
        )
    return 0


def parse_weights(text: str | None) -> dict[str, float] | None:
    """``kills=2,goal=0.5``: those terms' weights, the others ``[value]``'s."""
    if not text:
        return None
    by = dict(weights())
    for item in text.split(","):
        k, v = item.split("=")
        if k not in by:
            raise SystemExit(f"--weights: {k!r} is not a term ({', '.join(TERMS)})")
        by[k] = float(v)
    return by


def read_games(paths: list[str]) -> list[dict]:
    out = []
    for path in paths:
        with open(path) as f:
            out += [json.loads(line) for line in f if line.strip()]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="play games and write each Movement Phase's terms")
    c.add_argument("scenario")
    c.add_argument("--games", type=int, default=20)
    c.add_argument("--seed", type=int, default=1000)
    c.add_argument("--out", required=True)
    f = sub.add_parser("fit", help="fit the weights and compare them out of sample")
    f.add_argument("--train", nargs="+", required=True)
    f.add_argument("--test", nargs="+", required=True)
    f.add_argument("--weights", help="also weights chosen beforehand, e.g. kills=2,goal=0.5")
    t = sub.add_parser("trace", help="search_trace.py's playouts weighed anew")
    t.add_argument("files", nargs="+")
    t.add_argument("--weights", required=True, help="e.g. kills=2.5,goal=0.3 (others: [value])")
    args = ap.parse_args(argv)
    return {"collect": collect, "fit": fit, "trace": trace}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
