"""A seat's questions answered by the server (the wire's ``ask``): the question's name is a
method of the seat's :class:`~game.engine.table.Table`, asked with its side, so the answer is
computed from that side's knowledge exactly as a local screen's would be; the answer is made
plain JSON (:func:`plain`)."""

from __future__ import annotations

import dataclasses
import hashlib
import math
from collections.abc import Callable
from typing import Any

import numpy as np
from pydantic import BaseModel

from game.engine.actions import Action, action_from_json
from game.engine.knowledge import ShotOdds
from game.engine.table import Table

ARGS: dict[str, tuple[type | tuple[type, ...], ...]] = {
    "odds": (str, str, (str, type(None))),
    "fire_map": (str, (str, type(None))),
    "threat_map": (str,),
    "threat_here": (str,),
    "threat_facings": (str,),
    "attack_map": (str,),
    "move_costs": (str,),
    "route": (str, str),
    "reachable": (str,),
    "setup_area": (),
    "setup_hexes": (str,),
    "viewshed": (str,),
    "exit_edge": (str, (int, type(None))),
    "check": (dict,),
    "can_act": (),
    "nothing_to_do": (),
    "setup_choices": (),
    "name": (str,),
    "where": (str,),
    "unit_type": (str,),
    "known_enemies": (),
    "out_of_play": (),
    "exited": (str, (str, type(None))),
    "gone": (str,),
    "home_hexes": (),
    "digest": (),
}
"""Each question's arguments (their JSON types, the optional last ones may be left out)."""


class BadQuestion(ValueError):
    """A question asked with the wrong arguments (one line)."""


def plain(value: Any) -> Any:
    """``value`` as JSON values: an action by its JSON form, a dataclass as an object of its
    fields, a pydantic model dumped, tuples and sets as lists, numpy arrays as lists, a
    non-finite float as None."""
    if isinstance(value, Action):
        return value.to_json()
    if isinstance(value, ShotOdds):
        return {
            "report": plain(value.report),
            "p": plain(value.odds.p) if value.odds is not None else None,
        }
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted(plain(v) for v in value)
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return plain(value.item())
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def answer(table: Table, question: str, args: list[Any]) -> Any:
    """The answer of ``table`` to ``question`` (plain JSON); BadQuestion for wrong arguments,
    IllegalAction (the table's own refusal, with its reason) as the table raises it."""
    kinds = ARGS.get(question)
    if kinds is None:
        raise BadQuestion(f"unknown question {question!r}")
    if len(args) > len(kinds):
        raise BadQuestion(f"{question}: at most {len(kinds)} arguments")
    for i, (arg, kind) in enumerate(zip(args, kinds, strict=False)):
        if isinstance(arg, bool) and kind is not bool or not isinstance(arg, kind):
            raise BadQuestion(f"{question}: argument {i + 1} has the wrong type")
        if isinstance(arg, str) and len(arg) > 200:
            raise BadQuestion(f"{question}: argument {i + 1} is too long")
    needed = sum(1 for k in kinds if not (isinstance(k, tuple) and type(None) in k))
    if len(args) < needed:
        raise BadQuestion(f"{question}: {needed} argument{'s' * (needed != 1)} needed")
    if question == "digest":  # the SHA-256 of the seat's view now (a client's desync check)
        return hashlib.sha256(table.view.to_json().encode("utf-8")).hexdigest()
    if question == "check":
        try:
            action = action_from_json(args[0])
        except ValueError as e:
            raise BadQuestion(f"check: {e}") from None
        return table.check(action)
    method: Callable[..., Any] = getattr(table, question)
    return plain(method(*args))
