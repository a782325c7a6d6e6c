"""A side's view: one typed, immutable, serialisable value of everything side S may know now
(docs/architecture.md "Seats and views"; RD-11, C6.42, HX-12).

The screen, the replay viewer's one-side view, the computer player and (next) a remote window
read a :class:`View`, never the game. It is made from the engine's one door for hidden
information (:class:`.knowledge.Knowledge`): the units as S sees them (a "?" has its side and
hex and nothing else), the events as S may read them, the legal actions when S is to act, the
Defensive First Fire chance offered to S, the movement tracking S may see, the losses and the
victory conditions, and a ``version`` that grows with every change of the game (an action
applied or taken back).

Its JSON form (pydantic, as the saves) reads back equal: :func:`view_from_json`.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter

from .actions import Action, action_from_json
from .events import Event
from .vocabulary import PhaseName

VIEW_FORMAT = 1
"""The version of the view's JSON form (a remote window refuses a newer one)."""

_FROZEN = ConfigDict(frozen=True, extra="forbid")
_Model = TypeVar("_Model", bound=BaseModel)


def constructor(cls: type[_Model]) -> Callable[[dict[str, Any]], _Model]:
    """``cls.model_construct(**values)`` without pydantic's look at each field's aliases (issue
    43: 7-9 us a view or a unit, a tenth of a view's making): the fields in their order (the
    JSON's), the default of each not given (a mutable one copied), the fields given as its
    set fields. For a model with no alias, private attribute or post-init."""
    fields = cls.model_fields
    if cls.__private_attributes__ or cls.__pydantic_post_init__:
        raise TypeError(f"{cls.__name__}: private attributes or post-init")
    if any(f.alias or f.validation_alias for f in fields.values()):
        raise TypeError(f"{cls.__name__}: aliases")
    names = tuple(fields)
    known = frozenset(names)
    kept = {n: f.default for n, f in fields.items() if not f.is_required()}
    copied = {n for n, d in kept.items() if isinstance(d, (dict, list, set))}
    new, put = cls.__new__, object.__setattr__

    def make(values: dict[str, Any]) -> _Model:
        made = {}
        for name in names:
            if name in values:
                made[name] = values[name]
            elif name in kept:
                made[name] = copy.copy(kept[name]) if name in copied else kept[name]
        m = new(cls)
        put(m, "__dict__", made)
        put(m, "__pydantic_fields_set__", values.keys() & known)
        put(m, "__pydantic_extra__", None)
        put(m, "__pydantic_private__", None)
        return m

    return make


class UnitView(BaseModel):
    """One unit as a side sees it. A "?" (an enemy concealed unit, RD-11): ``type`` is "?" and
    every field past ``concealed`` is left at its default (no type, facing, Motion or state);
    an enemy's Bore Sighted Location is never shown (C6.42)."""

    model_config = _FROZEN

    id: str
    side: str
    hex: str
    concealed: bool = False
    type: str = "?"
    name: str = "?"
    category: str = ""
    facing: int = 0
    turret: int = 0
    turreted: bool = False
    has_gun: bool = False
    is_vehicle: bool = False
    status: str = "active"
    ce: bool = False
    immobilized: bool = False
    shock: str = "none"
    mp_spent: float = 0.0
    mp_left: float = 0.0
    entered_new_hex: bool = False
    motion: bool = False
    was_motion: bool = False
    moving: bool = False
    moved: bool = False
    fired: bool = False
    shots_this_phase: int = 0
    fired_prep: bool = False
    first_fired: bool = False
    acquisition: tuple[Any, ...] | None = None
    bore_sight: str | None = None
    fired_at_acquired: bool = False
    ammo: tuple[str, ...] = ()
    ammo_out: tuple[str, ...] = ()
    depletion: dict[str, int] = {}
    awaiting_setup: bool = False
    """An enemy unit that sets up after this side (HX-12): on its file's hex for now."""

    @property
    def unknown(self) -> bool:
        """A "?" to the side that sees it (RD-11)."""
        return self.type == "?"

    def __getitem__(self, key: str) -> Any:
        """Read a field by its name, as the screen's drawing code reads a unit's record."""
        try:
            return getattr(self, key)
        except AttributeError:
            raise KeyError(key) from None

    def get(self, key: str, default: Any = None) -> Any:
        """A field by its name; ``default`` for a "?"'s unknown fields and unknown names."""
        if self.unknown and key not in ("id", "side", "hex", "concealed", "type"):
            return default
        return getattr(self, key, default)


UnitRecord = UnitView | dict[str, Any]
"""A unit as the screen's drawing code reads it: a view's unit, or a record with its fields."""


class EventView(BaseModel):
    """One event as a side may read it (:meth:`Event.seen_by`): its kind, log line, the rules
    it applied and its dice."""

    model_config = _FROZEN

    kind: str
    text: str
    rules: tuple[str, ...] = ()
    dice: tuple[int, ...] = ()
    data: dict[str, Any] = {}

    def event(self) -> Event:
        """The engine's event value (what the log draws)."""
        return Event(self.kind, self.text, self.rules, self.dice, dict(self.data))


def event_view(event: Event) -> EventView:
    """An event (already as the side may read it) as its view value."""
    return _event(
        {
            "kind": event.kind,
            "text": event.text,
            "rules": tuple(event.rules),
            "dice": tuple(event.dice),
            "data": dict(event.data) if event.data else {},
        }
    )


_event = constructor(EventView)


class TrackRow(BaseModel):
    """C6.15: one enemy firer the side knows, the MP of this move in its LOS, and whether it
    began the move there (exempt from J1 / J2)."""

    model_config = _FROZEN

    firer: str
    mp: float
    exempt: bool
    shot_mp: float | None = None
    """The MP in its LOS a Defensive First Fire shot now would count, the odds panel's (C6.17:
    the fewest MP of the Location that give its best Case J); None: no shot left here."""
    case: str = ""
    """That shot's Case J DRM, as the odds panel says it: "+3 Case J1 (C6.11)"."""


class TrackingView(BaseModel):
    """While a vehicle the side can see moves (C6.15-.16): its hex, whether it has entered a
    hex (Case J, C6.1; always True of a "?", whose Motion is not known) and each known firer's
    MP in LOS."""

    model_config = _FROZEN

    hex: str
    moved: bool
    rows: tuple[TrackRow, ...] = ()


class DffOffer(BaseModel):
    """A Defensive First Fire chance offered to this side (C6.17): at the moving unit, with the
    units of this side that may fire. Shown to the defender only: the mover is told nothing
    of who could fire (RD-11)."""

    model_config = _FROZEN

    mover: str
    hex: str
    firers: tuple[str, ...]


class View(BaseModel):
    """What ``side`` may know now (``side`` None: the whole game, the replay viewer's view of
    both sides). ``acting``: the side the game waits for (the defender during a Defensive
    First Fire chance); ``legal``: the actions this side may take now, in the engine's JSON
    form (empty when another side acts; a set-up phase lists its set-up choices but no
    placement and no bore sight: those are asked hex by hex, a big map's are thousands,
    HX-12, C6.42)."""

    model_config = _FROZEN

    format: int = VIEW_FORMAT
    version: int
    side: str | None
    title: str
    sides: tuple[str, str]
    defender: str
    first: str
    to_kill: str
    turns: int
    turn: int
    phase: PhaseName
    phase_title: str
    phasing: str
    non_phasing: str
    acting: str | None
    over: bool
    winner: str | None = None
    end_reason: str = ""
    moving_unit: str | None = None
    units: tuple[UnitView, ...]
    events: tuple[EventView, ...]
    legal: tuple[dict[str, Any], ...] = ()
    placeable: tuple[str, ...] = ()
    dff: DffOffer | None = None
    tracking: TrackingView | None = None
    losses: dict[str, tuple[str, ...]] = {}
    victory: tuple[str, ...] = ()

    def unit(self, unit_id: str | None) -> UnitView | None:
        """The unit ``unit_id`` as this side sees it (None: not in play, or no id)."""
        if unit_id is None:
            return None
        for u in self.units:
            if u.id == unit_id:
                return u
        return None

    def legal_actions(self) -> list[Action]:
        """:attr:`legal` as the engine's action values."""
        return [action_from_json(a) for a in self.legal]

    def to_json(self) -> str:
        """The view's JSON form (what a remote window receives): its events' JSON made once
        each and joined, the rest made now; the last views' forms are kept (a server sends a
        view, then is asked its digest)."""
        return _made(self)[0]

    def to_json_after(self, kept: int) -> str:
        """The JSON form of this view with only its events after the first ``kept`` (the
        wire's view message: the client holds those, :func:`game.net.delta.extend`)."""
        text, cut = _made(self)
        new = _EVENTS.dump_json(self.events[kept:]).decode()
        return f'{text[:cut]},"events":{new}}}'


made_view = constructor(View)
made_unit = constructor(UnitView)
_EVENTS = TypeAdapter(tuple[EventView, ...])
_MADE: list[tuple[View, str, int]] = []
"""The JSON form of the last views made into JSON (:meth:`View.to_json`), newest last, each with
where its events begin."""
MADE_KEPT = 8
_JOINED: dict[int, tuple[tuple[EventView, ...], str]] = {}
"""The JSON of the latest events of each side's views (the inside of the array) by the id of
their first event (kept alive by the entry): a side's next view holds the same events and a few
more, so only those are serialised. Keyed by side, not a few latest views: a server holding
hundreds of games made each view's 27 KB of events afresh once the others' came between."""
JOINED_KEPT = 4096


def _made(view: View) -> tuple[str, int]:
    for made, text, cut in _MADE:
        if made is view:
            return text, cut
    head = view.model_dump_json(exclude={"events"})
    text = f'{head[:-1]},"events":[{_events_json(view.events)}]}}'
    _MADE.append((view, text, len(head) - 1))
    del _MADE[:-MADE_KEPT]
    return text, len(head) - 1


def _events_json(events: tuple[EventView, ...]) -> str:
    """The inside of ``events``' JSON array, extending the one kept for events beginning with
    the same event value when they begin ``events`` (a :class:`Seer` hands each side the same
    event values from view to view; a remote window keeps those it holds)."""
    if not events:
        return ""
    key = id(events[0])
    kept = _JOINED.pop(key, None)
    base: tuple[EventView, ...] = ()
    text = ""
    if kept is not None:
        old, n = kept[0], len(kept[0])
        if old is events or (n <= len(events) and old[0] is events[0] and old[-1] is events[n - 1]):
            base, text = kept
    if len(base) < len(events):
        new = _EVENTS.dump_json(events[len(base) :]).decode()[1:-1]
        text = f"{text},{new}" if text else new
    if kept is not None and len(kept[0]) > len(events) and base is not kept[0]:
        _JOINED[key] = kept  # a shorter view (an undo's, or an older one): the longer is kept
    else:
        _JOINED[key] = (events, text)
    while len(_JOINED) > JOINED_KEPT:
        del _JOINED[next(iter(_JOINED))]
    return text


def view_from_json(text: str | bytes) -> View:
    """Read a view's JSON form back (validated: a malformed view is refused by pydantic)."""
    return View.model_validate_json(text)


def view_schema() -> dict:
    """The JSON schema of the view (docs, and the remote window's check)."""
    return View.model_json_schema()


class Seer:
    """Makes the views of one game: each side's readable events are kept and extended as the
    history grows (a view is made after every action: filtering the whole history each time
    would grow with the game), made anew when the history was rewritten (an undo replays the
    game: its events are new values); and each side's view version (:meth:`stamp`)."""

    def __init__(self) -> None:
        self._seen: dict[str | None, _Read] = {}
        self._stamps: dict[str | None, tuple[int, int, View]] = {}
        self._resumed: dict[str | None, tuple[int, str | None]] = {}
        self._digests: dict[str | None, tuple[View, str]] = {}
        self._kept: dict[tuple[str | None, str], tuple[Any, Any]] = {}

    def reuse(self, side: str | None, key: str, record: Any, make: Callable[[], Any]) -> Any:
        """The value ``make()`` gave for ``side``'s ``key`` last time, if it was made from a
        ``record`` equal to this one; else ``make()``'s now (a view's units: most are the same
        from one view to the next, and comparing a unit's record costs far less than making
        its view value, issue 43)."""
        kept = self._kept.get((side, key))
        if kept is not None and kept[0] == record:
            return kept[1]
        value = make()
        self._kept[side, key] = (record, value)
        return value

    def resume(self, side: str | None, version: int, digest: str | None = None) -> None:
        """``side``'s views go on from ``version`` (a game rebuilt from its store, not from 0):
        with ``digest`` (:meth:`shown`'s) the next view made here keeps ``version`` if it is
        the one shown then, else it is one more; without, it takes ``version``."""
        self._resumed[side] = (version, digest)

    def shown(self, side: str | None) -> tuple[int, str] | None:
        """The version and the SHA-256 of ``side``'s last view made here (or of the one it was
        resumed from), without making one: what a store keeps so that a view made later, or
        after a restart, gets the version :meth:`stamp` would give it (issue 43: a server wrote
        every seat's view version after every action, making views no one was shown)."""
        last = self._stamps.get(side)
        if last is None:
            resumed = self._resumed.get(side)
            return None if resumed is None or resumed[1] is None else (resumed[0], resumed[1])
        kept = self._digests.get(side)
        if kept is None or kept[0] is not last[2]:
            kept = (last[2], hashlib.sha256(last[2].to_json().encode("utf-8")).hexdigest())
            self._digests[side] = kept
        return last[0], kept[1]

    def carry(self, other: Seer, side: str) -> None:
        """``side``'s views go on from the last one ``other`` made (a game rebuilt after
        another server process changed it: the version rises only if what it shows did)."""
        last = other._stamps.get(side)
        if last is not None:
            self._stamps[side] = (last[0], -1, last[2])
            self._resumed.pop(side, None)

    def resumed(self) -> set[str | None]:
        """The sides resumed (:meth:`resume`) whose next view is not made yet."""
        return set(self._resumed)

    def stamp(self, view: View, change: int) -> View:
        """``view`` with its side's version: one more than the last view of that side made
        here whenever what it shows changed; else that last view itself (its JSON and digest
        made once, issue 43). ``change`` counts the game's changes (actions
        applied and taken back): a side's version never counts a change it cannot see (an
        action whose number it would see would tell it a secret one was taken, C6.42)."""
        last = self._stamps.get(view.side)
        if last is None:
            version, digest = self._resumed.pop(view.side, (0, None))
            if digest is not None:
                was = view.model_copy(update={"version": version})
                if hashlib.sha256(was.to_json().encode("utf-8")).hexdigest() != digest:
                    version += 1
        elif last[1] == change:
            return last[2]
        elif {**last[2].__dict__, "version": view.version} == view.__dict__:
            self._stamps[view.side] = (last[0], change, last[2])  # the same view: kept (its
            return last[2]  # JSON and digest are made already)
        else:
            version = last[0] + 1
        stamped = view.model_copy(update={"version": version})
        self._stamps[view.side] = (version, change, stamped)
        return stamped

    def events(self, history: list[Event], side: str | None) -> tuple[EventView, ...]:
        """The events of ``history`` as ``side`` may read them, as view values."""
        read = self._seen.get(side)
        if (
            read is None
            or read.upto > len(history)
            or (read.upto and history[read.upto - 1] is not read.last)
        ):
            read = self._seen[side] = _Read()
        for e in history[read.upto :]:
            s = e.seen_by(side)
            if s is not None:
                read.seen.append(event_view(s))
        read.upto = len(history)
        read.last = history[-1] if history else None
        if len(read.seen) != len(read.shown):
            read.shown = tuple(read.seen)
        return read.shown


class _Read:
    """One side's events read so far (:class:`Seer`)."""

    def __init__(self) -> None:
        self.seen: list[EventView] = []
        self.shown: tuple[EventView, ...] = ()
        self.upto = 0
        self.last: Event | None = None
