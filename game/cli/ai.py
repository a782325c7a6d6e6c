"""``hexfire balance``: the computer against itself on a scenario, its games in parallel on the
machine's cores, each side's win rate with its 95% interval; and ``hexfire bench ai``: the
computer's strength (its levels against random play and each other) and speed (decision time,
a whole player turn, the engine figures a search lives on). docs/ai.md."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
from concurrent.futures.process import BrokenProcessPool
from functools import cache

from .common import CliError, Interrupted, say
from .speed import TOP, speed_figures

GAMES = 20
"""Games per scenario and side in ``bench ai`` (the issue's floor)."""
STEPPE_GAMES = 10
"""... on the 200 x 200 map, whose games take 2-7 s each (the four-board map's 1-10 s have
the full count): the output says so."""
STEPPE = "steppe-200"
VS_LEVEL2_GAMES = 40
"""Games per side of the top level against level 2 on the maps it searches in full (issue 41's
goal: >= 60% over 40 a side); on the larger ones (more than ``[search] max_hexes`` hexes, the
four-board map and the steppe) the scenario's count above, as the output says."""
MAX_GAMES = 10_000
"""The most games ``balance`` (and ``validate --balance``) plays."""
MAX_WORKERS = 64
"""The most worker processes asked for with ``--workers``."""


def check_games(games: int) -> int:
    """``--games``, or the one-line error (exit 2) of a count out of range."""
    if not 1 <= games <= MAX_GAMES:
        raise CliError(f"--games: expected 1-{MAX_GAMES}, got {games}")
    return games


def check_workers(workers: int | None) -> int:
    """``--workers`` (default: one per core), or the one-line error of a count out of range."""
    if workers is None:
        return max(1, min(MAX_WORKERS, os.cpu_count() or 1))
    if not 1 <= workers <= MAX_WORKERS:
        raise CliError(f"--workers: expected 1-{MAX_WORKERS}, got {workers}")
    return workers


class _Stop(Exception):
    """SIGTERM to the command: stop the workers and end (no traceback)."""


def _on_sigterm(signum: int, _frame: object) -> None:
    raise _Stop(signum)


@cache
def _setup(path: str):
    from game.files.scenario import load_scenario

    return load_scenario(path).setup


def _run(jobs: list, workers: int, label: str, quiet: bool) -> list[dict]:
    """The games (jobs of one scenario: path, seed, levels), in parallel, with a progress bar
    and the running tally on stderr. Ctrl+C or SIGTERM stops every worker and ends the command
    with one line (:class:`Interrupted`); a worker that died is a one-line error too."""
    from game.ai.balance import Progress, play_games

    def show(p: Progress) -> None:
        if quiet:
            return
        bar = "#" * (30 * p.done // p.total)
        tally = "  ".join(f"{side} {n}" for side, n in p.wins)
        print(f"\r{label} [{bar:<30}] {p.done}/{p.total}  {tally}", end="", file=sys.stderr)

    done = 0

    def count(p: Progress) -> None:
        nonlocal done
        done = p.done
        show(p)

    previous = None
    with contextlib.suppress(ValueError):  # not the main thread (a test): nothing to install
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        setup = _setup(jobs[0][0])
        out = play_games(setup, [(seed, levels) for _, seed, levels in jobs], workers, count)
    except (KeyboardInterrupt, _Stop) as e:
        with contextlib.suppress(ValueError):
            signal.signal(signal.SIGINT, signal.default_int_handler)
        signum = signal.SIGINT if isinstance(e, KeyboardInterrupt) else signal.SIGTERM
        if not quiet:
            print(file=sys.stderr)
        raise Interrupted(
            f"stopped ({signal.Signals(signum).name}) after {done} of {len(jobs)} games; "
            "no worker left running",
            128 + signum,
        ) from None
    except BrokenProcessPool:
        raise CliError("a worker process died (killed?); no figures") from None
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    if not quiet:
        print(file=sys.stderr)
    return out


def balance(path: str, games: int, level: int, workers: int, quiet: bool = False) -> dict:
    """``games`` games of the computer at ``level`` against itself: the figures
    (:func:`game.ai.balance.balance`), with the progress bar on stderr unless ``quiet``."""
    from game.ai.balance import figures

    levels = {s: level for s in _setup(path).sides}
    jobs = [(path, 1 + n, levels) for n in range(games)]
    results = _run(jobs, workers, "balance", quiet)
    return {"scenario": path, **figures(_setup(path), games, level, results)}


def _cmd_balance(args: argparse.Namespace) -> int:
    from game.files.scenario import load_scenario
    from game.files.shipped import find_scenario

    check_games(args.games)
    workers = check_workers(args.workers)
    path = str(find_scenario(args.scenario))
    load_scenario(path)  # a bad file: its located errors, before any worker starts
    figures = balance(path, args.games, args.level, workers)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    say(
        f"hexfire balance: {path}, {args.games} games, the computer (level {args.level}) "
        "against itself"
    )
    for side, f in figures["sides"].items():
        lo, hi = f["ci95"]
        say(
            f"  {side:<12} wins {100 * f['win_rate']:5.1f}%  (95% CI {100 * lo:.0f}-"
            f"{100 * hi:.0f}%)   AFVs lost per game {f['afvs_lost_mean']}"
        )
    say(f"  the game ended on turn {figures['mean_end_turn']} on average")
    say("  decided by:")
    for reason, n in figures["decided_by"].items():
        say(f"    {n:4d}  {reason}")
    return 0


PAIRINGS = ("top_vs_random", "top_vs_lowest", "lowest_vs_random", "top_vs_2")
"""The pairings of levels ``bench ai`` plays on each scenario, as its output names them."""
CAREFUL_LEVELS = (2, 3)
"""The computer's levels played against the careful sparring player (game.ai.sparring)."""


def _rate(wins: int, games: int) -> dict:
    """A win rate as the bench reports it: wins of games, the rate, its 95% Wilson interval."""
    from game.ai.selfplay import wilson

    lo, hi = wilson(wins, games)
    rate = round(wins / games, 3) if games else 0.0
    return {"wins": wins, "games": games, "win_rate": rate, "ci95": [round(lo, 3), round(hi, 3)]}


def careful_figures(path: str, n: int, workers: int, quiet: bool) -> dict:
    """The computer at each of :data:`CAREFUL_LEVELS` against the careful player, ``n`` games
    a side, the careful player's plans taken in turn (game k: plan k mod 4): per level, per
    side, the computer's wins of its games with their 95% interval, and the games each plan of
    the careful player won."""
    from game.ai.sparring import PLANS

    setup = _setup(path)
    plans = list(PLANS)
    out: dict = {}
    for level in CAREFUL_LEVELS:
        jobs, meta = [], []
        for side in setup.sides:
            other = next(s for s in setup.sides if s != side)
            for k in range(n):
                plan = plans[k % len(plans)]
                jobs.append((path, 100 + k, {side: level, other: f"careful:{plan}"}))
                meta.append((side, other, plan))
        stem = os.path.splitext(os.path.basename(path))[0]
        results = _run(jobs, workers, f"{stem} level {level} vs careful", quiet)
        by_side: dict = {}
        for side in setup.sides:
            rows = [(r, m) for r, m in zip(results, meta, strict=True) if m[0] == side]
            wins = sum(r["winner"] == side for r, _ in rows)
            plan_rows = {
                plan: _rate(
                    sum(r["winner"] == m[1] for r, m in rows if m[2] == plan),
                    sum(1 for _, m in rows if m[2] == plan),
                )
                for plan in plans
            }
            by_side[side] = {**_rate(wins, len(rows)), "careful_plans_won": plan_rows}
        out[str(level)] = by_side
    return out


def bench_ai(
    workers: int, quiet: bool = False, scenarios: list[str] | None = None, games: int | None = None
) -> dict:
    """The strength and speed figures (docs/ai.md), against their goals: the top level against
    random play and the lowest level, the lowest against random play (each side's wins
    beside the rate over both), levels 2 and 3 against the careful sparring player
    (:func:`careful_figures`); ``scenarios`` (stems) to play only those, ``games`` a side
    instead of :data:`GAMES` (and :data:`STEPPE_GAMES`)."""
    from game.ai.tuning import tuning
    from game.files.shipped import shipped_scenarios

    strength: dict = {}
    pairings = (
        ("top_vs_random", TOP, 0),
        ("top_vs_lowest", TOP, 1),
        ("lowest_vs_random", 1, 0),
        ("top_vs_2", TOP, 2),
    )
    shipped = [p for p in shipped_scenarios() if not p.stem.startswith("lesson-")]
    # a lesson's sides are set up to teach, not to be even
    if scenarios:
        unknown = sorted(set(scenarios) - {p.stem for p in shipped})
        if unknown:
            names = ", ".join(p.stem for p in shipped)
            raise CliError(f"--ai-scenario {unknown[0]}: expected one of {names}")
        shipped = [p for p in shipped if p.stem in scenarios]
    for p in shipped:
        path = str(p)
        setup = _setup(path)
        n = games or (STEPPE_GAMES if p.stem == STEPPE else GAMES)
        row: dict = {"games_per_side": n}
        searched = setup.board.size <= tuning().search.max_hexes
        for name, a, b in pairings:
            m = (games or VS_LEVEL2_GAMES) if name == "top_vs_2" and searched else n
            jobs, sides = [], []
            for side in setup.sides:
                other = next(s for s in setup.sides if s != side)
                jobs += [(path, 100 + k, {side: a, other: b}) for k in range(m)]
                sides += [side] * m
            results = _run(jobs, workers, f"{p.stem} {name}", quiet)
            won = {
                s: sum(r["winner"] == s for r, x in zip(results, sides, strict=True) if x == s)
                for s in setup.sides
            }
            whole = _rate(sum(won.values()), len(results))
            row[name] = {
                "win_rate": whole["win_rate"],
                "ci95": whole["ci95"],
                "sides": {s: _rate(won[s], m) for s in setup.sides},
            }
            if m != n:
                row[name]["games_per_side"] = m
        row["vs_careful"] = careful_figures(path, n, workers, quiet)
        strength[p.stem] = row
    return {
        "strength": strength,
        "note": f"{games or GAMES} games per side on each scenario"
        + ("" if games else f"; {STEPPE_GAMES} on {STEPPE} (200 x 200: its games take longest)")
        + (
            ""
            if games
            else f"; the top level against level 2 {VS_LEVEL2_GAMES} a side on the maps it "
            "searches in full, as many as above on the four-board map and the steppe"
        )
        + "; not the lessons (set up to teach); against the careful player its plans in turn",
        "speed": speed_figures(),
        "goals": {
            "top_vs_random": ">= 95%",
            "top_vs_lowest": ">= 65%",
            "top_vs_2": ">= 60%",
            "top_vs_careful": ">= 60% on each side",
            "careful_plan": "<= 40% for each plan of the careful player",
            "decision_median_s": "<= 0.2",
            "decision_p95_s": "<= 1",
            "player_turn_s": "<= 15",
            "actions_per_s": ">= 20,000",
            "legal_actions_per_s": ">= 10,000",
            "copy_ms": "<= 0.2",
        },
    }


def _cmd_bench_ai(args: argparse.Namespace) -> int:
    games = getattr(args, "ai_games", None)
    if games is not None and not 1 <= games <= MAX_GAMES:
        raise CliError(f"--ai-games: expected 1-{MAX_GAMES}, got {games}")
    figures = bench_ai(
        check_workers(args.workers),
        quiet=args.json,
        scenarios=getattr(args, "ai_scenario", None),
        games=games,
    )
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    goals = figures["goals"]
    say("hexfire bench ai: the computer's strength (win rate, 95% CI) and speed")
    say(f"  ({figures['note']})")
    heads = ("top vs random", "top vs lowest", "lowest vs random", "top vs level 2")
    say(f"  {'scenario':<22} " + " ".join(f"{h:>22}" for h in heads) + "  (games a side)")
    for stem, row in figures["strength"].items():
        cells = []
        for name in PAIRINGS:
            f = row[name]
            lo, hi = f["ci95"]
            cells.append(f"{100 * f['win_rate']:5.1f}% ({100 * lo:.0f}-{100 * hi:.0f})")
        a_side = row["top_vs_2"].get("games_per_side", row["games_per_side"])
        say(f"  {stem:<22} " + " ".join(f"{c:>22}" for c in cells) + f"  ({a_side})")
    say(
        f"  goals: top vs random {goals['top_vs_random']}, top vs lowest "
        f"{goals['top_vs_lowest']}, top vs level 2 {goals['top_vs_2']}"
    )
    say("  each side: the computer's wins of its games (95% CI) against random play, level 2")
    say("  and the careful sparring player (its plans in turn; the plan that won most against it):")
    say(
        f"  {'scenario':<20} {'side':<10} {'top vs random':>20} {'top vs level 2':>20} "
        + " ".join(f"{'level ' + str(lv) + ' vs careful':>22}" for lv in CAREFUL_LEVELS)
        + "  careful's best plan"
    )
    for stem, row in figures["strength"].items():
        for side, f in row["top_vs_random"]["sides"].items():
            cells = [_cell(f), _cell(row["top_vs_2"]["sides"][side])]
            best = ""
            for lv in CAREFUL_LEVELS:
                c = row["vs_careful"][str(lv)][side]
                cells.append(_cell(c))
                plan, p = max(
                    c["careful_plans_won"].items(), key=lambda kv: (kv[1]["win_rate"], kv[0])
                )
                best += f" L{lv}: " + (f"{plan} {p['wins']}/{p['games']}" if p["wins"] else "none")
            say(
                f"  {stem:<20} {side:<10} {cells[0]:>20} {cells[1]:>20} "
                + " ".join(f"{x:>22}" for x in cells[2:])
                + " "
                + best
            )
    say(f"  goals: top vs careful {goals['top_vs_careful']}; {goals['careful_plan']}")
    for k, v in figures["speed"].items():
        tail = f"   (goal {goals[k]})" if k in goals else ""
        say(f"  {k:<22} {v}{tail}")
    return 0


def _cell(f: dict) -> str:
    """wins/games, the rate and its 95% interval."""
    lo, hi = f["ci95"]
    return f"{f['wins']}/{f['games']} {100 * f['win_rate']:.0f}% ({100 * lo:.0f}-{100 * hi:.0f})"


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Register this module's commands."""
    bal = sub.add_parser(
        "balance",
        help="the computer against itself on a scenario: each side's win rate (95%% CI)",
        description="Play the computer against itself (both sides, seeded, in parallel) and "
        "print each side's win rate with its 95% confidence interval, the mean turn the game "
        "ended, the AFVs lost on each side and how often each victory condition decided it.",
    )
    bal.add_argument("scenario", metavar="SCENARIO", help="a scenario file or a shipped name")
    bal.add_argument(
        "--games", type=int, default=20, help=f"games to play, 1-{MAX_GAMES} (default 20)"
    )
    bal.add_argument(
        "--level",
        type=int,
        choices=[0, 1, 2, 3],
        default=TOP,
        help=f"default {TOP}, the top level (issue 41: the top level against itself)",
    )
    bal.add_argument(
        "--workers", type=int, help=f"processes, 1-{MAX_WORKERS} (default: one per core)"
    )
    bal.add_argument("--json", action="store_true", help="print one JSON object")
    bal.set_defaults(run=_cmd_balance)
