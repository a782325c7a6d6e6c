"""The engine's words, as types: a phase, who acts in it, a unit's status, shock state and
category. Literal strings, so the value (not a repr) goes into saves and the state hash."""

from __future__ import annotations

from typing import Literal

PhaseName = Literal[
    "setup", "setup_attacker", "rally", "prep_fire", "movement", "defensive_fire", "advancing_fire"
]
"""The phases of RD-12, and before the first the set-up: the scenario defender's, then the other
side's (HX-12)."""
Actor = Literal["phasing", "non_phasing", "scenario_defender", "scenario_attacker"]
Status = Literal["active", "eliminated", "burning", "abandoned", "wreck", "exited"]
"""In play, or how it left play ("wreck": a UK that did not recover, C7.42)."""
Shock = Literal["none", "shock", "uk"]
"""C7.42: not shocked, Shock, or Unconfirmed Kill."""
Category = Literal["afv", "vehicle", "gun", "infantry"]

REMOVED: tuple[Status, ...] = ("eliminated", "burning", "abandoned", "wreck", "exited")
"""Statuses of a unit no longer in play."""
