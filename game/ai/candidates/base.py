"""The candidate-action loop, after Battle for Wesnoth's (src/ai/default/stage_rca.cpp): each
candidate action of a decision has its highest score; they are evaluated from the highest
down, each offering an :class:`~game.ai.decision.Option` (its decision and score) or nothing,
and evaluation stops as soon as the best offer so far reaches the next one's highest (it could
not win). The best offer is the decision; the engine applies it, and the loop runs again for
the next. A candidate evaluated is one whose work was needed: a cheaper one ranked above it
that offered first spares it (level 3's search runs only when a move needs its plan)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..decision import Decision, Option
from ..situation import Situation


class Candidate(Protocol):
    """One kind of decision: ``name``, its highest score (``score``: an offer may score less,
    never more) and ``evaluate``, its offer in a situation (None: nothing to offer)."""

    @property
    def name(self) -> str: ...
    @property
    def score(self) -> float: ...

    def evaluate(self, s: Situation) -> Option | None: ...


def best(candidates: Sequence[Candidate], s: Situation) -> Decision:
    """The decision of the candidate-action loop in situation ``s`` (the module's text); the
    candidates must include one that always offers (the pass candidate)."""
    found: Option | None = None
    for c in sorted(candidates, key=lambda c: -c.score):
        if found is not None and c.score <= found.score:
            break
        option = c.evaluate(s)
        if option is None:
            continue
        if option.score > c.score:
            raise ValueError(f"candidate {c.name} offered {option.score}, above its {c.score}")
        if found is None or option.score > found.score:
            found = option
    if found is None:
        raise ValueError("no candidate offered a decision (the pass candidate is missing)")
    return found.decision
