"""The counters a move leaves behind or takes with it: a unit's own Acquired counter and Bore
Sighting when it leaves its Location or changes its CA (C6.43, C6.5), and the enemy's Acquired
counters on it (C6.51)."""

from __future__ import annotations

from game.engine.events import Event
from game.engine.state import GameState, UnitState
from game.rules import acquisition as acq_rules

from .shot import acq_gun


def left_location(state: GameState, unit: UnitState) -> list[Event]:
    """The unit entered a new hex: its own counters and the enemy's counters on it."""
    events = []
    if unit.acquisition and not acq_rules.on_gun_left_location(
        unit.acquisition, acq_gun(state, unit), retains_los=False
    ):
        unit.acquisition = None
        events.append(
            Event(
                "acquisition",
                f"{unit.name} left its Location: its Acquired counter is lost (C6.5)",
                ("C6.5",),
            )
        )
    if unit.bore_sight:
        events.append(  # that it had one is its own side's secret (C6.42)
            Event(
                "bore_sight",
                f"{unit.name} left its set-up Location: Bore Sighting lost (C6.43)",
                ("C6.43",),
            ).hidden_from(state.setup.other(unit.side))
        )
        unit.bore_sight = None
    for enemy in state.units.values():
        acq = enemy.acquisition
        if acq is None or acq.target != unit.id:
            continue
        if state.can_see(enemy, unit):
            enemy.acquisition = acq_rules.on_target_moved_in_los(
                acq, unit.id, acq_rules.Location(unit.label)
            )
        else:
            enemy.acquisition = acq_rules.on_target_left_los(acq, acq.location)

            stays = f"LOS: the Acquired counter stays in {acq.location} (C6.51)"
            event = Event("acquisition", f"{unit.name} left {enemy.name}'s {stays}", ("C6.51",))
            if enemy.concealed:  # the mover's side sees a "?" there, not what it is (RD-11)
                seen = f"{unit.name} left the {stays.replace('LOS', 'LOS of a concealed unit', 1)}"
                event = event.hidden_from(unit.side, Event("acquisition", seen, ("C6.51",)))
            events.append(event)
    return events


def ca_changed(state: GameState, unit: UnitState, old_facing: int) -> list[Event]:
    """The unit turned from ``old_facing``. C6.43: a vehicle's hull pivot changes its VCA, so
    its Bore Sight is lost for good; a Gun has no VCA and keeps it. C6.5: the Gun's CA changed
    (a Gun's or a turretless vehicle's facing; a turreted AFV's CA is its turret's, which a hull
    pivot leaves where it was), so its Acquired counter is lost unless it fired at the acquired
    target this phase."""
    events = []
    if unit.bore_sight and unit.type.is_vehicle and unit.facing != old_facing:
        events.append(  # that it had one is its own side's secret (C6.42)
            Event(
                "bore_sight", f"{unit.name}'s VCA changed: Bore Sighting lost (C6.43)", ("C6.43",)
            ).hidden_from(state.setup.other(unit.side))
        )
        unit.bore_sight = None
    ca_moved = not unit.type.turret
    if (
        ca_moved
        and unit.acquisition
        and not acq_rules.on_ca_changed(unit.acquisition, unit.fired_at_acquired)
    ):
        unit.acquisition = None
        events.append(
            Event(
                "acquisition",
                f"{unit.name} changed its CA without firing at its acquired target: "
                "counter lost (C6.5)",
                ("C6.5",),
            )
        )
    return events
