"""The engine: units, actions, the phase state machine, movement tracking, Defensive First Fire,
acquisition and AT fire in play. ``Game.apply(action)`` is the one door that changes a game."""

from .actions import Action, action_from_json
from .errors import IllegalAction
from .game import Game
from .setup import Setup, UnitSetup, Victory

__all__ = ["Action", "Game", "IllegalAction", "Setup", "UnitSetup", "Victory", "action_from_json"]
