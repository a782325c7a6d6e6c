"""Sparring partners for the computer (issue 41): scripted players that read only their side's
table, as the computer does. :class:`CarefulPlayer` plays as a careful ASL player would, by one
of its repeatable plans (:data:`PLANS`)."""

from .careful import CarefulPlayer
from .plans import PLANS, Plan, plan_named

__all__ = ["PLANS", "CarefulPlayer", "Plan", "plan_named"]
