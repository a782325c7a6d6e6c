"""``hexfire convert``: a Tiled map (TMX or TMJ) to a scenario's ``[map]`` table, and a
scenario's map back to Tiled on the tileset hexfire ships (docs/tiled.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

from .common import CliError, say

_USAGE = "expected MAP.tmx|MAP.tmj OUT.toml, or SCENARIO.toml OUT.tmx|OUT.tmj"


def _cmd_convert(args: argparse.Namespace) -> int:
    from game.board import MapError
    from game.files.savegame import SaveError
    from game.files.scenario import ScenarioError, load_board
    from game.files.shipped import find_scenario
    from game.files.tiled import TiledError, write_tiled

    src, out = Path(args.source), Path(args.out)
    tiled_in = src.suffix.lower() in (".tmx", ".tmj")
    if tiled_in and out.suffix.lower() != ".toml":
        raise CliError(f"{out}: {_USAGE}")
    if args.into is not None and not tiled_in:
        raise CliError(f"{args.source}: --into takes a Tiled map: {_USAGE}")
    if not tiled_in and out.suffix.lower() not in (".tmx", ".tmj"):
        raise CliError(f"{out}: {_USAGE}")
    if out.exists() and src.exists() and out.resolve() == src.resolve():
        raise CliError(f"{out}: the output would overwrite the input")
    if not out.parent.is_dir():
        raise CliError(f"{out}: no such folder {str(out.parent)!r}")
    try:
        if tiled_in:
            return _from_tiled(src, out, args.into)
        board = load_board(find_scenario(args.source))
        written = write_tiled(board, out)
    except (TiledError, MapError, SaveError) as e:
        say(str(e), err=True)
        return 2
    except ScenarioError as e:
        say(e.errors[0] if e.errors else str(e), err=True)
        return 2
    except OSError as e:
        raise CliError(f"{out}: cannot write: {e.strerror or e}") from None
    say(
        f"{out}: the map of {args.source} ({board.columns} x {board.rows} hexes), with "
        f"{', '.join(p.name for p in written[1:])} beside it"
    )
    return 0


def _from_tiled(src: Path, out: Path, into: str | None) -> int:
    """A Tiled map to ``out``: its ``[map]`` table, or (``into``) that scenario with it."""
    from game.files.savegame import write_atomic
    from game.files.scenario_map import map_into
    from game.files.scenario_read import read_toml
    from game.files.shipped import find_scenario
    from game.files.tiled import map_from_tiled, map_toml

    table, notes = map_from_tiled(src)
    text = map_toml(table, str(src))
    if into is not None:
        scenario = find_scenario(into)
        text = map_into(read_toml(scenario)[1], str(scenario), text)
        write_atomic(out, text)
    else:
        out.write_text(text, encoding="utf-8")
    for note in notes:
        say(f"{src}: {note}", err=True)
    size = f"{table['columns']} x {table['rows']} hexes"
    if into is not None:
        say(f"{out}: {into} with the [map] of {src} ({size}), the rest as written")
    else:
        say(f"{out}: the [map] of {src} ({size})")
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
    conv.add_argument(
        "--into",
        metavar="SCENARIO.toml",
        help="from Tiled: OUT.toml is this scenario with the converted [map] in place of its "
        "own, the rest kept as written; refused (one located line) when a unit or set-up area "
        "falls off the new map or the scenario would not validate on it",
    )
    conv.set_defaults(run=_cmd_convert)
