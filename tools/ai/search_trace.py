"""Level 3's searches traced against the games' outcomes (issue 41: why the search adds nothing):
level 3 against level 2 on a shipped scenario, as ``match.py`` plays them (the same seeds, the
same games), and for each search of level 3 the plan kept, each plan's playout values, the hexes
weighed and the seconds it took; then,
for each side, how many searches found every plan worth the same, how many kept another plan
than level 2's and how many of those games were won, and the correlation of level 2's plan's
mean playout value with the game's result (1 won, 0 not).

    python3 tools/ai/search_trace.py tutorial-duel --games 20 [--seed 100] [--side russian]
        [--jsonl FILE]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

import game.ai.opponent as opponent
from game.ai.selfplay import make_player
from game.engine import Game
from game.engine.table import Snapshot
from game.files.scenario import load_scenario
from game.files.shipped import find_scenario

SEARCHES: list[dict] = []
_search = opponent.search


def traced(
    table: Any, seed: int, players: Any, value: Any, plans: Any, budget: Any, **kw: Any
) -> Any:
    """``lookahead.search`` as level 3 calls it, each playout's value kept by its plan."""
    playing: dict[str, str] = {}
    values: dict[str, list[float]] = {p.name: [] for p in plans}

    def named(plan: Any, r: int) -> Any:
        playing["plan"] = plan.name
        return players(plan, r)

    def kept(copy: Any, me: Any) -> float:
        v = value(copy, me)
        values[playing["plan"]].append(round(v, 2))
        return v

    t = time.perf_counter()
    found = _search(table, seed, named, kept, plans, budget, **kw)
    spent = round(time.perf_counter() - t, 3)
    SEARCHES.append(
        {
            "turn": table.turn,
            "best": found.best.name,
            "values": values,
            "work": found.work,
            "seconds": spent,
        }
    )
    return found


def play(setup: Any, seed: int, side: str) -> dict:
    """One game, level 3 for ``side`` and level 2 for the other, seeded as match.py's."""
    SEARCHES.clear()
    game = Game(setup, seed)
    seats = Snapshot(game)
    levels = {s: 3 if s == side else 2 for s in setup.sides}
    players = {s: make_player(s, levels[s], seed=seed * 7 + i) for i, s in enumerate(setup.sides)}
    n = 0
    while not game.over and n < 20_000:
        table = seats.table(game.to_act)
        game.apply(table.engine_action(players[game.to_act].choose(table).action))
        n += 1
    return {"side": side, "seed": seed, "winner": game.winner, "searches": list(SEARCHES)}


def summary(games: list[dict], side: str) -> str:
    """The side's figures (the module's text)."""
    xs, ys = [], []
    alike = other = other_won = 0
    for g in games:
        won = 1.0 if g["winner"] == side else 0.0
        for s in g["searches"]:
            means = {k: sum(v) / len(v) for k, v in s["values"].items() if v}
            xs.append(means["steady"])
            ys.append(won)
            alike += len(set(means.values())) == 1
            if s["best"] != "steady":
                other += 1
                other_won += int(won)
    corr = (
        f"{statistics.correlation(xs, ys):+.2f}" if len(set(xs)) > 1 and len(set(ys)) > 1 else "n/a"
    )
    wins = sum(g["winner"] == side for g in games)
    longest = max(
        (s for g in games for s in g["searches"]), key=lambda s: s["seconds"], default=None
    )
    most = (
        f"; the longest search {longest['seconds']:.2f} s, {longest['work']} hexes weighed"
        if longest
        else ""
    )
    return (
        f"  {side:<10} won {wins}/{len(games)}; {len(xs)} searches, every plan alike in {alike}; "
        f"another plan kept in {other} (their games won: {other_won}); "
        f"corr(level 2's plan's mean value, won) {corr}{most}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenario")
    ap.add_argument("--games", type=int, default=10, help="games per side")
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--side", action="append", help="level 3's side (default: each)")
    ap.add_argument("--jsonl", help="write each game's searches to this file")
    args = ap.parse_args(argv)
    opponent.search = traced  # type: ignore[assignment]
    setup = load_scenario(find_scenario(args.scenario)).setup
    out = open(args.jsonl, "w") if args.jsonl else None  # noqa: SIM115
    lines = [f"{args.scenario}: level 3's searches against level 2, {args.games} games a side"]
    for side in args.side or list(setup.sides):
        games = []
        for k in range(args.games):
            games.append(play(setup, args.seed + k, side))
            if out is not None:
                print(json.dumps(games[-1]), file=out, flush=True)
            print(f"\r{side} {k + 1}/{args.games}", end="", file=sys.stderr)
        print(file=sys.stderr)
        lines.append(summary(games, side))
    if out is not None:
        out.close()
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
