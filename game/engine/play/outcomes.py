"""What a shot leaves behind: removal, wrecks, immobilization, Shock / UK and their recovery
(C7.42), abandonment (002)."""

from __future__ import annotations

from dataclasses import replace

from game.engine.events import Event
from game.engine.state import GameState, UnitState
from game.engine.vocabulary import REMOVED, Status
from game.rules.outcomes import recovery as recovery_roll
from game.rules.outcomes import shock_again

from .victory import check_victory

REMOVAL: dict[str, Status] = {
    "burn": "burning",
    "eliminated": "eliminated",
    "abandoned": "abandoned",
}


def apply_outcome(state: GameState, target: UnitState, outcome: str) -> list[Event]:
    """The final outcome of an attack on ``target``, applied."""
    events = []
    if outcome in REMOVAL:
        target.status = REMOVAL[outcome]
        if target.type.armored and outcome != "abandoned":
            # only a burning or eliminated AFV leaves a wreck; abandoned: removed (002, RD-8)
            events.extend(add_wreck(state, target))
        events.append(
            Event(
                "removed",
                f"{target.name} ({target.id}) is {target.status} and removed from play",
                ("C7.6" if outcome == "burn" else "002",),
                data={"unit": target.id, "status": target.status},
            )
        )
        halt(target)
        events.extend(drop_acquisitions_of(state, target))
    elif outcome == "immobilized":
        target.immobilized = True
        halt(target)
    elif outcome == "shock":
        target.shock, _ = shock_again()
        target.ce = False
        halt(target)
        events.append(
            Event(
                "shock",
                f"{target.name} is shocked: no move, no fire; buttons up (C7.42)",
                ("C7.42",),
                data={"unit": target.id, "shock": target.shock},
            )
        )
        target.acquisition = None  # its crew is not in Good Order: the counter is lost (C6.5)
    if target.status in REMOVED and state.moving_unit == target.id:
        state.moving_unit = None
        state.dff_pending = ()
    return events


def drop_acquisitions_of(state: GameState, target: UnitState) -> list[Event]:
    """HX-14: an Acquired counter on a unit removed from play goes with it (C6.5 places it on
    the target). When another Known enemy unit is left in that Location, the counter stays on
    the Location as a counter left behind (C6.51: it applies to the Known units there)."""
    events = []
    for gun in sorted(state.units.values(), key=lambda u: u.id):
        acq = gun.acquisition
        if acq is None or acq.area or acq.target != target.id or not gun.active:
            continue
        others = [
            u
            for u in state.units.values()
            if u.active
            and u.side == target.side
            and not u.concealed
            and u.label == acq.location.hex
        ]
        gun.acquisition = replace(acq, target=None) if others else None
        gun.fired_at_acquired = False
        kept = "stays on the Location (C6.51)" if others else "is removed with it"
        events.append(
            Event(
                "acquisition",
                f"{gun.name}'s {acq.label} on {target.name}: {target.name} is out of play; the "
                f"counter {kept} (HX-14)",
                ("HX-14",),
                data={"unit": gun.id, "target": target.id, "level": acq.level if others else 0},
            )
        )
    return events


def halt(unit: UnitState) -> None:
    """A hit that stops a moving vehicle ends its move (C7.42: no MP needed)."""
    if unit.moving:
        unit.moving = False
        unit.moved = True
        unit.motion = False


def add_wreck(state: GameState, unit: UnitState) -> list[Event]:
    """A wreck in the vehicle's hex hinders LOS +1 (RD-9); the LOS pairs it changes are
    recomputed."""
    state.board.add_wreck(unit.hex)
    state.visibility.update([state.board.index(unit.hex)], only_added=True)
    return [
        Event(
            "wreck",
            f"a wreck in {unit.label} hinders LOS +1 (RD-9)",
            ("RD-9",),
            data={"hex": unit.label},
        )
    ]


def recovery(state: GameState) -> list[Event]:
    """C7.42: the phasing side's shocked AFVs roll for recuperation at the end of its RPh."""
    events = []
    for unit in state.units.values():
        if not (unit.active and unit.side == state.phasing and unit.shock in ("shock", "uk")):
            continue
        d = state.dice.die()
        new, rule = recovery_roll(unit.shock, d)
        old = unit.shock
        if new == "wreck":
            unit.status = "wreck"
            unit.shock = "none"
            what = "a wreck"
        else:
            unit.shock = new
            what = "recovers" if new == "none" else "is Unconfirmed Kill (UK)"
        event = Event(
            "recovery",
            f"{unit.name} ({old.upper()}) recovery dr {d}: {what} (C7.42)",
            (rule,),
            (d,),
            data={"unit": unit.id, "from": old, "to": new},
        )
        if unit.concealed and new != "wreck":  # a "?" to the other side: its state is secret
            event = event.hidden_from(state.setup.other(unit.side))  # (RD-11)
        events.append(event)
        if new == "wreck":
            events.extend(add_wreck(state, unit))
    events.extend(check_victory(state))
    return events
