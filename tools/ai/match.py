"""One level of the computer against another on a shipped scenario: each side's wins with
their 95% Wilson interval, and the first level's decision times (median, 95th percentile, the
longest whole player turn). Issue 41's measure of level 3 against level 2 (docs/ai.md
"Measured"); one process, so that it shares the machine's two cores with other runs. The
second level may be ``careful``: the careful sparring player, its plans in turn (game k: plan
k mod 4, as ``hexfire bench ai``), with the games each plan won.

    python3 tools/ai/match.py tutorial-duel --levels 3 2 --games 10 [--json]
    python3 tools/ai/match.py hedgerow-chart --levels 2 careful --side german --games 20

A probe, not the computer's play: ``--place UNIT=HEX`` (repeatable) sets that unit up in that
hex whichever level sets it up (the set-up draw, ``game.ai.candidates.setup.spot``, answered
so for it), to measure a set-up against another on the same seeds (issue 41 item 5,
docs/ai-experiments.md "The hedgerow's German set-up").

    python3 tools/ai/match.py hedgerow-chart --side german --games 20 \
        --place ger-pz4-1=C8 --place ger-stug-1=B3 --place ger-pak-1=B2
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import game.ai.candidates.setup as setup_candidates
from game.ai.selfplay import CAREFUL, make_player, wilson
from game.ai.sparring import PLANS as CAREFUL_PLANS
from game.engine import Game
from game.engine.table import Snapshot
from game.files.scenario import load_scenario
from game.files.shipped import find_scenario


def play(
    setup, seed: int, levels: dict[str, int | str], timed: str, old=None
) -> tuple[str | None, list, dict]:
    """One game; the winner, the decision times of side ``timed`` and its player turns'; the
    other side by ``old`` (another ComputerPlayer class, an older version's) if given, a
    level ``"careful:PLAN"`` by the careful player."""
    game = Game(setup, seed)
    seats = Snapshot(game)
    players = {
        s: (
            old(s, levels[s], seed=seed * 7 + i)
            if old is not None and s != timed and isinstance(levels[s], int)
            else make_player(s, levels[s], seed=seed * 7 + i)
        )
        for i, s in enumerate(setup.sides)
    }
    times: list[float] = []
    turns: dict[tuple[int, str], float] = {}
    n = 0
    while not game.over and n < 20_000:
        side = game.to_act
        t = time.perf_counter()
        table = seats.table(side)
        action = table.engine_action(players[side].choose(table).action)
        spent = time.perf_counter() - t
        if side == timed:
            times.append(spent)
            key = (game.turn, game.phasing)
            turns[key] = turns.get(key, 0.0) + spent
        game.apply(action)
        n += 1
    return game.winner, times, turns


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenario")
    ap.add_argument(
        "--levels",
        nargs=2,
        default=["3", "2"],
        metavar=("LEVEL", "OTHER"),
        help="the computer's level (0-3), and the other side's level or 'careful' (the careful "
        "sparring player, its plans in turn: game k plan k mod 4)",
    )
    ap.add_argument("--side", action="append", help="the first level's side (default: each)")
    ap.add_argument("--games", type=int, default=10, help="games per side")
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--json", action="store_true")
    ap.add_argument(
        "--old",
        metavar="DIR",
        help="the second level's player from an older copy of game/ai (DIR/aiold, imported "
        "over this engine): this version against that one",
    )
    ap.add_argument(
        "--place",
        action="append",
        default=[],
        metavar="UNIT=HEX",
        help="a probe: set UNIT up in HEX whoever sets it up (the set-up draw answered so; a hex "
        "it may not set up in leaves it on the scenario file's hex)",
    )
    args = ap.parse_args(argv)
    placed = dict(p.split("=", 1) for p in args.place if "=" in p)
    if len(placed) != len(args.place):
        ap.error("--place: expected UNIT=HEX")
    if placed:
        drawn = setup_candidates.spot

        def spot(s, unit, seen, way, eyes):
            hx = placed.get(unit["id"])
            return (hx, f"sets up in {hx} (--place)") if hx else drawn(s, unit, seen, way, eyes)

        setup_candidates.spot = spot
    old = None
    if args.old:
        sys.path.insert(0, args.old)
        import importlib

        old = importlib.import_module("aiold").ComputerPlayer
    setup = load_scenario(find_scenario(args.scenario)).setup
    unknown = sorted(set(placed) - {u.id for u in setup.units})
    if unknown:
        ap.error(f"--place: no unit {', '.join(unknown)} in {args.scenario}")
    a, b = int(args.levels[0]), args.levels[1]
    careful = b == "careful"
    if not careful:
        b = int(b)
    sides = args.side or list(setup.sides)
    for side in sides:
        if side not in setup.sides:
            ap.error(f"--side {side}: expected one of {', '.join(setup.sides)}")
    out: dict = {"scenario": args.scenario, "levels": [a, b], "games_per_side": args.games}
    if placed:
        out["placed"] = placed
    all_times: list[float] = []
    longest = 0.0
    total = 0
    plans = list(CAREFUL_PLANS)
    for side in sides:
        other = next(s for s in setup.sides if s != side)
        wins = 0
        lost_to: dict[str, int] = dict.fromkeys(plans, 0) if careful else {}
        for k in range(args.games):
            theirs = f"{CAREFUL}{plans[k % len(plans)]}" if careful else b
            winner, times, turns = play(setup, args.seed + k, {side: a, other: theirs}, side, old)
            wins += winner == side
            if careful and winner == other:
                lost_to[plans[k % len(plans)]] += 1
            all_times += times
            longest = max([longest, *turns.values()])
            print(f"\r{side} {k + 1}/{args.games} wins {wins}", end="", file=sys.stderr)
        print(file=sys.stderr)
        lo, hi = wilson(wins, args.games)
        out[side] = {"wins": wins, "games": args.games, "ci95": [round(lo, 3), round(hi, 3)]}
        if careful:
            out[side]["careful_plans_won"] = lost_to
        total += wins
    lo, hi = wilson(total, len(sides) * args.games)
    out["both"] = {
        "wins": total,
        "games": len(sides) * args.games,
        "ci95": [round(lo, 3), round(hi, 3)],
    }
    all_times.sort()
    out["decision_median_s"] = round(statistics.median(all_times), 4)
    out["decision_p95_s"] = round(all_times[int(0.95 * (len(all_times) - 1))], 4)
    out["player_turn_max_s"] = round(longest, 2)
    if args.json:
        print(json.dumps(out))
        return 0
    against = "the careful player" if careful else f"level {b}"
    print(f"{args.scenario}: level {a} against {against}, {args.games} games a side")
    if placed:
        print("  set up by --place (a probe): " + ", ".join(f"{u} {h}" for u, h in placed.items()))
    for side in [*sides, "both"]:
        f = out[side]
        lo, hi = f["ci95"]
        won = f.get("careful_plans_won")
        by_plan = f"  careful's wins by plan {won}" if won else ""
        print(
            f"  {side:<10} {f['wins']:3d}/{f['games']}  (95% CI {100 * lo:.0f}-{100 * hi:.0f}%)"
            + by_plan
        )
    print(
        f"  level {a}: decision median {out['decision_median_s']} s, p95 "
        f"{out['decision_p95_s']} s, longest player turn {out['player_turn_max_s']} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
