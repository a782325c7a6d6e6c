"""``hexfire los``: the LOS thread between two hexes of a scenario's map (RD-9)."""

from __future__ import annotations

import argparse
import json

from .common import CliError


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


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Register this module's commands."""
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
