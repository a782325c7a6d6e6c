"""A DRM or a TK modification, and why it applies: every number cites its rule."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Drm:
    """A To Hit DRM or a To Kill modification, its case and its rule.

    >>> j2 = Drm("J2", +4, "C6.12", "Limited Aim")
    >>> str(j2)
    '+4 Case J2 (C6.12)'
    >>> j2.to_dict()["rule"]
    'C6.12'
    """

    case: str
    value: int
    rule: str
    why: str = ""

    def __str__(self) -> str:
        return f"{self.value:+d} Case {self.case} ({self.rule})"

    def to_dict(self) -> dict:
        return {"case": self.case, "value": self.value, "rule": self.rule, "why": self.why}


@dataclass(frozen=True, slots=True)
class Note:
    """A rule that was considered and did not apply, or a choice made (shown to the player)."""

    rule: str
    text: str

    def to_dict(self) -> dict:
        return {"rule": self.rule, "text": self.text}


class RuleError(ValueError):
    """A shot (or other action) that the rules refuse; ``rule`` names why.

    >>> e = RuleError("C7.24", "Case D is NA at this range")
    >>> str(e), e.rule
    ('Case D is NA at this range (C7.24)', 'C7.24')
    """

    def __init__(self, rule: str, reason: str):
        super().__init__(f"{reason} ({rule})")
        self.rule = rule
        self.reason = reason
