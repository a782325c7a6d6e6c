"""``hexfire validate``, ``replay`` and ``scenarios``: the scenario files and saved games."""

from __future__ import annotations

import argparse
import contextlib
import json

from .common import say


def _cmd_validate(args: argparse.Namespace) -> int:
    from game.files.scenario import ScenarioError, load_scenario
    from game.files.shipped import find_scenario, shipped_scenarios

    if args.balance:  # a hostile count: its one line before any file is read
        from .ai import check_games

        check_games(args.games)
    bad = 0
    for f in args.files or [str(p) for p in shipped_scenarios()]:
        try:
            sc = load_scenario(find_scenario(f))
        except ScenarioError as e:
            bad += 1
            for line in e.errors:
                say(line)
            continue
        n = len(sc.setup.units)
        say(f"{f}: ok: {sc.title} ({n} units, {sc.setup.turns} turns, {sc.setup.to_kill})")
        if args.balance:
            from .ai import balance, check_workers

            path = str(find_scenario(f))
            figures = balance(path, args.games, args.level, check_workers(None), quiet=True)
            for side, fig in figures["sides"].items():
                if not 0.35 <= fig["win_rate"] <= 0.65:
                    say(
                        f"{f}: warning: {side} wins {100 * fig['win_rate']:.0f}% (95% CI "
                        f"{100 * fig['ci95'][0]:.0f}-{100 * fig['ci95'][1]:.0f}%) of "
                        f"{args.games} games of the computer (level {args.level}) against "
                        "itself (outside 35-65%)"
                    )
    return 1 if bad else 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from game.files.replay import replay, shown_side
    from game.files.savegame import SaveError, read_save
    from game.files.scenario import ScenarioError
    from game.files.shipped import find_scenario

    try:
        saved = read_save(find_scenario(args.save))
    except SaveError as e:
        say(str(e), err=True)
        return 1 if args.verify and not e.unreadable else 2

    if args.luck:
        from game.files.luck import luck_of_save

        try:
            luck = luck_of_save(saved, args.save)
        except (SaveError, ScenarioError) as e:
            say(str(e).splitlines()[0] if str(e) else type(e).__name__, err=True)
            return 1
        if args.json:
            print(json.dumps({"luck": [s.to_json() for s in luck]}, indent=2))
        else:
            for s in luck:
                say(s.line())
        return 0

    only = None  # a game against the computer not over: its secrets stay its own (RD-11)
    if saved.computer and not args.verify:
        with contextlib.suppress(SaveError, ScenarioError):  # the replay below says why
            only = shown_side(saved, replay(saved, name=args.save))
    if only is not None:
        say(
            f"-- not over, against the computer: the log as the {only} side saw it (RD-11)",
            err=args.json,
        )

    def show(i: int, action: dict, events: list) -> None:
        if args.verify:
            return
        for e in filter(None, (e.seen_by(only) for e in events)) if only else events:
            if args.json:
                shown = {"index": i, **({} if only else {"action": action}), **e.to_json()}
                print(json.dumps(shown, sort_keys=True))  # (the computer's actions its own)
            else:
                say(f"[{i}] {e.text}")

    recorded_under = saved.rules_version
    current = saved.current
    try:
        game = replay(saved, to=args.to, on_events=show, name=args.save)
    except (SaveError, ScenarioError) as e:
        say(str(e).splitlines()[0] if str(e) else type(e).__name__, err=True)
        return 1 if args.verify else 2
    done = len(saved.actions) if args.to is None else min(args.to, len(saved.actions))
    if args.verify:
        from game.files.honest import check_save

        checked: list[str] = []
        if current and args.to is None:
            checked, why = check_save(
                saved.seed, saved.scenario_sha256, saved.actions, saved.commitment, saved.chain
            )
            if why:
                say(f"{args.save}: {why}", err=True)
                return 1
        under = (
            f" under rules version {saved.rules_version} (recorded under version "
            f"{recorded_under}: its dice checked, its state checks rebuilt)"
            if recorded_under != saved.rules_version
            else ""
        )
        honest = f"; {', '.join(checked)} checked" if checked else ""
        say(f"{args.save}: verified {done} actions{under}; state {game.state_hash()[:16]}{honest}")
    elif not args.json:
        status = f"{game.winner} won: {game.end_reason}" if game.over else "in progress"
        say(f"-- {done} actions replayed; {status}")
    return 0


def _cmd_scenarios(args: argparse.Namespace) -> int:
    from game.files.scenario import ScenarioError, load_scenario
    from game.files.shipped import shipped_saves, shipped_scenarios

    rows: list[dict[str, object]] = []
    for p in shipped_scenarios():
        try:
            sc = load_scenario(p)
        except ScenarioError as e:
            rows.append({"name": p.stem, "path": str(p), "error": str(e)})
            continue
        s = sc.setup
        rows.append(
            {
                "name": p.stem,
                "path": str(p),
                "title": sc.title,
                "size": f"{s.board.columns} x {s.board.rows}",
                "rules": s.to_kill,
                "turns": s.turns,
            }
        )
    saves = [str(p) for p in shipped_saves()]
    if args.json:
        print(json.dumps({"scenarios": rows, "saves": saves}, indent=2))
        return 0
    for r in rows:
        if "error" in r:
            say(f"{r['name']:<20} {r['error']}")
        else:
            say(f"{r['name']:<20} {r['title']} ({r['size']}, {r['rules']}, {r['turns']} turns)")
    print(f"folder: {shipped_scenarios()[0].parent if rows else '(none)'}")
    for save_path in saves:
        print(f"save: {save_path}")
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Register this module's commands."""
    val = sub.add_parser(
        "validate",
        help="check scenario files: every error as file:line: field: what was expected",
        description="Validate scenario files; exit 0 when all are valid, 1 otherwise.",
    )
    val.add_argument(
        "files", nargs="*", metavar="FILE", help="scenario files (default: the shipped ones)"
    )
    val.add_argument(
        "--balance",
        action="store_true",
        help="also play the computer against itself (as hexfire balance does) and warn of a "
        "side winning outside 35-65%%",
    )
    val.add_argument(
        "--games", type=int, default=10, help="with --balance: games, 1-10000 (default 10)"
    )
    val.add_argument(
        "--level",
        type=int,
        choices=[0, 1, 2, 3],
        default=3,
        help="with --balance: the computer's level (default 3, the top level, as hexfire "
        "balance; level 1 against itself stands still and the defender wins on time)",
    )
    val.set_defaults(run=_cmd_validate)

    scen = sub.add_parser(
        "scenarios",
        help="list the shipped scenarios (any command takes a shipped scenario by its name)",
        description="List the scenarios and saved games shipped with hexfire, with their paths.",
    )
    scen.add_argument("--json", action="store_true", help="print one JSON object")
    scen.set_defaults(run=_cmd_scenarios)

    rep = sub.add_parser(
        "replay",
        help="replay a saved game headless, checking every roll and state",
        description="Print a saved game's event log (one line per event, or one JSON object per "
        "line), rebuilt from its scenario and seed, each action's dice count and state hash "
        "checked. --verify only checks (exit 0 / 1).",
    )
    rep.add_argument("save", metavar="SAVE")
    rep.add_argument("--json", action="store_true", help="one JSON object per event")
    rep.add_argument("--verify", action="store_true", help="only check; exit 0 or 1")
    rep.add_argument("--to", type=int, metavar="N", help="stop after action N")
    rep.add_argument(
        "--luck",
        action="store_true",
        help="each side's dice against the exact odds of its shots: hits and kills expected "
        "and made, with the probability of doing at least that well",
    )
    rep.set_defaults(run=_cmd_replay)
