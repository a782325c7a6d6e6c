"""Events: what happened, as a log a player understands, each with its dice and rules."""

from __future__ import annotations

from typing import Any, NamedTuple, NoReturn


class _NoData(dict):
    """The data of an event that has none: one shared empty dict that refuses to change (a
    named tuple's default is shared by every event made without data)."""

    def _refuse(self, *_args: Any, **_kwargs: Any) -> NoReturn:
        raise TypeError("an event's data does not change")

    __setitem__ = __delitem__ = __ior__ = _refuse
    update = setdefault = pop = popitem = clear = _refuse

    def __reduce__(self) -> tuple:  # pickled, copied and deep-copied: the one NO_DATA
        return (_no_data, ())


def _no_data() -> _NoData:
    return NO_DATA


NO_DATA = _NoData()


class Event(NamedTuple):
    """``kind``: a short word (fire, hit, move, phase, ...); ``text``: the log line;
    ``rules``: the rule ids it applied; ``dice``: every die drawn for it, in order. A named
    tuple: an immutable value made in C (a frozen dataclass's ``__init__`` set each field
    through ``object.__setattr__``, 2 us an event, a sixth of a set-up placement)."""

    kind: str
    text: str
    rules: tuple[str, ...] = ()
    dice: tuple[int, ...] = ()
    data: dict = NO_DATA
    secret: tuple[tuple[str, Event | None], ...] = ()
    """Hidden information: for a side that may not read this event as it is, the event as that
    side may read it (None: not at all). Made where the event is made, from what was secret
    then; :meth:`seen_by` reads it (the engine's knowledge door, ``knowledge.py``)."""

    def __str__(self) -> str:
        return self.text

    def seen_by(self, side: str | None) -> Event | None:
        """This event as ``side`` may read it (None: not at all; ``side=None``: everything)."""
        if side is not None:
            for who, seen in self.secret:
                if who == side:
                    return seen
        return self

    def hidden_from(self, side: str, seen: Event | None = None) -> Event:
        """This event, with ``side`` shown ``seen`` instead (None: nothing)."""
        if self.secret:
            secret = (*((w, e) for w, e in self.secret if w != side), (side, seen))
        else:  # the usual case: the first side it is hidden from
            secret = ((side, seen),)
        # the fields spelt out: ``dataclasses.replace`` cost a replay 5% of its time
        return Event(self.kind, self.text, self.rules, self.dice, self.data, secret)

    def to_json(self) -> dict:
        d: dict = {"kind": self.kind, "text": self.text}
        if self.rules:
            d["rules"] = list(self.rules)
        if self.dice:
            d["dice"] = list(self.dice)
        if self.data:
            d["data"] = self.data
        return d


if Event._fields != ("kind", "text", "rules", "dice", "data", "secret"):
    raise RuntimeError("Event.hidden_from spells out Event's fields: bring it up to date")
