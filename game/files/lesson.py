"""Lessons: a scenario's steps for a newcomer (the ``[lesson]`` table of a scenario file,
docs/scenario-format.md). Each step says what to do in plain words, may point at a hex or a part
of the screen, and waits for the player: an action the engine applied (matched on its JSON
form, so the check is the engine's, never a screen position), a unit selected, a line of sight
traced, or only Space (a step that explains). Once done, the step says why it came out so."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from game.engine.actions import Action

POINTS: dict[str, str] = {
    "end_phase": "the End Phase button",
    "turn_left": "the Turn < button",
    "turn_right": "the Turn > button",
    "stop": "the Stop button",
    "motion": "the Motion button",
    "hatch": "the BU / CE button",
    "undo": "the Undo button",
    "help": "the Help button",
    "side": "the side panel (the selected unit and the odds)",
    "log": "the log",
    "bar": "the phase bar",
}
"""What a step may point at besides a hex: the screen's parts, by name."""

OVERLAYS = ("viewshed", "threat", "fire")
"""The map's overlays a step may wait for (``show``): v, t and f."""

MAX_STEPS = 60
MAX_STEP_CHARS = 800


@dataclass(frozen=True)
class Step:
    """One step: ``say`` (what to do), ``why`` (said once it is done), ``point`` (a hex label
    or a name of :data:`POINTS`), and what it waits for: ``do`` (the key / value pairs an
    applied action's JSON form must hold), ``select`` (a unit id), ``look`` (a line of sight
    from one hex to another), ``phase`` (the game reaching a phase, of ``side`` if given) or
    none of them (Space)."""

    say: str
    why: str = ""
    point: str | None = None
    do: tuple[tuple[str, str | int | bool], ...] = ()
    select: str | None = None
    look: tuple[str, str] | None = None
    phase: str | None = None
    side: str | None = None
    show: str | None = None
    """An overlay of the map (``viewshed``, ``threat``, ``fire``) the step waits for, with
    ``select`` (if given) the unit selected: "select it, then press v" was done by the
    click alone."""

    @property
    def kind(self) -> str:
        """``do``, ``select``, ``look``, ``phase``, ``show`` or ``read``."""
        if self.do:
            return "do"
        if self.show:
            return "show"
        if self.select:
            return "select"
        if self.phase:
            return "phase"
        return "look" if self.look else "read"

    def done_by(self, action: Action) -> bool:
        """Whether ``action`` (just applied by the engine) is the one this step waits for."""
        if not self.do:
            return False
        form = action.to_json()
        return all(form.get(key) == value for key, value in self.do)


@dataclass(frozen=True)
class Lesson:
    """A scenario's lesson: the scenario's id (progress is kept by it), its place in the
    series and its steps."""

    id: str
    number: int
    steps: tuple[Step, ...]

    def reached(self, actions: Sequence[Action]) -> int:
        """The step a game whose actions are ``actions`` stands at (a resumed lesson goes on
        there): each ``do`` step matched, in order, by a later action; the steps that only
        explain or wait for the screen are shown again after the last ``do`` step done."""
        cursor = done = 0
        for k, step in enumerate(self.steps):
            if step.kind != "do":
                continue
            match = next((j for j in range(cursor, len(actions)) if step.done_by(actions[j])), None)
            if match is None:
                return done
            cursor, done = match + 1, k + 1
        return done
