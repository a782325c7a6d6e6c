"""A side's view (docs/architecture.md "Seats and views"): everything one side may know now as
one immutable :class:`View`, built from the knowledge door (:class:`Knowledge`), with each enemy
"?" named by its alias (RD-11), never by its id."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from .actions import Action, BoreSight, Place
from .knowledge import Knowledge
from .legal import iter_candidates
from .phases import PHASES
from .play.victory import eliminated_afvs, exited
from .setup import Victory
from .state import GameState
from .view import DffOffer, Seer, TrackingView, TrackRow, UnitView, View, made_unit, made_view


def side_view(
    state: GameState,
    side: str | None,
    version: int,
    seer: Seer | None,
    allowed: Callable[[Action], bool],
    placeable: Callable[[], list[str]],
    legal: Legal | None = None,
) -> View:
    """Everything ``side`` may know now as one immutable value (:class:`View`, its JSON form
    what a remote window receives); ``version`` grows with every change of the game;
    ``seer`` keeps each side's readable events from one view to the next, and its view
    version: it grows with every change of what this side is shown (never with a change it
    may not see). ``legal``: :func:`shown_legal`'s, already made for this state (else made
    now)."""
    knows = Knowledge(state, side)
    alias = hidden_aliases(state, side)
    if seer is None:
        units = tuple(unit_view(d, alias) for d in knows.units())
    else:  # a unit's view value made again only when its record or the aliases changed
        units = tuple(
            seer.reuse(side, d["id"], (d, alias), partial(unit_view, d, alias))
            for d in knows.units()
        )
    acting = None if state.over else state.to_act
    legal_json, placeable_ids = (
        shown_legal(state, side, alias, allowed, placeable) if legal is None else legal
    )
    dff = None
    if state.dff_pending and state.moving_unit and side in (None, state.non_phasing):
        mover = state.unit(state.moving_unit)
        dff = DffOffer(
            mover=alias.get(mover.id, mover.id), hex=mover.label, firers=state.dff_pending
        )
    track = knows.tracking()
    tracking = (
        None
        if track is None
        else TrackingView(
            hex=track.hex,
            moved=bool(track.moved),
            rows=tuple(
                TrackRow(firer=n, mp=mp, exempt=ex, shot_mp=shot, case=case)
                for n, mp, ex, shot, case in track.rows
            ),
        )
    )
    moving = state.moving_unit
    view = made_view(
        {
            "format": 1,
            "version": 0,
            "side": side,
            "title": state.setup.title,
            "sides": tuple(state.setup.sides),
            "defender": state.setup.defender,
            "first": state.setup.first,
            "to_kill": state.setup.to_kill,
            "turns": state.setup.turns,
            "turn": state.turn,
            "phase": state.phase,
            "phase_title": PHASES[state.phase].title,
            "phasing": state.phasing,
            "non_phasing": state.non_phasing,
            "acting": acting,
            "over": state.over,
            "winner": state.winner,
            "end_reason": state.end_reason,
            "moving_unit": alias.get(moving, moving) if moving else None,
            "units": units,
            "events": (seer or Seer()).events(state.history, side),  # a new seer: read whole
            "legal": legal_json,
            "placeable": placeable_ids,
            "dff": dff,
            "tracking": tracking,
            "losses": {k: tuple(v) for k, v in knows.losses().items()},
            "victory": tuple(victory_line(state, v) for v in state.setup.victory),
        }
    )
    return seer.stamp(view, version) if seer is not None else view


def victory_line(state: GameState, v: Victory) -> str:
    """A victory condition in words, with how far its side has come when it has begun: the
    enemy AFVs it has knocked out, or its units off the map (both seen by both sides, HX-13,
    RD-13; a trial found the screen never said how near a side was to winning)."""
    done = 0
    if v.kind == "eliminate" and not v.units:
        done = eliminated_afvs(state, v.side)
    elif v.kind == "exit" and v.edge:
        done = exited(state, v.side, v.edge, v.only)
    return f"{v.describe()} ({done} so far)" if done else v.describe()


Legal = tuple[tuple[dict[str, Any], ...], tuple[str, ...]]
"""A view's ``legal`` and ``placeable`` (:func:`shown_legal`)."""


def shown_legal(
    state: GameState,
    side: str | None,
    alias: dict[str, str],
    allowed: Callable[[Action], bool],
    placeable: Callable[[], list[str]],
) -> Legal:
    """The actions ``side`` may take now in its view's JSON form (a "?" by its alias, in the
    aliases' order) and the units it may place: its view's ``legal`` and ``placeable`` (none
    when another side acts; a set-up phase lists no placement and no bore sight, HX-12,
    C6.42). Apart from the view: a server asks HX-15 of them first, and makes the view only
    when it is sent (issue 43)."""
    acting = None if state.over else state.to_act
    if acting is None or (side is not None and side != acting):
        return (), ()
    setting_up = state.phase in ("setup", "setup_attacker") and not state.dff_pending
    acts = []
    with state.held_still():
        for a in iter_candidates(state):
            if setting_up and isinstance(a, Place):
                break  # the placements come last: asked hex by hex (HX-12)
            if setting_up and isinstance(a, BoreSight):
                continue  # thousands on a big map: asked hex by hex too (C6.42)
            if allowed(a):
                acts.append(a)
    legal_json = in_alias_order([aliased(a.to_json(), alias) for a in acts], alias)
    placeable_ids = tuple(placeable())
    return legal_json, placeable_ids


def hidden_aliases(state: GameState, side: str | None) -> dict[str, str]:
    """The names ``side`` knows its enemy "?" by (RD-11): "?E3" (then "?E3.2", ... in one hex),
    never their ids, which would tell what they are. The "?" in one hex look alike, so their
    order there is the ids' (any order tells nothing)."""
    if side is None:
        return {}
    hidden = sorted(
        (u.label, u.id) for u in state.units.values() if u.active and u.side != side and u.concealed
    )
    out: dict[str, str] = {}
    count: dict[str, int] = {}
    for hx, uid in hidden:
        n = count[hx] = count.get(hx, 0) + 1
        out[uid] = f"?{hx}" if n == 1 else f"?{hx}.{n}"
    return out


_TUPLES = ("ammo", "ammo_out", "acquisition")


def in_alias_order(actions: list[dict], alias: dict[str, str]) -> tuple[dict, ...]:
    """The actions at a "?" in the order of their aliases (the engine lists them in its ids'
    order, which would tell which "?" is which, RD-11), in the places they held."""
    names = set(alias.values())
    at = [i for i, a in enumerate(actions) if a.get("target") in names]
    ordered = sorted((actions[i] for i in at), key=lambda a: a["target"])  # stable: ammo kept
    for i, a in zip(at, ordered, strict=True):
        actions[i] = a
    return tuple(actions)


def aliased(action: dict, alias: dict[str, str]) -> dict:
    """An action's JSON form with a "?" target named by its alias (RD-11)."""
    target = action.get("target")
    if target is not None and target in alias:
        return {**action, "target": alias[target]}
    return action


def unit_view(d: dict, alias: dict[str, str]) -> UnitView:
    """A unit record of :meth:`Knowledge.units` as its view value (a "?" by its alias)."""
    if d.get("type") == "?":
        return made_unit(
            {
                "id": alias.get(d["id"], d["id"]),
                "side": d["side"],
                "hex": d["hex"],
                "concealed": True,
            }
        )
    values = dict(d)
    for k in _TUPLES:
        if isinstance(values.get(k), list):
            values[k] = tuple(values[k])
    acq = values.get("acquisition")
    if acq is not None and len(acq) > 3 and acq[3] in alias:  # acquired on a "?" (C6.51)
        values["acquisition"] = (*acq[:3], alias[acq[3]], *acq[4:])
    return made_unit(values)
