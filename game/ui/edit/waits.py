"""What a lesson step may wait for, as the Lesson tab's step form offers it
(docs/scenario-format.md, ``[lesson]``): the kinds, the ``do`` table's fields, and the
engine's action types and phases its drop-downs list."""

from __future__ import annotations

from game.engine.actions import ACTION_TYPES as ACTIONS
from game.engine.phases import PHASES

KINDS = ("space", "select", "do", "look", "show", "phase")
"""What a step may wait for: the form's row of buttons (docs/scenario-format.md)."""
DO_FIELDS = ("type", "unit", "to", "target")
"""The keys of a ``do`` table the form has a field for (the action's JSON form)."""
ACTION_TYPES = tuple(ACTIONS)
"""The engine's action types, the ``do`` drop-down's choices."""
PHASE_NAMES = tuple(PHASES)
"""The engine's phases, the ``phase`` drop-down's choices."""
