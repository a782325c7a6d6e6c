"""Replays: rebuild a game from its scenario and seed and apply its actions one by one, checking
the dice drawn and the state hash after each. The first mismatch stops it with the action index,
the action, and what differed."""

from __future__ import annotations

from collections.abc import Callable

from game.engine import Game, IllegalAction
from game.engine.actions import EndPhase, action_from_json
from game.engine.events import Event
from game.engine.rules_version import RULES_VERSION

from .savegame import VERSION, SavedGame, SaveError


class ReplayError(SaveError):
    """The replay diverged from the save: ``index`` is the action where it did."""

    def __init__(self, index: int, action: dict, what: str, name: str = "<save>"):
        super().__init__(f"{name}: actions[{index}] {action}: {what}")
        self.index = index
        self.action = action
        self.what = what


def replay(
    saved: SavedGame,
    to: int | None = None,
    on_events: Callable[[int, dict, list[Event]], None] | None = None,
    name: str = "<save>",
    verify: bool = True,
) -> Game:
    """The game after the first ``to`` actions (all by default), every check verified. A
    save of an older format or rules version is migrated first (:func:`migrate`); where it
    parts from today's rules, ReplayError names that action."""
    parted = None if saved.current else migrate(saved, name)
    scenario = saved.scenario()
    game = Game(scenario.setup, saved.seed)
    steps = saved.actions if to is None else saved.actions[: max(0, to)]
    for i, entry in enumerate(steps):
        if parted is not None and i == parted.index:
            raise parted
        events = apply_checked(game, i, entry, name, verify)
        if on_events:
            on_events(i, entry["action"], events)
    return game


def apply_checked(
    game: Game, i: int, entry: dict, name: str = "<save>", verify: bool = True
) -> list[Event]:
    """Apply action ``i`` of a save to ``game`` and check the dice drawn and the state hash
    after it; ReplayError says where and what differs."""
    try:
        events = game.apply(action_from_json(entry["action"]))
    except IllegalAction as e:
        raise ReplayError(i, entry["action"], f"illegal here: {e.reason}", name) from None
    if verify:
        if game.dice.draws != entry["draws"]:
            raise ReplayError(
                i,
                entry["action"],
                f"dice drawn {game.dice.draws}, the save says {entry['draws']}",
                name,
            )
        h = game.state_hash()
        if h != entry["hash"]:
            raise ReplayError(
                i,
                entry["action"],
                f"state hash {h[:12]}..., the save says {entry['hash'][:12]}...",
                name,
            )
    return events


def migrate(saved: SavedGame, name: str = "<save>") -> ReplayError | None:
    """Bring an older save to this format and to today's rules, in memory. Format 1 had one
    set-up phase, so the other side's set-up (HX-12) is ended for it right after the scenario
    defender's. The actions are replayed under today's rules checking the dice drawn after each
    (the state encoding or the rules changed, so the old hashes cannot be checked), and every
    check is written anew. Where an action is illegal under today's rules or draws other dice,
    the game parts from the one recorded: the checks before it are rebuilt, the actions from it
    on are kept as they were, and the returned ReplayError names that action and why (None:
    the whole game replays under today's rules)."""
    actions = [dict(a) for a in saved.actions]
    at = (
        next((i for i, a in enumerate(actions) if a["action"].get("type") == "end_phase"), None)
        if saved.format_version == 1
        else None
    )
    old_rules = saved.rules_version
    under = (
        f" (recorded under rules version {old_rules}, replayed under version {RULES_VERSION})"
        if old_rules != RULES_VERSION
        else ""
    )
    scenario = saved.scenario()
    game = Game(scenario.setup, saved.seed)
    migrated: list[dict] = []
    parted: ReplayError | None = None
    for i, entry in enumerate(actions):
        action = action_from_json(entry["action"])
        try:
            game.apply(action)
        except IllegalAction as e:
            parted = ReplayError(
                len(migrated), entry["action"], f"illegal here{under}: {e.reason}", name
            )
        else:
            if game.dice.draws != entry["draws"]:
                parted = ReplayError(
                    len(migrated),
                    entry["action"],
                    f"dice drawn {game.dice.draws}, the save says {entry['draws']}{under}",
                    name,
                )
        if parted is not None:
            migrated.extend(actions[i:])
            break
        migrated.append(
            {"action": entry["action"], "draws": game.dice.draws, "hash": game.state_hash()}
        )
        if i == at:
            extra = EndPhase()
            game.apply(extra)
            migrated.append(
                {"action": extra.to_json(), "draws": game.dice.draws, "hash": game.state_hash()}
            )
    saved.actions[:] = migrated
    saved.format_version = VERSION
    saved.rules_version = RULES_VERSION
    return parted


def shown_side(saved: SavedGame, game: Game) -> str | None:
    """The one side a replay of ``saved`` may show, ``game`` being the save replayed to its
    end: in a game against the computer not yet over, the player's (the computer's set-up, its
    "?" and its Bore Sighting stay its own, RD-11, C6.42, HX-12); else None, everything (a
    finished game, or one whose players share the screen)."""
    computer = (saved.computer or {}).get("side")
    if computer is None or game.over or computer not in game.setup.sides:
        return None
    return game.setup.other(computer)
