"""The ``hexfire`` command line. Every command has ``--help``; bad input exits 2 with a one-line
reason, never a traceback."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace

from game import __version__


class CliError(Exception):
    """A reason to stop with exit code 2 (shown as one line)."""


def say(text: str, err: bool = False, lines: bool = False) -> None:
    """Print text that may come from a file with its control characters escaped (a newline
    too, unless ``lines``: then each of its lines is printed, escaped)."""
    from game.files.text import printable

    for line in str(text).split("\n") if lines else [str(text)]:
        print(printable(line), file=sys.stderr if err else sys.stdout)


def _cmd_los(args: argparse.Namespace) -> int:
    from game.board.los import los
    from game.files.scenario import load_board
    from game.files.shipped import find_scenario

    board = load_board(find_scenario(args.scenario))
    try:
        # what a person types is read case-insensitively: a1 is A1 (scenario files keep one
        # spelling)
        a, b = board.parse(args.from_hex.upper()), board.parse(args.to_hex.upper())
    except ValueError as e:
        raise CliError(str(e)) from None
    result = los(board, a, b)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return 0
    print("\n".join(result.describe()))
    return 0


ODDS_LIMITS = {
    "range": (0, 200, "hexes"),
    "af": (0, 26, "the C7.11 AF scale"),
    "turret_af": (0, 26, "the C7.11 AF scale"),
    "worst_af": (0, 26, "the C7.11 AF scale"),
    "morale": (2, 12, "a 2d6 NTC, RD-5"),
    "rof": (0, 3, "RD-4"),
    "dff_mp": (0, 60, "MP, C6.17"),
    "hindrance": (0, 5, "Case R, C6.9: 6 or more blocks the LOS"),
    "tem": (0, 5, "Case Q, C6.8"),
    "size": (-2, 2, "Case P, C6.7"),
}
"""What ``hexfire odds`` accepts for each number, and why (the rule that bounds it)."""


def _check_limits(args: argparse.Namespace) -> None:
    import math

    for name, (lo, hi, why) in ODDS_LIMITS.items():
        value = getattr(args, name, None)
        if value is None:
            continue
        flag = "--" + name.replace("_", "-")
        if isinstance(value, float) and not math.isfinite(value):
            raise CliError(f"{flag}: expected a number {lo} to {hi} ({why}), got {value}")
        if not lo <= value <= hi:
            raise CliError(f"{flag}: expected {lo} to {hi} ({why}), got {value:g}")


def _odds_attack(args: argparse.Namespace):
    from game.rules.attack import Attack
    from game.rules.to_hit import Situation

    _check_limits(args)

    if args.rules == "asl" and args.af is None and not args.unarmored and args.target == "afv":
        raise CliError("an armored target needs --af N (or --unarmored)")
    if args.rules == "chart" and args.armor is None and not args.unarmored and args.target == "afv":
        raise CliError("the chart needs the target's --armor A-F (or --unarmored)")
    target = "vehicle" if args.unarmored else args.target
    situation = Situation(
        moving=args.moving,
        motion=args.motion,
        was_motion=args.was_motion,
        non_stopped=args.dff_mp is not None and not args.stopped,
        dff_mp=args.dff_mp,
        concealed=args.concealed,
        acquired=args.acquired or 0,
        bore_sighted=args.bore_sighted,
        hazardous=args.hazardous,
        size=args.size,
        tem=args.tem,
        hindrance=args.hindrance,
    )
    turret_af = args.turret_af if args.turret_af is not None else args.af
    return Attack(
        rules=args.rules,
        firer=args.firer,
        gun=args.gun,
        weapon=args.weapon,
        nationality=args.nationality,
        variant=args.variant,
        ammo=args.ammo,
        range=args.range,
        aspect=args.aspect,
        location=args.location,
        target=target,
        af_hull=args.af,
        af_turret=turret_af,
        worst_af=args.worst_af,
        open_topped=args.open_topped,
        ce=args.ce,
        immobilized=args.immobilized,
        red_cs=args.red_cs,
        morale=args.morale,
        atfp=args.atfp,
        armor=args.armor,
        rof=args.rof,
        phase_allows_rof=args.phase != "advancing",
        advancing_fire=args.phase == "advancing",
        elevation_advantage=args.elevation_advantage,
        critical_hit=True if args.ch else None,
        situation=situation,
    )


def _cmd_odds(args: argparse.Namespace) -> int:
    from game.rules.drm import RuleError
    from game.rules.odds import Branch, blend, odds, odds_to_dict
    from game.rules.report import odds_report_lines

    try:
        attack = _odds_attack(args)
        shown = odds(attack)
        n = args.depletion
        if n is not None and args.ammo in ("APCR", "APDS"):  # RD-17: is the round there?
            shown = blend(
                [
                    Branch(n / 6, f"{args.ammo} there (dr <= {n})", "RD-17", shown),
                    Branch(
                        (6 - n) / 6,
                        f"out of {args.ammo} (dr > {n}): fired as AP",
                        "RD-17",
                        odds(replace(attack, ammo="AP")),
                    ),
                ]
            )
        report = odds_to_dict(shown)
        if n is None and args.ammo in ("APCR", "APDS"):
            report["to_hit"]["notes"].append(
                {
                    "rule": "RD-17",
                    "text": f"the {args.ammo} round assumed there: --depletion N weighs its die",
                }
            )
    except RuleError as e:
        raise CliError(f"refused: {e}") from None
    except ValueError as e:  # a malformed value (a gun designation, ...)
        raise CliError(str(e)) from None
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print("\n".join(odds_report_lines(report)))
    return 0


def _cmd_validate(args: argparse.Namespace) -> int:
    from game.files.scenario import ScenarioError, load_scenario
    from game.files.shipped import find_scenario, shipped_scenarios

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
    return 1 if bad else 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from game.files.replay import replay
    from game.files.savegame import SaveError, read_save
    from game.files.scenario import ScenarioError
    from game.files.shipped import find_scenario

    try:
        saved = read_save(find_scenario(args.save))
    except SaveError as e:
        say(str(e), err=True)
        return 1 if args.verify and not e.unreadable else 2

    def show(i: int, action: dict, events: list) -> None:
        if args.verify:
            return
        for e in events:
            if args.json:
                print(json.dumps({"index": i, "action": action, **e.to_json()}, sort_keys=True))
            else:
                say(f"[{i}] {e.text}")

    recorded_under = saved.rules_version
    try:
        game = replay(saved, to=args.to, on_events=show, name=args.save)
    except (SaveError, ScenarioError) as e:
        say(str(e).splitlines()[0] if str(e) else type(e).__name__, err=True)
        return 1 if args.verify else 2
    done = len(saved.actions) if args.to is None else min(args.to, len(saved.actions))
    if args.verify:
        under = (
            f" under rules version {saved.rules_version} (recorded under version "
            f"{recorded_under}: its dice checked, its state checks rebuilt)"
            if recorded_under != saved.rules_version
            else ""
        )
        say(f"{args.save}: verified {done} actions{under}; state {game.state_hash()[:16]}")
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


def _size(text: str) -> tuple[int, int]:
    w, sep, h = text.lower().partition("x")
    if not sep or not w.isdigit() or not h.isdigit():
        raise CliError(f"--size: expected WxH like 1280x800, got {text!r}")
    width, height = int(w), int(h)
    if not (640 <= width <= 7680 and 480 <= height <= 4320):
        raise CliError(f"--size: {width}x{height} is outside 640x480 .. 7680x4320")
    return width, height


def _cmd_play(args: argparse.Namespace) -> int:
    from pathlib import Path

    from game.files.savegame import SaveError
    from game.files.scenario import ScenarioError
    from game.files.shipped import find_scenario

    path = None
    if args.file is not None:
        path = find_scenario(args.file)
    size = _size(args.size)
    try:
        if args.screenshot:
            from game.ui.main import screenshot

            if path is None:
                raise CliError("--screenshot needs a scenario or a save")
            return screenshot(
                path,
                Path(args.screenshot),
                size,
                args.select,
                args.hover,
                args.seed,
                args.overlay,
                tuple(args.los) if args.los else None,
            )
        from game.ui.main import run_window

        return run_window(path, size, args.save_dir, args.seed)
    except (SaveError, ScenarioError) as e:
        raise CliError(str(e).splitlines()[0]) from None


def _cmd_watch(args: argparse.Namespace) -> int:
    from pathlib import Path

    from game.files.savegame import SaveError
    from game.files.scenario import ScenarioError
    from game.files.shipped import find_scenario

    size = _size(args.size)
    try:
        if args.screenshot:
            from game.ui.main import watch_screenshot

            return watch_screenshot(
                find_scenario(args.save),
                Path(args.screenshot),
                size,
                args.to,
                overlay=args.overlay,
                thread=tuple(args.los) if args.los else None,
            )
        from game.ui.main import run_watch

        return run_watch(find_scenario(args.save), size, args.to)
    except (SaveError, ScenarioError) as e:
        raise CliError(str(e).splitlines()[0]) from None


def _print_figures(figures: dict, as_json: bool, title: str) -> None:
    if as_json:
        print(json.dumps(figures, indent=2))
        return
    print(title)
    width = max(len(k) for k in figures)
    for k, v in figures.items():
        if k == "goals":
            continue
        goal = figures.get("goals", {}).get(k)
        tail = f"   (goal {goal})" if goal else ""
        print(f"  {k:<{width}}  {v}{tail}")


def _cmd_bench(args: argparse.Namespace) -> int:
    if args.what == "los":
        from game.board.bench import bench_los, bench_los_large
        from game.files.largegame import measure

        figures = bench_los()
        goals = figures.pop("goals")
        figures.update(bench_los_large())
        figures.update(measure())
        figures["goals"] = goals
        title = "hexfire bench los: LOS on a 4-board map and on a 200 x 200 map"
        _print_figures(figures, args.json, title)
        return 0
    if args.what == "engine":
        from game.engine.bench import bench_engine
        from game.files.bench import LARGE
        from game.files.scenario import load_scenario

        setup = load_scenario(LARGE).setup
        title = "hexfire bench engine: a random legal game on the four-board map"
        _print_figures(bench_engine(setup), args.json, title)
        return 0
    if args.what == "replay":
        from game.files.bench import bench_replay

        _print_figures(bench_replay(), args.json, "hexfire bench replay: load, replay, verify")
        return 0
    if args.what == "reliability":
        from game.reliability import bench_reliability

        title = "hexfire bench reliability: hostile files, killed autosaves, replayed games"
        _print_figures(bench_reliability(), args.json, title)
        return 0
    if args.what == "render":
        from game.ui.bench import bench_render

        title = (
            "hexfire bench render: the play screen on the four-board and 200 x 200 maps, headless"
        )
        _print_figures(bench_render(), args.json, title)
        return 0
    if args.what == "odds":
        from game.rules.bench import bench_odds

        _print_figures(bench_odds(), args.json, "hexfire bench odds: exact odds of AT attacks")
        return 0
    raise CliError(f"unknown benchmark {args.what!r}")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="hexfire",
        description="hexfire: a hotseat hex wargame on the anti-tank rules of ASL and V&V.",
    )
    p.add_argument("--version", action="version", version=f"hexfire {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    los = sub.add_parser(
        "los",
        help="the LOS thread between two hexes of a scenario's map (RD-9)",
        description="Print the LOS between two hexes: clear or blocked, range, hindrance (Case R), "
        "the blocking hex and why, and each hex along the line.",
    )
    los.add_argument("scenario", help="a scenario file (TOML) with a [map] table")
    los.add_argument("from_hex", metavar="FROM", help="the firer's hex, e.g. W6")
    los.add_argument("to_hex", metavar="TO", help="the target's hex, e.g. T4")
    los.add_argument("--json", action="store_true", help="print one JSON object")
    los.set_defaults(run=_cmd_los)

    odds = sub.add_parser(
        "odds",
        help="the AT fire calculator: DRM, To Kill and the exact odds of one attack",
        description="The exact odds of one AT attack under the asl rules (C6, C7) or the "
        "chart (Valor & Victory's Armor Elimination Chart). A shot the rules refuse exits 2.",
    )
    odds.add_argument("--rules", choices=["asl", "chart"], default="asl")
    odds.add_argument("--firer", choices=["gun", "afv", "sw"], default="gun")
    odds.add_argument("--gun", help="the gun: caliber and length, e.g. 50L, 75*, 76LL")
    odds.add_argument(
        "--weapon", help="an AT support weapon: PSK PIAT BAZ43 BAZ44 PF PFk ATR FT DC MOL"
    )
    odds.add_argument("--nationality", help="for the colored entries of C7.31-.32 (russian, ...)")
    odds.add_argument(
        "--variant", help="a vehicle's own table entry (grant: the M3 Grant's hull 75)"
    )
    odds.add_argument("--ammo", choices=["AP", "APCR", "APDS", "HEAT", "HE"], default="AP")
    odds.add_argument(
        "--depletion",
        type=int,
        choices=range(1, 7),
        metavar="N",
        help="APCR / APDS: its depletion number 1-6; the odds weigh its availability die (RD-17)",
    )
    odds.add_argument("--range", type=int, required=True, help="range in hexes")
    odds.add_argument("--aspect", choices=["front", "side", "rear"], default="front")
    odds.add_argument("--location", choices=["hull", "turret"], help="fix the hit location (RD-2)")
    odds.add_argument("--target", choices=["afv", "vehicle", "gun", "infantry"], default="afv")
    odds.add_argument("--af", type=int, help="AF of the aspect hit (asl)")
    odds.add_argument("--turret-af", type=int, help="turret AF of that aspect, if not --af")
    odds.add_argument("--worst-af", type=int, help="the AFV's worst AF (Aerial AF for a DC)")
    odds.add_argument("--unarmored", action="store_true", help="an unarmored vehicle")
    odds.add_argument("--atfp", choices=list("ABCDEF"), help="the firer's ATFP (chart)")
    odds.add_argument("--armor", choices=list("ABCDEF"), help="the target's AF letter (chart)")
    odds.add_argument("--open-topped", action="store_true")
    odds.add_argument("--ce", action="store_true", help="the AFV is Crew Exposed")
    odds.add_argument("--ch", action="store_true", help="the hit is a Critical Hit (C7.23)")
    odds.add_argument("--immobilized", action="store_true", help="already immobilized (002)")
    odds.add_argument("--red-cs", action="store_true", help="the AFV has a red CS# (C7.7)")
    odds.add_argument("--morale", type=int, default=8, help="crew morale for the NTC (RD-5)")
    odds.add_argument("--rof", type=int, default=0, help="the weapon's ROF (RD-4)")
    odds.add_argument("--moving", action="store_true", help="entered a new hex, stopped (Case J)")
    odds.add_argument("--motion", action="store_true", help="in Motion (Case J, no Case L)")
    odds.add_argument(
        "--was-motion",
        action="store_true",
        help="was in Motion this player turn, stopped now (Case J; Case L may apply)",
    )
    odds.add_argument(
        "--dff-mp", type=float, help="Defensive First Fire: MP spent in the firer's LOS"
    )
    odds.add_argument(
        "--stopped",
        action="store_true",
        help="with --dff-mp: the target has spent its Stop MP (Case L may apply)",
    )
    odds.add_argument("--concealed", action="store_true", help="Case K")
    odds.add_argument(
        "--elevation-advantage",
        action="store_true",
        help="the firer is >= 1 level higher (Case B, C7.22: MOL To Kill, DC Position DR)",
    )
    odds.add_argument(
        "--phase",
        choices=["fire", "advancing"],
        default="fire",
        help="advancing: the Advancing Fire Phase (no Multiple ROF, RD-4; +1 Thrown DC, C7.346)",
    )
    odds.add_argument("--acquired", type=int, choices=[1, 2], help="an Acquired -1/-2 counter")
    odds.add_argument("--bore-sighted", action="store_true", help="Case M")
    odds.add_argument("--hazardous", action="store_true", help="Case O")
    odds.add_argument("--size", type=int, default=0, help="Case P: target size DRM -2..+2")
    odds.add_argument("--tem", type=int, default=0, help="Case Q: TEM")
    odds.add_argument("--hindrance", type=int, default=0, help="Case R: hindrance DRM")
    odds.add_argument("--json", action="store_true", help="print one JSON object")
    odds.set_defaults(run=_cmd_odds)

    val = sub.add_parser(
        "validate",
        help="check scenario files: every error as file:line: field: what was expected",
        description="Validate scenario files; exit 0 when all are valid, 1 otherwise.",
    )
    val.add_argument(
        "files", nargs="*", metavar="FILE", help="scenario files (default: the shipped ones)"
    )
    val.set_defaults(run=_cmd_validate)

    play = sub.add_parser(
        "play",
        help="open the game window: a scenario (a new game) or a saved game (resumed)",
        description="Play at one screen. Without FILE: the start screen. --screenshot renders "
        "one frame (no display needed) and exits.",
    )
    play.add_argument(
        "file",
        nargs="?",
        metavar="SCENARIO|SAVE",
        help="a scenario (.toml, or a shipped one's name) or a save (.json)",
    )
    play.add_argument("--screenshot", metavar="FILE.png", help="render one frame and exit")
    play.add_argument("--size", default="1280x800", help="window size WxH (default 1280x800)")
    play.add_argument("--select", metavar="UNIT", help="with --screenshot: select this unit")
    play.add_argument("--hover", metavar="HEX", help="with --screenshot: the mouse over this hex")
    play.add_argument(
        "--save-dir", metavar="DIR", help="where autosaves go (default: the user data folder)"
    )
    play.add_argument("--seed", type=int, help="the dice seed of a new game (default: random)")
    play.add_argument(
        "--overlay", choices=["viewshed", "threat", "fire"], help="with --screenshot: show it"
    )
    play.add_argument(
        "--los", nargs=2, metavar=("FROM", "TO"), help="with --screenshot: an LOS thread"
    )
    play.set_defaults(run=_cmd_play)

    watch = sub.add_parser(
        "watch",
        help="the replay viewer: a saved game action by action",
        description="Watch a saved game: step, jump to a player turn, play at a chosen speed. "
        "A save that does not verify opens up to its last good action, with the reason.",
    )
    watch.add_argument("save", metavar="SAVE")
    watch.add_argument("--to", type=int, metavar="N", help="open at (or render) action N")
    watch.add_argument("--screenshot", metavar="FILE.png", help="render one frame and exit")
    watch.add_argument("--size", default="1280x800", help="window size WxH (default 1280x800)")
    watch.add_argument("--overlay", choices=["viewshed", "threat", "fire"], help="show it")
    watch.add_argument("--los", nargs=2, metavar=("FROM", "TO"), help="an LOS thread")
    watch.set_defaults(run=_cmd_watch)

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
    rep.set_defaults(run=_cmd_replay)

    bench = sub.add_parser(
        "bench",
        help="benchmarks that print figures",
        description="Benchmarks: each prints its figures and the goal beside each.",
    )
    bench.add_argument(
        "what",
        choices=["los", "odds", "engine", "replay", "render", "reliability"],
        help="los: all-pairs LOS, viewshed, vs scalar; odds: exact odds per second; "
        "engine: actions applied per second; replay: a 2,000-action save verified; "
        "render: the play screen's frame times",
    )
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.set_defaults(run=_cmd_bench)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] | None = getattr(args, "run", None)
    if run is None:  # no command: the game window's start screen
        args = parser.parse_args(["play"])
        run = _cmd_play
    from game.files.scenario import ScenarioError

    try:
        return run(args)
    except ScenarioError as e:
        say(str(e), err=True, lines=True)
        return 2
    except CliError as e:
        say(f"hexfire {args.command}: {e}", err=True)
        return 2
    except BrokenPipeError:
        return 0
