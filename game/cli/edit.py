"""``hexfire edit``: the scenario editor (docs/editor.md)."""

from __future__ import annotations

import argparse

from .common import CliError
from .window import _size


def _cmd_edit(args: argparse.Namespace) -> int:
    from pathlib import Path

    from game.files.savegame import SaveError
    from game.files.scenario import ScenarioError
    from game.files.shipped import find_scenario

    path = find_scenario(args.scenario) if args.scenario is not None else None
    if path is not None and path.suffix.lower() != ".toml":
        raise CliError(f"{path}: expected a scenario (.toml)")
    size = _size(args.size)
    try:
        if args.screenshot:
            from game.ui.main import edit_screenshot

            return edit_screenshot(path, Path(args.screenshot), size, args.tab)
        from game.ui.main import run_edit

        return run_edit(path, size, args.save_dir)
    except (SaveError, ScenarioError) as e:
        raise CliError(str(e).splitlines()[0]) from None


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Register this module's commands."""
    edit = sub.add_parser(
        "edit",
        help="the scenario editor: paint a map, place units, save the TOML (docs/editor.md)",
        description="Edit a scenario (a .toml, or a shipped one's name), or make a new one "
        "without SCENARIO. --screenshot renders one frame (no display needed) and exits.",
    )
    edit.add_argument("scenario", nargs="?", metavar="SCENARIO")
    edit.add_argument("--screenshot", metavar="FILE.png", help="render one frame and exit")
    edit.add_argument(
        "--tab",
        choices=("map", "units", "scenario", "lesson"),
        help="with --screenshot: the panel's tab shown (default map)",
    )
    edit.add_argument("--size", default="1280x800", help="window size WxH (default 1280x800)")
    edit.add_argument(
        "--save-dir", metavar="DIR", help="where drafts go (default: the user data folder)"
    )
    edit.set_defaults(run=_cmd_edit)
