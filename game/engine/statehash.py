"""The state hash's framework: a dataclass's fields encoded in order into a tuple of plain values
(the replay checks take the SHA-256 of its ``repr``). A new field is hashed unless its metadata
says ``hash=False``, so it cannot silently drop out of the checks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from operator import attrgetter
from typing import Any


class Flat(tuple):
    """An encoded field that contributes several values to a state key, in order."""


def encode_fields(obj: Any) -> tuple:
    """The state key of a dataclass: every field in order, through its ``encode`` metadata if
    it has one (a :class:`Flat` result adds several values), except fields marked
    ``hash=False``. A new field is hashed unless it says otherwise, so it cannot silently drop
    out of the replay checks."""
    out: list = []
    for plain, name, encode in _steps(type(obj)):
        if plain is not None:  # a run of fields with no encoder, read at once
            out.extend(plain(obj))
            continue
        value = encode(getattr(obj, name))
        if type(value) is Flat:
            out.extend(value)
        else:
            out.append(value)
    return tuple(out)


_STEPS: dict[type, tuple] = {}


def _steps(cls: type) -> tuple:
    """The hashed fields of ``cls`` in order as steps: (a getter of a run of plain fields as a
    tuple, None, None) or (None, the field, its encoder); the same key as field by field, read
    faster (the replay checks take it after every action)."""
    got = _STEPS.get(cls)
    if got is None:
        steps: list[tuple] = []
        run: list[str] = []
        for name, encode in _hashed_fields(cls):
            if encode is None:
                run.append(name)
                continue
            if run:
                steps.append((_getter(run), None, None))
                run = []
            steps.append((None, name, encode))
        if run:
            steps.append((_getter(run), None, None))
        got = _STEPS[cls] = tuple(steps)
    return got


def _getter(names: list[str]) -> Callable[[Any], tuple]:
    """A getter of the fields ``names`` of an object, as a tuple (one name too)."""
    if len(names) == 1:
        name = names[0]
        return lambda obj: (getattr(obj, name),)
    return attrgetter(*names)


_FIELDS: dict[type, tuple[tuple[str, Callable[[Any], Any] | None], ...]] = {}


def _hashed_fields(cls: type) -> tuple[tuple[str, Callable[[Any], Any] | None], ...]:
    """The hashed fields of a dataclass in order, with their encoders (read once per class:
    ``dataclasses.fields`` is slow for a hash taken after every action)."""
    got = _FIELDS.get(cls)
    if got is None:
        got = _FIELDS[cls] = tuple(
            (f.name, f.metadata.get("encode")) for f in fields(cls) if f.metadata.get("hash", True)
        )
    return got


NOT_HASHED: dict[str, Any] = {"hash": False}
"""Field metadata: not part of the state key (constant, or rebuilt from the scenario)."""
