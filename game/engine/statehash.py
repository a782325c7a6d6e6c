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
    out of the replay checks. Read by a function made once per class from its fields
    (:func:`_compiled`; :func:`encode_fields_by_steps` is the reference it is tested against)."""
    cls = type(obj)
    encode = _ENCODERS.get(cls)
    if encode is None:
        encode = _ENCODERS[cls] = _compiled(cls)
    return encode(obj)


_ENCODERS: dict[type, Callable[[Any], tuple]] = {}


def _compiled(cls: type) -> Callable[[Any], tuple]:
    """The state key of ``cls`` as one tuple expression of its hashed fields in order, made
    once, as :mod:`dataclasses` makes ``__init__``: a plain field is read, an encoded one
    goes through its encoder, a :class:`Flat` result spread (the state hash reads two keys
    after every action; the loop over steps was a fifth of opening a long save)."""
    names: dict[str, Any] = {"Flat": Flat}
    parts = []
    for k, (name, encode) in enumerate(_hashed_fields(cls)):
        if not name.isidentifier():
            raise ValueError(f"{cls.__name__}: field {name!r} is not an identifier")
        if encode is None:
            parts.append(f"obj.{name},")
        else:
            names[f"_e{k}"] = encode
            parts.append(f"*(v if type(v := _e{k}(obj.{name})) is Flat else (v,)),")
    source = "def encode(obj):\n    return (" + " ".join(parts) + ")\n"
    exec(source, names)  # made from the class's own field names, checked above
    made: Callable[[Any], tuple] = names["encode"]
    return made


def encode_fields_by_steps(obj: Any) -> tuple:
    """:func:`encode_fields` read field by field, the plain way (the reference the tests hold
    the made function to)."""
    out: list = []
    for name, encode in _hashed_fields(type(obj)):
        value = getattr(obj, name)
        if encode is None:
            out.append(value)
            continue
        value = encode(value)
        if type(value) is Flat:
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
