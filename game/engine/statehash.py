"""The state hash's framework: a dataclass's fields encoded in order into a tuple of plain values
(the replay checks take the SHA-256 of its ``repr``). A new field is hashed unless its metadata
says ``hash=False``, so it cannot silently drop out of the checks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any


class Flat(tuple):
    """An encoded field that contributes several values to a state key, in order."""


def encode_fields(obj: Any) -> tuple:
    """The state key of a dataclass: every field in order, through its ``encode`` metadata if
    it has one (a :class:`Flat` result adds several values), except fields marked
    ``hash=False``. A new field is hashed unless it says otherwise, so it cannot silently drop
    out of the replay checks."""
    out: list = []
    for name, encode in _hashed_fields(type(obj)):
        value = getattr(obj, name)
        if encode is not None:
            value = encode(value)
        if isinstance(value, Flat):
            out.extend(value)
        else:
            out.append(value)
    return tuple(out)


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
