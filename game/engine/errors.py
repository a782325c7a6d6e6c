"""The engine's refusal: an action the rules or the phase do not allow."""

from __future__ import annotations

from collections.abc import Callable


class IllegalAction(Exception):
    """An action the rules or the phase do not allow; the state is untouched. ``reason`` is
    for the player; ``code`` is a short word for programs (tests, the UI). A reason costly to
    spell out (the LOS thread that says which hex blocks) may be given as a function: it is
    worked out when first read, so listing the legal actions never pays for it."""

    def __init__(self, code: str, reason: str | Callable[[], str]):
        super().__init__(code)
        self.code = code
        self._reason = reason

    def again(self) -> IllegalAction:
        """The same refusal, to raise anew (a memo of a check keeps the first one)."""
        return IllegalAction(self.code, self._reason)

    @property
    def reason(self) -> str:
        if callable(self._reason):
            self._reason = self._reason()
        return self._reason

    def __str__(self) -> str:
        return self.reason
