"""What a save keeps of the computer (docs/ai.md "Reproducible"): its side and level, and at
level 3 the plan of the Movement Phase in progress, so that a game saved in its middle goes on
as it would have (issue 41: with the routes its kept plan drives)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from game.engine.actions import ActionError, action_from_json

_RECORD = ConfigDict(strict=True, extra="forbid")


def _moves(routes: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    for unit, route in routes.items():
        for i, a in enumerate(route):
            try:
                action_from_json(a)
            except ActionError as e:
                raise ValueError(f"{unit}[{i}]: {e}") from None
    return routes


_Id = Annotated[str, Field(max_length=64)]


class ScriptRecord(BaseModel):
    """Level 3's kept plan as its playouts' player plays it (docs/ai.md "Playing the plan
    kept"): that player's seed, the routes it drives and the units it keeps still."""

    model_config = _RECORD
    seed: Annotated[int, Field(ge=0, lt=2**64, description="a seed")]
    routes: Annotated[
        dict[_Id, Annotated[list[dict[str, Any]], Field(max_length=1000)]],
        Field(max_length=1000, description="unit id: its moves"),
        AfterValidator(_moves),
    ]
    stays: Annotated[list[_Id], Field(max_length=1000, description="unit ids")]


class PlanRecord(BaseModel):
    """Level 3: the plan its search chose for a Movement Phase (docs/ai.md), so that a game
    saved in the middle of that phase resumes by the same plan (and, when it was not level
    2's own, as its playouts played it: ``script``)."""

    model_config = _RECORD
    turn: Annotated[int, Field(ge=1, le=10**6, description="a turn number")]
    side: Annotated[str, Field(max_length=64, description="a side's name")]
    name: Annotated[str, Field(pattern=r"^[a-z]{1,32}$", description="a plan's name")]
    script: ScriptRecord | None = None


class ComputerRecord(BaseModel):
    """Which side the computer plays, at what level, and the plan of its Movement Phase in
    progress (level 3) (docs/ai.md)."""

    model_config = _RECORD
    side: Annotated[str, Field(max_length=64, description="a side's name")]
    level: Annotated[int, Field(ge=0, le=3, description="an integer 0-3")]
    plan: Annotated[PlanRecord | None, Field(description="{turn, side, name}")] = None
