"""A seat's table: everything one side may see and ask of a game, and its one way to act
(docs/architecture.md "Seats and views"). In the engine, so that the computer player (beside
the files, under the session) reads its side through one too.

The screen, the replay viewer's one-side view and the computer player hold a :class:`Table`,
never the game: its state is the side's :class:`~game.engine.view.View` (the units as the side
sees them, a "?" by an alias that tells nothing of what it is, RD-11), and its questions (the
odds of a shot, the fire map, the threat map, the hexes a unit may enter, a route, a set-up
area, what a hex sees) are asked with the side, so the answers are the same whether asked here
or of a server. A "?" is named by its alias ("?E3") in every question and action; the table
turns it back into the unit it stands for.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from game.rules.dice import SEEDS, Dice

from .actions import Action, Fire
from .errors import IllegalAction
from .events import Event
from .game import Game
from .imagine import determinize
from .knowledge import ShotOdds
from .play.paths import Route
from .play.threat import HexThreat
from .tableview import TableView
from .view import Seer

_IDLE = frozenset(("end_phase", "button_up", "crew_exposed", "pass"))
"""The actions that do not count as something to do (HX-15, :meth:`Game.nothing_to_do`)."""


class Table(TableView):
    """What ``side`` may see and ask of ``game`` now (``side`` None: everything, the replay
    viewer's view of both sides); ``submit`` acts for the side (None: a table that only
    looks, the replay viewer's). What it is shown is :class:`TableView`'s."""

    # --- questions asked with the side --------------------------------------------------------

    def odds(self, firer_id: str, target_id: str, ammo: str | None = None) -> ShotOdds:
        """The odds of ``firer`` shooting at ``target`` as this side may be shown them
        (IllegalAction with the reason when the shot is not allowed)."""
        return self._know().odds(self._own(firer_id), self.real(target_id), ammo)

    def fire_map(self, firer_id: str, ammo: str | None = None) -> dict[str, tuple[float, str]]:
        return self._know().fire_map(self._own(firer_id), ammo)

    def threat_map(self, unit_id: str, within: Iterable[str] | None = None) -> dict[str, HexThreat]:
        return self._know().threat_map(self._own(unit_id), within)

    def threat_here(self, unit_id: str) -> HexThreat:
        return self._know().threat_here(self._own(unit_id))

    def attack_map(
        self, unit_id: str, within: Iterable[str] | None = None
    ) -> dict[str, tuple[tuple[str, float], ...]]:
        """For this side's vehicle: hex -> (enemy, P(removed)) of each enemy this side knows
        (never a "?") it could shoot from there (:meth:`Knowledge.attack_map`)."""
        return self._know().attack_map(self._own(unit_id), within)

    def threat_ahead(self, unit_id: str, within: Iterable[str]) -> dict[str, dict[int, HexThreat]]:
        """For this side's vehicle: hex -> facing -> how likely it would be removed there once
        the enemies this side knows have made their next move to their deadliest hex in reach
        (:meth:`Knowledge.threat_ahead`, RD-18)."""
        return self._know().threat_ahead(self._own(unit_id), within)

    def threat_facings(self, unit_id: str) -> dict[int, HexThreat]:
        """For this side's vehicle: how likely it would be removed where it stands in each
        of the six facings (a turretless vehicle's Covered Arc turning with its hull), from
        the enemies this side knows (RD-18, RD-8)."""
        real = self._own(unit_id)
        copy = self._game.copy()
        mover = copy.state.units[real]
        out = {}
        for f in range(6):
            mover.facing = f
            if not mover.type.turret:
                mover.turret = f
            out[f] = copy.knowledge(self.side).threat_here(real)
        return out

    def viewshed(self, hex_label: str) -> tuple[Any, Any]:
        """What a hex sees (RD-9): the map alone decides it."""
        return self._game.viewshed(hex_label)

    def order_of_battle(self, side: str) -> dict[str, int]:
        """``side``'s order of battle, public to both sides (HX-21, as a scenario card lists
        it): each unit type key it fields and how many of each, read from the scenario alone,
        so the same whatever its "?" are and wherever they stand."""
        return dict(
            sorted(Counter(u.type for u in self._game.setup.units if u.side == side).items())
        )

    def unknown_order(self) -> dict[str, int]:
        """What the enemy "?" this side sees may be, by the public facts alone (HX-21, RD-11,
        HX-13): the enemy's order of battle less each enemy unit this side knows as itself (in
        play and not a "?", or seen leave play: removed, or gone off the map unconcealed,
        :meth:`out_of_play`); a unit type key -> how many are left. A "?" that left the map
        concealed is still among them (which type left is not known)."""
        if self.side is None:
            raise ValueError("only a side has an enemy")
        units = self._game.state.units
        known = self.known_enemies() | {u for u in self.out_of_play() if units[u].side != self.side}
        left = Counter[str]()
        for enemy in (s for s in self.sides if s != self.side):
            left.update(self.order_of_battle(enemy))
        left.subtract(Counter(units[u].type.key for u in known))
        return {k: n for k, n in sorted(left.items()) if n > 0}

    def setup_area(self, side: str | None = None) -> list[str]:
        """Every hex where this side may set up a unit (HX-12)."""
        side = side or self.side
        if side is None or (self.side is not None and side != self.side):
            return []
        return self._game.setup_area(side)

    def setup_hexes(self, unit_id: str) -> list[str]:
        return self._game.setup_hexes(self._own(unit_id))

    def _acting(self) -> bool:
        return self.side is None or self.to_act == self.side

    def legal_actions(self) -> list[Action]:
        """The actions this side may take now (none when another side acts; the set-up's
        placements are asked hex by hex, :meth:`setup_hexes`)."""
        return self.view.legal_actions()

    def actions(self) -> list[Action]:
        """Every action this side may take now, the set-up's placements and bore sights
        included (the computer weighs them all), a "?" target by its alias in the aliases'
        order (as :meth:`legal_actions`); none when another side acts."""
        if self._all is None:
            if not self._acting() or self.over:
                self._all = []
            else:
                alias = self._aliases()
                acts = self._game.legal_actions()
                if alias:  # as the view lists them (sideview.in_alias_order)
                    shown = [self._shown(a, alias) for a in acts]
                    names = set(alias.values())
                    at = [i for i, a in enumerate(shown) if getattr(a, "target", "") in names]
                    ordered = sorted((shown[i] for i in at), key=lambda a: a.target)  # type: ignore[attr-defined]
                    for i, a in zip(at, ordered, strict=True):
                        shown[i] = a
                    acts = shown
                self._all = acts
        return list(self._all)

    @staticmethod
    def _shown(action: Action, alias: dict[str, str]) -> Action:
        if isinstance(action, Fire) and action.target in alias:
            return Fire(action.unit, alias[action.target], action.ammo, action.mp)
        return action

    def check(self, action: Action) -> str | None:
        """Why this side may not take ``action`` now (None: it may)."""
        if not self._acting():
            return f"{self.view.acting or 'nobody'} acts now, not {self.side}"
        return self._game.check(self._translate(action))

    def can_act(self) -> list[str]:
        """This side's units that can still move or fire this phase (their green dots)."""
        return self._game.can_act() if self._acting() else []

    def nothing_to_do(self) -> bool:
        """HX-15 (:meth:`Game.nothing_to_do`) for this side; read from its view's legal
        actions when they are made (:meth:`shown_legal`: a server makes them to send them
        anyway, the candidates are not tried twice, issue 43), except in a set-up phase,
        whose view lists no placement."""
        if not self._acting():
            return False
        state = self._game.state
        view, made = self._view, self._legal
        legal = view.legal if view is not None else None if made is None else made[0]
        if legal is None or state.phase in ("setup", "setup_attacker"):
            return self._game.nothing_to_do()
        if state.over or state.dff_pending:
            return False
        return all(a["type"] in _IDLE for a in legal)

    def placeable(self) -> list[str]:
        if self._view is not None:
            return list(self._view.placeable)
        return self._game.placeable() if self._acting() and not self.over else []

    def setup_choices(self) -> list[str]:
        return self._game.setup_choices() if self._acting() else []

    def move_costs(self, unit_id: str) -> dict[str, float]:
        """The hexes this side's ``unit_id`` may enter now, with their MP (RD-10)."""
        if not self._acting():
            return {}
        real = self._own(unit_id)
        costs = self._costs.get(real)
        if costs is None:
            costs = self._costs[real] = self._game.move_costs(real)
        return costs

    def route(self, unit_id: str, hex_label: str) -> Route | None:
        return self._game.route(self._own(unit_id), hex_label) if self._acting() else None

    def reachable(self, unit_id: str) -> dict[str, Route]:
        return self._game.reachable(self._own(unit_id)) if self._acting() else {}

    def exit_edge(self, unit_id: str, facing: int | None = None) -> str | None:
        return self._game.exit_edge(self._own(unit_id), facing)

    # --- acting ------------------------------------------------------------------------------

    def _translate(self, action: Action) -> Action:
        """An action naming a "?" by its alias, as the engine names it."""
        if isinstance(action, Fire) and action.target != self.real(action.target):
            return Fire(action.unit, self.real(action.target), action.ammo, action.mp)
        return action

    def engine_action(self, action: Action) -> Action:
        """``action`` as the engine names it (a "?" target by its id): for the session, which
        applies the computer's choice."""
        return self._translate(action)

    # --- imagining ---------------------------------------------------------------------------

    def imagined(self, seed: int, tanks: int = 0, may_be: frozenset[str] = frozenset()) -> Snapshot:
        """A game this side may play on apart from this one (the computer's search): a copy
        holding only what it may know (:func:`~.imagine.determinize`: new dice from
        ``seed``, no enemy Bore Sighted Location, each enemy "?" a Gun of its side's prior, or
        an AFV for ``tanks`` of those in the hexes ``may_be``, which "?" is which dealt anew),
        with a table for each side that acts on it."""
        if self.side is None:
            raise ValueError("only a side imagines")
        hidden = frozenset(self._aliases())
        copy = determinize(self._game, self.side, seed, hidden, tanks, may_be)
        return Snapshot(copy, play=True)

    def submit(self, action: Action) -> list[Event]:
        """Take ``action`` for this side (IllegalAction with the reason when it may not)."""
        if self._submit is None:
            raise IllegalAction("watching", "this table only looks: no action here")
        return self._submit(self.side, self._translate(action))


class Snapshot:
    """Tables over a game that is only looked at (the replay viewer's position, a test's
    game): each side's table, made anew when the game has changed. ``play``: each side's
    table acts on the game (a search's imagined copy, a test's game; refused unless that side
    is to act)."""

    def __init__(self, game: Game, play: bool = False):
        self._game = game
        self._seer = Seer()
        self._tables: dict[str | None, Table] = {}
        self._at = -1
        self._play = play

    def _apply(self, side: str | None, action: Action) -> list[Event]:
        game = self._game
        if game.over:
            raise IllegalAction("game_over", "the game is over")
        if side is not None and side != game.to_act:
            raise IllegalAction("not_your_turn", f"{game.to_act} acts now, not {side}")
        return game.apply(action)

    @property
    def game(self):  # -> Game (for the tests; the screen reads its tables)
        return self._game

    def reseed(self, seed: int) -> None:
        """New dice from ``seed`` for an imagined copy (``play``; the computer's search at a
        Defensive First Fire chance: the options of a round go on with the same rolls whatever
        each one drew, common random numbers)."""
        if not self._play:
            raise ValueError("only an imagined copy is rolled anew")
        self._game.dice = Dice(seed % SEEDS.stop)

    def refresh(self) -> None:
        """The game was changed other than by an action (a test's hand): read it afresh."""
        self._tables.clear()
        self._at = -1

    def step(self, action: Action) -> list[Event]:
        """Apply the next recorded action (the replay viewer steps through a save)."""
        return self._game.apply(action)

    def table(self, side: str | None) -> Table:
        at = self._game.actions_applied
        if at != self._at:
            self._tables.clear()
            self._at = at
        table = self._tables.get(side)
        if table is None:
            submit = self._apply if self._play else None
            table = self._tables[side] = Table(self._game, side, at, self._seer, submit)
        return table
