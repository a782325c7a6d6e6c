"""The screens a scene may ask for, and the transitions between them, as plain values. A scene
never builds another scene: it hands ``App.go`` a transition (push, pop, replace, quit) naming
a screen, and :mod:`game.ui.screens`, the one module that knows the concrete scenes, builds it. So
the screen's modules import no circle (an import-linter contract keeps it so)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from game.engine.view import UnitRecord
from game.files.timeline import Timeline

Scene = Any
"""A scene, as a route names it (only :mod:`game.ui.screens` knows the concrete scene classes; this
module imports none of the screen's modules)."""


@dataclass(frozen=True)
class Start:
    """The start screen: the scenarios, Resume, Load, Replay."""


@dataclass(frozen=True)
class Edit:
    """The scenario editor on a scenario file (None: a new scenario; ``text``: a draft's
    text brought back, to be saved to ``path``)."""

    path: Any = None
    text: str | None = None
    prepared: Any = None
    """Its document already read, drawn and checked (:class:`.edit.preparing.Prepared`: the
    start screen has it made behind a loading screen, :class:`OpenEditor`), or None."""


@dataclass(frozen=True)
class OpenEditor:
    """The editor of ``edit`` opened behind a loading screen: its document read, its map drawn
    and checked off the window's thread, then the editor's screen pushed; ``failed``: told why
    a file cannot be edited (Callable[[Exception], None] | None)."""

    edit: Edit
    failed: Any = None


@dataclass(frozen=True)
class Play:
    """A game at one screen (``session``: an Autosave or any object with its door)."""

    session: Any
    title: str = ""
    viewer: str | None = None
    """The side already at the screen (no handover first), or None."""


@dataclass(frozen=True)
class Watch:
    """The replay viewer of a saved game, at action ``at``."""

    timeline: Timeline
    title: str = ""
    at: int | None = None
    """The action shown first (None: the last good one)."""


@dataclass(frozen=True)
class Help:
    """The keys and mouse (F1), over ``owner``."""

    owner: Scene


@dataclass(frozen=True)
class DffChance:
    """The Defensive First Fire prompt over the play screen (C6.1)."""

    play: Scene


@dataclass(frozen=True)
class HandOver:
    """The hotseat handover to ``side`` (its own unit list hidden until it clicks)."""

    play: Scene
    side: str
    then_dff: bool = False


@dataclass(frozen=True)
class GameOver:
    """The end screen: the winner and the game's last shot."""

    play: Scene


@dataclass(frozen=True)
class ChooseStack:
    """The chooser of one unit from a stack of own units at a hex."""

    play: Scene
    units: Sequence[UnitRecord] = field(default_factory=list)
    """The units as the side may know them (their view dicts)."""
    pos: tuple[int, int] = (0, 0)


class Cancelled(Exception):
    """The screen showing a piece of work closed before it finished (:meth:`Progress.cancel`)."""


class Progress:
    """How far a long piece of work has got: written by the worker doing it, read by the
    screen that shows it (plain attributes: one writer, one reader). Once cancelled (the
    screen closed), the work's next step raises :class:`Cancelled`."""

    def __init__(self, stage: str = "") -> None:
        self.stage = stage
        self.done = 0
        self.total = 0
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True

    def step(self, done: int, total: int) -> None:
        if self.cancelled:
            raise Cancelled(self.stage)
        self.done, self.total = done, total

    def now(self, stage: str) -> None:
        """A new stage of the work (its count starts again)."""
        if self.cancelled:
            raise Cancelled(self.stage)
        self.stage, self.done, self.total = stage, 0, 0


@dataclass(frozen=True)
class Opening:
    """A file being opened, off the window's thread (building a large map's lines of sight
    or replaying a long save takes seconds): the window shows ``title`` and the progress and
    keeps answering. ``work(progress)`` returns the transition to make when it is done (or a
    function to call then, on the window's thread); an error it raises is given to
    ``failed`` (on the window's thread), else shown."""

    title: str
    work: Any
    """Callable[[Progress], Transition | Callable[[], None]]."""
    failed: Any = None
    """Callable[[Exception], None] | None."""
    dropped: Any = None
    """Callable[[], None] | None: what the work made is let go, its screen having closed
    before its result was taken (a game built: closed, its new autosave removed). Called
    once, on the worker's thread or the window's."""


Screen = (
    Start
    | Edit
    | OpenEditor
    | Play
    | Watch
    | Help
    | DffChance
    | HandOver
    | GameOver
    | ChooseStack
    | Opening
)


@dataclass(frozen=True)
class Push:
    """Open ``screen`` over the current one (Pop returns to it)."""

    screen: Screen


@dataclass(frozen=True)
class Replace:
    """Close every open screen and open ``screen``."""

    screen: Screen


@dataclass(frozen=True)
class Pop:
    """Close the top screen; the one below is shown again."""


@dataclass(frozen=True)
class Quit:
    """Close the window (the game is already saved: every action autosaves)."""


Transition = Push | Replace | Pop | Quit
