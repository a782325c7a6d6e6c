"""The engine's refusal: an action the rules or the phase do not allow."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules or the phase do not allow; the state is untouched. ``reason`` is
    for the player; ``code`` is a short word for programs (tests, the UI)."""

    def __init__(self, code: str, reason: str):
        super().__init__(reason)
        self.code = code
        self.reason = reason
