"""What every command shares: the one-line error and printing text from files escaped."""

from __future__ import annotations

import sys


class CliError(Exception):
    """A reason to stop with exit code 2 (shown as one line)."""


def say(text: str, err: bool = False, lines: bool = False) -> None:
    """Print text that may come from a file with its control characters escaped (a newline
    too, unless ``lines``: then each of its lines is printed, escaped)."""
    from game.files.text import printable

    for line in str(text).split("\n") if lines else [str(text)]:
        print(printable(line), file=sys.stderr if err else sys.stdout)
