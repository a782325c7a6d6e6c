"""``hexfire convert``: a Tiled map (TMX or TMJ) to a scenario's ``[map]`` table, and a
scenario's map back to Tiled on the tileset hexfire ships (docs/tiled.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

from .common import CliError, say

_USAGE = "expected MAP.tmx|MAP.tmj OUT.toml, or SCENARIO.toml OUT.tmx|OUT.tmj"


def _cmd_convert(args: argparse.Namespace) -> int:
    from game.board import MapError
    from game.files.scenario import load_board
    from game.files.shipped import find_scenario
    from game.files.tiled import TiledError, map_from_tiled, map_toml, write_tiled

    src, out = Path(args.source), Path(args.out)
    tiled_in = src.suffix.lower() in (".tmx", ".tmj")
    if tiled_in and out.suffix.lower() != ".toml":
        raise CliError(f"{out}: {_USAGE}")
    if not tiled_in and out.suffix.lower() not in (".tmx", ".tmj"):
        raise CliError(f"{out}: {_USAGE}")
    if out.exists() and src.exists() and out.resolve() == src.resolve():
        raise CliError(f"{out}: the output would overwrite the input")
    if not out.parent.is_dir():
        raise CliError(f"{out}: no such folder {str(out.parent)!r}")
    try:
        if tiled_in:
            table, notes = map_from_tiled(src)
            out.write_text(map_toml(table, str(src)), encoding="utf-8")
            for note in notes:
                say(f"{src}: {note}", err=True)
            say(f"{out}: the [map] of {src} ({table['columns']} x {table['rows']} hexes)")
            return 0
        board = load_board(find_scenario(args.source))
        written = write_tiled(board, out)
    except (TiledError, MapError) as e:
        say(str(e), err=True)
        return 2
    except OSError as e:
        raise CliError(f"{out}: cannot write: {e.strerror or e}") from None
    say(
        f"{out}: the map of {args.source} ({board.columns} x {board.rows} hexes), with "
        f"{', '.join(p.name for p in written[1:])} beside it"
    )
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Register ``convert``."""
    conv = sub.add_parser(
        "convert",
        help="a Tiled map (.tmx, .tmj) to a scenario's [map], or a scenario's map to Tiled",
        description="Convert a Tiled hexagonal map (staggeraxis x, staggerindex odd) to a "
        "scenario's [map] table (OUT.toml), or a scenario's map to a Tiled map (OUT.tmx or "
        "OUT.tmj) on hexfire's tileset, copied beside it. What converts: docs/tiled.md. "
        "Exit 0 done, 2 refused (a one-line located reason).",
    )
    conv.add_argument("source", metavar="SOURCE", help="MAP.tmx, MAP.tmj, or SCENARIO.toml")
    conv.add_argument("out", metavar="OUT", help="OUT.toml (from Tiled), OUT.tmx or OUT.tmj")
    conv.set_defaults(run=_cmd_convert)
