"""What every command shares: the one-line error and printing text from files escaped."""

from __future__ import annotations

import sys


class CliError(Exception):
    """A reason to stop with exit code 2 (shown as one line)."""


class Interrupted(Exception):
    """The command was stopped (Ctrl+C, SIGTERM): one line, and ``code`` (128 + the signal)."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def say(text: str, err: bool = False, lines: bool = False) -> None:
    """Print text that may come from a file with its control characters escaped (a newline
    too, unless ``lines``: then each of its lines is printed, escaped)."""
    from game.files.text import printable

    for line in str(text).split("\n") if lines else [str(text)]:
        print(printable(line), file=sys.stderr if err else sys.stdout)
