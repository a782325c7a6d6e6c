"""The ``hexfire`` command line. Every command has ``--help``; bad input exits 2 with a one-line
reason, never a traceback."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

from game import __version__


class CliError(Exception):
    """A reason to stop with exit code 2 (shown as one line)."""


def _cmd_los(args: argparse.Namespace) -> int:
    from game.board.los import los
    from game.files.scenario import load_board

    board = load_board(args.scenario)
    try:
        a, b = board.parse(args.from_hex), board.parse(args.to_hex)
    except ValueError as e:
        raise CliError(str(e)) from None
    result = los(board, a, b)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return 0
    verdict = "CLEAR" if result.clear else "BLOCKED"
    print(f"LOS {args.from_hex.upper()} -> {args.to_hex.upper()}: {verdict} (RD-9)")
    print(f"  range      {result.range} hexes")
    print(f"  hindrance  +{result.hindrance} (Case R, C6.9; 6 or more blocks)")
    if not result.clear:
        print(f"  blocked    {result.reason}")
    print("  thread:")
    for h in result.hexes:
        extra = f"  {h.why}" if h.why else ""
        drm = f" +{h.hindrance}" if h.hindrance else ""
        print(
            f"    {h.step:>3}  {h.label:<6} {h.terrain:<16} level {h.level}  {h.status}{drm}{extra}"
        )
    return 0


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
        from game.board.bench import bench_los

        _print_figures(bench_los(), args.json, "hexfire bench los: LOS on a 4-board map")
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

    bench = sub.add_parser(
        "bench",
        help="benchmarks that print figures",
        description="Benchmarks: each prints its figures and the goal beside each.",
    )
    bench.add_argument("what", choices=["los"], help="los: all-pairs LOS, viewshed, vs scalar")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.set_defaults(run=_cmd_bench)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] | None = getattr(args, "run", None)
    if run is None:
        parser.print_help()
        return 0
    from game.files.scenario import ScenarioError

    try:
        return run(args)
    except ScenarioError as e:
        print(str(e), file=sys.stderr)
        return 2
    except CliError as e:
        print(f"hexfire {args.command}: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
