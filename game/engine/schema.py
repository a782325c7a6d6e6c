"""Schemas by pydantic: the one translation of its validation errors into hexfire's own
located, one-line errors (``field.path: reason``), shared by actions, saves and scenarios.

pydantic (rather than msgspec) because it reports every error of a document in one pass, where
msgspec stops at the first; a scenario author fixes a file in one round. The figures that
weighed it are in docs/benchmarks.md ("Schemas")."""

from __future__ import annotations

import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

SHOWN_CHARS = 60
"""The most characters of a bad value an error repeats (a 100,000-character value is cut)."""


def shown(value: object) -> str:
    """``repr`` of a bad value, cut to :data:`SHOWN_CHARS` characters."""
    text = repr(value)
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 3] + "..."


@dataclass(frozen=True)
class Problem:
    """One validation error: where (``units[1].facing``) and why, in the project's words."""

    path: str
    reason: str


def path_of(loc: tuple[int | str, ...]) -> str:
    """pydantic's location as hexfire writes a field path: ``units[1].facing``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _inner(annotation: object) -> Iterator[object]:
    """The types an annotation may hold a value of: ``list[X]`` and ``dict[str, X]`` give X,
    ``X | None`` gives X; Annotated is unwrapped."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        yield from _inner(typing.get_args(annotation)[0])
    elif origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(annotation):
            if arg is not type(None):
                yield from _inner(arg)
    elif origin in (list, tuple):
        yield from _inner(typing.get_args(annotation)[0])
    elif origin is dict:
        yield from _inner(typing.get_args(annotation)[1])
    else:
        yield annotation


def _walk(
    model: type[BaseModel], loc: tuple[int | str, ...]
) -> tuple[type[BaseModel], FieldInfo | None]:
    """The model holding the last field of ``loc``, and that field (None when not a field)."""
    info: FieldInfo | None = None
    current: object = model
    holder = model
    for part in loc:
        if isinstance(current, type) and issubclass(current, BaseModel):
            holder = current
            info = current.model_fields.get(str(part))
            if info is None:
                return holder, None
            current = info.annotation
            continue
        # a list index or a dict key: step into the element type
        models = [t for t in _inner(current) if isinstance(t, type) and issubclass(t, BaseModel)]
        if models:
            current = models[0]
            info = None
    return holder, info


_PLAIN = {
    "a valid integer": "an integer",
    "a valid string": "a string",
    "a valid boolean": "true or false",
    "a valid number": "a number",
    "a valid dictionary": "a table",
    "a valid list": "a list",
}
"""pydantic's words for a wrong type, in the project's."""


def problems(model: type[BaseModel], error: ValidationError) -> list[Problem]:
    """Every error of ``error`` (from validating ``model``) in hexfire's words: a field's
    ``description`` says what it expects ("expected 0-5, got 7"); a validator's own message
    is kept; an unknown key names the keys known there."""
    out: list[Problem] = []
    for e in error.errors(include_url=False):
        loc = tuple(e["loc"])
        kind = e["type"]
        if kind in ("value_error", "assertion_error"):
            reason = str(e.get("ctx", {}).get("error", e["msg"]))
        elif kind == "missing":
            holder, info = _walk(model, loc)
            want = info.description if info is not None and info.description else None
            reason = f"missing (expected {want})" if want else "missing"
        elif kind == "extra_forbidden":
            holder, _ = _walk(model, loc[:-1] + ("",))
            known = ", ".join(sorted(f.alias or n for n, f in holder.model_fields.items()))
            reason = f"unknown key (expected one of {known})"
        else:
            _, info = _walk(model, loc)
            want = info.description if info is not None and info.description else None
            if want is None:
                want = e["msg"].removeprefix("Input should be ").rstrip(".")
                want = _PLAIN.get(want, want)
            reason = f"expected {want}, got {shown(e.get('input'))}"
        out.append(Problem(path_of(loc), reason))
    return out
