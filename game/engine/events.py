"""Events: what happened, as a log a player understands, each with its dice and rules."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Event:
    """``kind``: a short word (fire, hit, move, phase, ...); ``text``: the log line;
    ``rules``: the rule ids it applied; ``dice``: every die drawn for it, in order."""

    kind: str
    text: str
    rules: tuple[str, ...] = ()
    dice: tuple[int, ...] = ()
    data: dict = field(default_factory=dict)

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> dict:
        d: dict = {"kind": self.kind, "text": self.text}
        if self.rules:
            d["rules"] = list(self.rules)
        if self.dice:
            d["dice"] = list(self.dice)
        if self.data:
            d["data"] = self.data
        return d
