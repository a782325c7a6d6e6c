"""Level 3's games against the careful sparring player traced (issue 41): the games of
``match.py SCENARIO --levels 3 careful --side SIDE`` (the same seeds and plans, so the same
games), and for each the careful plan, the winner and why, the plans level 3's searches kept
other than level 2's own (by turn), and every unit removed from play: its turn, the player turn
and phase, and the shot that removed it (firer, range, Case J). Then the losses of level 3's
side counted by turn and phase, and by firer, and how many fell to a repeat shot at a target
the firer had acquired (Case N: a shot after another at it, RD-4's Multiple ROF or a later
phase). The game's full log (no side's view: a referee's trace, never the computer's input).

    python3 tools/ai/loss_trace.py road-ambush --side german --games 20 [--seed 100] [--log]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from typing import Any

import game.ai.opponent as opponent
from game.ai.selfplay import CAREFUL, make_player
from game.ai.sparring import PLANS as CAREFUL_PLANS
from game.engine import Game
from game.engine.table import Snapshot
from game.files.scenario import load_scenario
from game.files.shipped import find_scenario

KEPT: list[tuple[int, str]] = []
_search = opponent.search
_SHOT = re.compile(r"(.+?) fires (\S+) at .*?\((\d+) hex")


def traced(table: Any, *args: Any, **kw: Any) -> Any:
    """``lookahead.search`` as level 3 calls it, the plan kept noted by turn."""
    found = _search(table, *args, **kw)
    KEPT.append((table.turn, found.best.name))
    return found


def play(setup: Any, seed: int, side: str, plan: str) -> tuple[Game, list[tuple]]:
    """One game as match.py plays it: level 3 for ``side``, the careful player by ``plan``."""
    KEPT.clear()
    game = Game(setup, seed)
    seats = Snapshot(game)
    levels = {s: 3 if s == side else f"{CAREFUL}{plan}" for s in setup.sides}
    players = {s: make_player(s, levels[s], seed=seed * 7 + i) for i, s in enumerate(setup.sides)}
    log: list[tuple] = []
    n = 0
    while not game.over and n < 20_000:
        table = seats.table(game.to_act)
        for e in game.apply(table.engine_action(players[game.to_act].choose(table).action)):
            log.append((game.turn, game.phasing, str(game.phase), e.kind, e.text))
        n += 1
    return game, log


def losses(log: list[tuple]) -> list[tuple[str, int, str, str, str]]:
    """Each unit removed: (its id, the turn, the phasing side, the phase, the last shot's line)."""
    out = []
    shot = ""
    for turn, phasing, phase, kind, text in log:
        if kind == "fire":
            shot = text
        elif kind == "removed":
            unit = re.search(r"\(([^)]+)\) is", text)
            out.append((unit.group(1) if unit else text, turn, phasing, phase, shot))
    return out


def shot_words(shot: str) -> str:
    m = _SHOT.match(shot)
    if not m:
        return "?"
    cases = ",".join(re.findall(r"Case (J\d?|N)\b", shot))
    return f"{m.group(1)} {m.group(3)}h {cases}".strip()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenario")
    ap.add_argument("--side", required=True, help="level 3's side")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--log", action="store_true", help="print each game's fire and move lines")
    args = ap.parse_args(argv)
    opponent.search = traced
    setup = load_scenario(find_scenario(args.scenario)).setup
    if args.side not in setup.sides:
        ap.error(f"--side {args.side}: expected one of {', '.join(setup.sides)}")
    plans = list(CAREFUL_PLANS)
    won = 0
    when: Counter[str] = Counter()
    by: Counter[str] = Counter()
    again = lost = 0
    for k in range(args.games):
        plan = plans[k % len(plans)]
        game, log = play(setup, args.seed + k, args.side, plan)
        won += game.winner == args.side
        kept = [f"T{t} {name}" for t, name in KEPT if name != "steady"]
        gone = []
        for unit, turn, phasing, phase, shot in losses(log):
            mine = unit in {u.id for u in setup.units if u.side == args.side}
            gone.append(
                f"{'' if mine else '(the enemy) '}{unit} T{turn} {phasing} {phase}: "
                f"{shot_words(shot)}"
            )
            if mine:
                lost += 1
                when[f"turn {min(turn, 3)}{'+' if turn >= 3 else ''}, {phasing} {phase}"] += 1
                m = _SHOT.match(shot)
                by[m.group(1) if m else "?"] += 1
                again += "Case N" in shot
        result = "won" if game.winner == args.side else "lost"
        print(f"seed {args.seed + k} careful {plan}: {result} ({game.end_reason})")
        print(f"  plans kept other than level 2's: {', '.join(kept) or 'none'}")
        for line in gone:
            print(f"  removed {line}")
        if args.log:
            for turn, phasing, phase, kind, text in log:
                if kind in ("fire", "end_move", "exit", "rof"):
                    print(f"    T{turn} {phasing} {phase} {text}")
        sys.stdout.flush()
    print(f"won {won}/{args.games}; {args.side}'s units removed {lost}")
    for key, n in sorted(when.items()):
        print(f"  {key}: {n}")
    print(f"  by firer: {dict(by)}")
    print(f"  by a repeat shot at an acquired target (Case N): {again}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
