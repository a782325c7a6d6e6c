"""Taking an action back (RD-19): each action type declares whether it can be and what blocks
it (:class:`~.actions.Undo`, where the type is registered); this module reads the declaration
against what the action did."""

from __future__ import annotations

from .actions import Action
from .events import Event


def revealed(events: list[Event]) -> str | None:
    """RD-19: why an action's events may not be taken back because the other side learned
    something from them or was asked something (None: nothing)."""
    for e in events:
        if e.kind == "concealment" and e.data.get("concealed") is False:
            return "a unit lost its concealment: the other side has seen it (RD-19)"
        if e.kind == "dff_chance":
            return "the other side was offered Defensive First Fire (RD-19)"
    return None


def why_not_undo(
    action: Action,
    rolled: bool,
    acted_by: str,
    acting_now: str,
    events: list[Event],
) -> str | None:
    """Why ``action`` may not be taken back (None: it may), by its type's declaration:
    ``rolled``: a die was drawn for it; ``acted_by``: the side that took it; ``acting_now``:
    the side the game waits for now; ``events``: what it made happen."""
    spec = type(action).undo
    if spec.never is not None:
        return spec.never
    if "dice" in spec.blocked and rolled:
        return "a die was rolled: no undo across a die roll"
    if "other_side" in spec.blocked and acted_by != acting_now:
        return f"{acted_by} took that action and {acting_now} acts now"
    if "revealed" in spec.blocked:
        return revealed(events)
    return None
