"""``hexfire play`` and ``watch``: the game window and the replay viewer (or one frame of them)."""

from __future__ import annotations

import argparse

from .common import CliError


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

        computer = None
        if args.ai is not None:
            computer = {"side": args.ai, "level": args.level}
        elif args.level is not None and args.level != 2:
            raise CliError("--level needs --ai SIDE (the side the computer plays)")
        return run_window(path, size, args.save_dir, args.seed, computer)
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


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Register this module's commands."""
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
        "--ai", metavar="SIDE", help="the computer plays SIDE (docs/ai.md); you play the other"
    )
    play.add_argument(
        "--level",
        type=int,
        choices=[0, 1, 2, 3],
        default=2,
        help="the computer's level: 0 random, 1 scorer, 2 planner, 3 lookahead (default 2)",
    )
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
