"""The rules' words, as types: Target Facing, hit location, the final outcome of an attack, the
To Kill system, the firer and target kinds. Literal strings (their values are what is saved)."""

from __future__ import annotations

from typing import Literal

Aspect = Literal["front", "side", "rear"]
"""Target Facing (RD-8)."""
Location = Literal["hull", "turret"]
"""Hit location (RD-2)."""
FirerKind = Literal["gun", "afv", "sw"]
TargetKind = Literal["afv", "vehicle", "gun", "infantry"]
