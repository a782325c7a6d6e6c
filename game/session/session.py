"""A session: one game, its autosave and undo, and its seats (docs/architecture.md "Seats and
views").

The session owns the game; nobody else holds it. Each side has a :class:`Seat`: a human at
this screen, the computer, or (next) a remote player. The session decides who acts next
(:meth:`Session.next_step`: a handover between two humans at one screen, the Defensive First
Fire prompt to the right seat, the computer's turn, the end), takes each seat's actions
through the game's one door (:meth:`Session.submit`, refused when it is not that seat's turn),
passes the phases in which the side to act can do nothing (HX-15), and hands each seat its
:class:`~.table.Table`: its view and the questions it may ask.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from game.ai import ComputerPlayer, Decision
from game.engine import IllegalAction
from game.engine.actions import Action, EndPhase
from game.engine.events import Event
from game.engine.phases import PHASES
from game.engine.table import Table
from game.engine.view import Seer, View
from game.engine.vocabulary import PhaseName
from game.files.lesson import Lesson
from game.files.savegame import SavedGame
from game.files.session import Autosave

SeatKind = Literal["human", "computer", "remote"]

MAX_PASSES = 12
"""The most phases passed by themselves in a row (HX-15): a game turn has fewer."""

SEEN_CHOICES = frozenset(
    ("move", "turn", "end_move", "fire", "end_phase", "button_up", "crew_exposed")
)
"""The computer's actions another seat is told of with its reasons: what both sides see
happen. Never its set-up choices (where it bore sights and what it conceals are its secrets,
C6.42, RD-11), nor a Defensive First Fire chance it passed up (the mover would learn that a
unit it may not see could fire there, RD-11)."""
PLAIN_WHY = {"end_phase": "ends the phase"}
"""What the log says of the computer's phase ends instead of its reasons (those read its
secrets too: a shot held back at Limited Aim says the aim; RD-11, C6.17)."""


@dataclass(frozen=True, slots=True)
class Seat:
    """Who plays a side: a human at this screen, the computer, or a remote player."""

    side: str
    kind: SeatKind = "human"


@dataclass(frozen=True, slots=True)
class Step:
    """What the session waits for next, for the screen showing ``viewer``'s view.

    ``kind``: "over" (the end screen), "computer" (the computer's action is due), "handover"
    (the screen passes to ``side``; ``then_dff``: its Defensive First Fire prompt follows),
    "dff" (``side``'s Defensive First Fire prompt, at the screen now), "act" (``side``
    acts at the screen), or "remote" (a seat on a server waits for ``side``, elsewhere:
    game.net.remote)."""

    kind: Literal["over", "computer", "handover", "dff", "act", "remote"]
    side: str | None = None
    then_dff: bool = False


@dataclass(frozen=True, slots=True)
class ComputerMove:
    """The computer's action, applied: the line another seat's log may show of it (None: what
    it did is its secret) and the events."""

    side: str
    action: Action
    note: str | None
    events: list[Event]


@dataclass(frozen=True, slots=True)
class ComputerChoice:
    """The computer's decision, not yet taken (:meth:`Session.computer_decide`): made at the
    game's ``version`` (taken only if the game is still there), with the plan it keeps."""

    side: str
    decision: Decision
    plan: dict | None
    version: int


def phase_name(phase: PhaseName, phasing: str, to_act: str | None) -> str:
    """A phase as the phase bar names it: by its player turn (RD-12), with the side to act
    when that is the other side (the Defensive Fire Phase); a set-up phase by the side that
    sets up (HX-12)."""
    title = PHASES[phase].title
    if phase in ("setup", "setup_attacker"):
        return f"{(to_act or phasing).title()} {title}"
    other = f" ({to_act.title()} to act)" if to_act and to_act != phasing else ""
    return f"{phasing.title()} {title}{other}"


class Session:
    """A game in play with its autosave (:class:`Autosave`), its seats and its computer player.

    ``computer``: the computer's player when a seat is the computer's (its side's seat is
    "computer"); ``lesson``: the scenario's steps (one learner plays both sides: no handover
    screens)."""

    def __init__(
        self,
        autosave: Autosave,
        computer: ComputerPlayer | None = None,
        lesson: Lesson | None = None,
        remote: bool = False,
    ):
        self._autosave = autosave
        self.computer = computer
        self.lesson = lesson if lesson is not None else autosave.lesson
        sides = autosave.game.setup.sides
        other: SeatKind = "remote" if remote else "human"
        self.seats: dict[str, Seat] = {
            s: Seat(s, "computer" if computer is not None and computer.side == s else other)
            for s in sides
        }
        """``remote``: every seat but the computer's is a player elsewhere (a server's game,
        game.server): its actions come through :meth:`Table.submit` as a human's do here."""
        self.version = 0
        """Grows with every change of the game (an action applied or taken back)."""
        self._seer = Seer()
        self._tables: dict[str | None, Table] = {}

    @classmethod
    def of(cls, autosave: Autosave) -> Session:
        """The session of an autosave: the computer its save names (seeded from the game's
        seed: a resumed game goes on as it would have, docs/ai.md), else two humans."""
        spec = getattr(autosave.saved, "computer", None)
        game = autosave.game
        player = None
        if spec and spec.get("side") in game.setup.sides:
            player = ComputerPlayer(spec["side"], int(spec.get("level", 2)), seed=game.seed)
            if isinstance(spec.get("plan"), dict):
                player.resume_plan(spec["plan"])
        return cls(autosave, player)

    @property
    def game(self):  # -> Game (not annotated: the screen has no business with its type)
        """The game itself: for the tests and a server's referee. No seat reads it: the screen
        and the computer see their tables (tests/session/test_seats.py holds ``game.ui`` to
        that)."""
        return self._autosave.game

    @property
    def autosave(self) -> Autosave:
        return self._autosave

    # --- the file ----------------------------------------------------------------------------

    @property
    def path(self) -> Path | None:
        return self._autosave.path

    @property
    def save_error(self) -> str | None:
        """Why the last save failed (a full disk), or None."""
        return self._autosave.save_error

    @property
    def saved(self) -> SavedGame:
        """The save (the scenario, the seed and the actions): the replay viewer opens it."""
        return self._autosave.saved

    @property
    def saved_actions(self) -> list[dict]:
        """The actions saved so far, each in the engine's JSON form with its check."""
        return self._autosave.saved.actions

    def save_as(self, path: str | Path) -> None:
        self._autosave.save_as(path)

    def retry_save(self) -> bool:
        """A failed save written again if it can be now (:meth:`Autosave.retry`)."""
        return self._autosave.retry()

    def close(self) -> None:
        self._autosave.close()

    # --- seats and views ---------------------------------------------------------------------

    @property
    def sides(self) -> tuple[str, str]:
        return self._autosave.game.setup.sides

    @property
    def humans(self) -> list[str]:
        """The sides played by a human at this screen."""
        return [s for s, seat in self.seats.items() if seat.kind == "human"]

    @property
    def computer_side(self) -> str | None:
        return self.computer.side if self.computer is not None else None

    @property
    def acting(self) -> str | None:
        """The side the game waits for now (None: the game is over)."""
        game = self._autosave.game
        return None if game.over else game.to_act

    def table(self, side: str | None) -> Table:
        """``side``'s table now: its view and the questions it may ask (``side`` None: both
        sides, for a screen shared by one learner before it knows whose turn it is)."""
        table = self._tables.get(side)
        if table is None or table.version != self.version:
            table = Table(self._autosave.game, side, self.version, self._seer, self._submit)
            self._tables[side] = table
        return table

    def view(self, side: str | None) -> View:
        """``side``'s view now (:class:`View`)."""
        return self.table(side).view

    def resume_version(self, side: str, version: int, digest: str | None = None) -> None:
        """``side``'s view goes on from ``version`` (a server's game rebuilt from its store;
        ``digest``: :meth:`Seer.resume`'s)."""
        self._seer.resume(side, version, digest)
        self._tables.clear()

    def shown(self, side: str) -> tuple[int, str] | None:
        """``side``'s last view's version and SHA-256, without making a view
        (:meth:`Seer.shown`)."""
        return self._seer.shown(side)

    def resumed(self) -> set[str | None]:
        """The sides resumed from a stored version whose next view is not made yet."""
        return self._seer.resumed()

    def carry_view(self, old: Session, side: str) -> None:
        """``side``'s view goes on from ``old``'s last (the same game, rebuilt with more
        actions): its version rises only if what the side sees changed."""
        self._seer.carry(old._seer, side)
        self._tables.clear()

    def refresh(self) -> None:
        """The game was changed other than by an action (a test's hand): every view afresh."""
        self._changed()

    def _changed(self) -> None:
        self.version += 1
        self._tables.clear()

    # --- the door ----------------------------------------------------------------------------

    def _submit(self, side: str | None, action: Action) -> list[Event]:
        """Apply ``action`` for ``side``: refused unless ``side`` is the one to act and its
        seat is at this session's command (a human's seat here, or a remote player's on a
        server; the computer acts through :meth:`computer_move`)."""
        acting = self.acting
        if acting is None:
            raise IllegalAction("game_over", "the game is over")
        if side is not None and side != acting:
            raise IllegalAction("not_your_turn", f"{acting.title()} acts now, not {side.title()}")
        if self.seats[acting].kind == "computer":
            raise IllegalAction(
                "not_your_turn", f"the computer plays {acting.title()}: wait for it"
            )
        return self._apply(action)

    def _apply(self, action: Action) -> list[Event]:
        events = self._autosave.apply(action)
        self._changed()
        return events

    def undo(self, side: str | None) -> str | None:
        """Take back ``side``'s last action (RD-19: each action type declares whether it can be
        taken back and what blocks it); why not, or None when undone."""
        game = self._autosave.game
        if side is not None and game.to_act != side and not game.over:
            return f"{game.to_act.title()} acts now: only the side to act takes back"
        why = self._autosave.undo()
        if why is None:
            self._changed()
        return why

    # --- who acts next -----------------------------------------------------------------------

    def next_step(self, viewer: str | None, strict: bool = False) -> Step:
        """What comes next for a screen showing ``viewer``'s view. Between two humans at one
        screen a handover covers the map whenever the side to act changes; a Defensive First
        Fire chance goes to the defender's seat, with a handover first when Strict hotseat is
        on or when the prompt would show the mover a unit it may not see (RD-11); a lesson's
        one learner takes each side in turn without one."""
        acting = self.acting
        if acting is None:
            return Step("over")
        game = self._autosave.game
        dff = bool(game.dff_pending)
        if self.seats[acting].kind == "computer":
            return Step("computer", acting)
        if self.lesson is not None or self.computer is not None:
            return Step("dff" if dff else "act", acting)
        if dff:
            if viewer != acting and (strict or self._prompt_tells(viewer)):
                return Step("handover", acting, then_dff=True)
            return Step("dff", acting)
        if viewer != acting:
            return Step("handover", acting)
        return Step("act", acting)

    def _prompt_tells(self, viewer: str | None) -> bool:
        """Whether the Defensive First Fire prompt would show ``viewer`` a unit it may not
        see (a concealed firer, RD-11)."""
        if viewer is None:
            return True
        game = self._autosave.game
        known = game.knowledge(viewer)
        return any(known.hidden(game.state.unit(f)) for f in game.dff_pending)

    def pass_idle_phases(self) -> tuple[list[str], int]:
        """HX-15: while the side to act can do nothing but end its phase, the phase ends by
        itself (through the autosave, like a press of End Phase). Returns the phases passed,
        each named by its player turn as the phase bar and the log's phase lines name it
        ("Russian Prep Fire Phase"; "Russian Defensive Fire Phase (German to act)": it was
        "German Defensive Fire Phase", the same phase by the other side), and the history's
        length before the first."""
        game = self._autosave.game
        first = len(game.history)
        passed: list[str] = []
        for _ in range(MAX_PASSES):
            game = self._autosave.game
            if game.over or not game.nothing_to_do():
                break
            passed.append(phase_name(game.phase, game.phasing, game.to_act))
            try:
                self._apply(EndPhase())
            except IllegalAction:
                passed.pop()
                break
        return passed, first

    # --- the computer ------------------------------------------------------------------------

    def computer_acts(self) -> bool:
        """Whether the computer's action is due (its phase, or its Defensive First Fire chance
        during the human's move)."""
        acting = self.acting
        return acting is not None and self.seats[acting].kind == "computer"

    def computer_move(self, watcher: str | None) -> ComputerMove:
        """Let the computer decide and take its action; the line ``watcher``'s log may show
        of it (never its secrets: its set-up choices, a "?" of its, a chance passed up)."""
        move = self.computer_take(self.computer_decide(), watcher)
        assert move is not None  # decided and taken at the same version
        return move

    def computer_decide(self) -> ComputerChoice:
        """The computer's decision on its side's table, nothing changed: it only reads the
        game, so a window runs it off its thread (level 3 thinks for seconds) and takes it
        with :meth:`computer_take`."""
        computer = self.computer
        if computer is None or not self.computer_acts():
            raise IllegalAction("not_your_turn", "the computer does not act now")
        version = self.version
        table = self.table(computer.side)  # its side's view and questions, never the game
        decision: Decision = computer.choose(table)
        plan = computer.plan_record(table)  # level 3: kept with the game (docs/ai.md)
        return ComputerChoice(computer.side, decision, plan, version)

    def computer_take(self, choice: ComputerChoice, watcher: str | None) -> ComputerMove | None:
        """Take the decided action (None when the game changed since it was decided: an undo,
        a phase passed; the computer decides again), with the line ``watcher``'s log may show
        of it."""
        computer = self.computer
        if computer is None or choice.version != self.version or not self.computer_acts():
            return None
        game = self._autosave.game
        spec = getattr(self._autosave.saved, "computer", None)
        if choice.plan is not None and spec is not None and spec.get("plan") != choice.plan:
            spec["plan"] = choice.plan
        table = self.table(computer.side)
        action = table.engine_action(choice.decision.action)  # a "?" target by its id
        note: str | None = None
        if action.type in SEEN_CHOICES:
            actor = getattr(action, "unit", None)
            hidden = (
                actor is not None
                and watcher is not None
                and (game.knowledge(watcher).hidden(game.state.unit(actor)))
            )
            if not hidden:  # a "?" to the watcher: its reasons tell what it is (RD-11)
                why = PLAIN_WHY.get(action.type, choice.decision.why)
                note = f"{computer.side.title()} (computer): {why}"
        events = self._apply(action)
        return ComputerMove(computer.side, action, note, events)
