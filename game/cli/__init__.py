"""The ``hexfire`` command line: one module per command (``los``, ``odds``, ``files``:
validate / replay / scenarios, ``convert``: Tiled maps, ``window``: play / watch, ``edit``:
the scenario editor, ``online``: serve / host / join, ``bench``, ``ai``: balance and the
computer's benchmark). Every command has ``--help``; bad input exits 2 with a one-line
reason, never a traceback."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from game import __version__

from . import ai, bench, convert, edit, files, los, odds, online, window
from .common import CliError, Interrupted, say


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="hexfire",
        description="hexfire: a hotseat hex wargame on the anti-tank rules of ASL and V&V.",
    )
    p.add_argument("--version", action="version", version=f"hexfire {__version__}")
    p.add_argument(
        "--save-dir",
        dest="start_save_dir",
        metavar="DIR",
        help="with no command: the start screen with its saves in DIR (as hexfire play --save-dir)",
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for module in (los, odds, files, convert, window, edit, online, bench, ai):
        module.add_commands(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] | None = getattr(args, "run", None)
    if run is None:  # no command: the game window's start screen
        folder = args.start_save_dir
        args = parser.parse_args(["play", *(["--save-dir", folder] if folder else [])])
        run = window._cmd_play
    from game.files.scenario import ScenarioError

    try:
        return run(args)
    except ScenarioError as e:
        say(str(e), err=True, lines=True)
        return 2
    except CliError as e:
        say(f"hexfire {args.command}: {e}", err=True)
        return 2
    except Interrupted as e:
        say(f"hexfire {args.command}: {e}", err=True)
        return e.code
    except KeyboardInterrupt:  # Ctrl+C outside the workers (bench ai's speed figures)
        say(f"hexfire {args.command}: stopped (SIGINT)", err=True)
        return 130
    except BrokenPipeError:
        return 0
