"""The computer opponent (docs/ai.md): it plays one side of any scenario from what that side
may know, read from its side's :class:`~game.engine.table.Table` alone (its view: a concealed
enemy is a "?" known by its alias, an enemy's Bore Sighted Location unknown; the questions a
side may ask; the actions legal to it), never from the game.

Four levels. 0 (``random``) plays random legal actions (the baseline). 1 (``scorer``) scores
the candidate actions of each decision with the exact odds (the odds panel's own numbers), the
threat map (RD-18) and the victory conditions, as Battle for Wesnoth's candidate-action loop
does: the best shot if it is worth it, else the best move, else End Phase. 2 (``planner``)
weighs, for each vehicle, every hex it can reach this phase (the engine's own route planner)
by the objective, the risk of being knocked out there and the enemies it would see, and it
reasons about Defensive First Fire (C6.17): a shot at +4 (Case J2) at a vehicle with MP left
is held for the better odds it will give after more MP in sight. 3 (``lookahead``) adds a
search on top (:mod:`game.ai.lookahead`): at the start of its Movement Phase it plays the rest
of its player turn out under each plan of a portfolio, on copies holding only what its side
may know, and moves by the plan that ends best.

Every choice is reproducible: ties are broken by a random source seeded from the player's seed
and what its side may know of the game (the turn, the phase, the events it may read: never the
other side's secrets), so a game against the computer saved and resumed goes on as it
would have, and its save replays to the same hash."""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable
from dataclasses import dataclass

from game.board.hexes import from_offset, label, to_offset
from game.board.hexes import line as hex_line
from game.engine.actions import (
    Action,
    BoreSight,
    Conceal,
    EndMove,
    EndPhase,
    Fire,
    Move,
    Pass,
    Place,
    Turn,
)
from game.engine.errors import IllegalAction
from game.engine.play.concealment import HIDING_TERRAIN
from game.engine.play.paths import Route
from game.engine.randomplay import pick
from game.engine.table import Table
from game.engine.view import UnitRecord, UnitView
from game.rules.facing import facing_offset

from .lookahead import PLANS, STEADY, Budget, Plan, SearchResult, search
from .valuation import HEXES_PER_MP, Valuation, in_time, phases_left, removal_risk, to_edge

LEVELS = {0: "random", 1: "scorer", 2: "planner", 3: "lookahead"}
FIRE_PHASES = ("prep_fire", "defensive_fire", "advancing_fire")
HIDDEN_SHOT = 0.6
"""The least value (P(kill) x worth) a concealed unit of level 2 fires for, as the shot
reveals it (RD-11): about a 30% chance of knocking out an AFV."""
DUEL_RISK = 0.1
"""The danger (RD-18: P(removed) + a share of P(immobilized)) from its target above which a
concealed vehicle fires at any worthwhile odds (``_hides``): it shoots first."""
EXIT_SHOT = 1.0
"""The least value (P(kill) x worth) of a Prep Fire shot that costs the firer the move its
side's exit victory needs (RD-12, RD-13): a named unit's (worth 2) even chance."""
STANDOFF = 8
"""The range the scenario defender's vehicles close to and no nearer (HX-11: it wins when
time runs out, so it lets the enemy come; the side that must act closes to 3 hexes)."""
EXIT_NOW = 50.0
"""The score of a hex in the side's last Movement Phase from which a vehicle can still leave
the map by the edge its exit victory names (RD-13): above any other, since a unit off the
map counts for that victory and is out of harm's way."""
TAKE_AND_KEEP = 6.0
"""The objective's value of a hold hex (its side's to hold, or the enemy's to deny) to an
Infantry unit standing in it, from the first turn: AT fire cannot harm Infantry (002) and no
unit enters an enemy's hex, so a hex it takes it keeps to the end, when a hold counts (RD-13)."""
DFF_ON_THE_WAY = 0.8
"""How much of a hex's risk a vehicle runs passing through it (C6.17: a Defensive First Fire
shot at a moving target, Case J making it harder, but one chance in every hex of the way)."""
FACE_GAIN = 0.05
"""How much less likely to be knocked out where it stands (RD-18) a vehicle that stays must
be, facing another way, to pivot there: a pivot spends MP in the enemy's sight (C6.17), and a
shot at it then has no Case J (C6.1, it enters no new hex)."""
SETUP_COVER = 6.0
"""What a set-up hex where the unit may be concealed (woods or a building out of every known
enemy's LOS, RD-11) is worth to a side that may conceal: above all else but a vehicle's risk."""
SETUP_SIGHT = 3.0
"""What a Gun's set-up hex is worth at the most of the enemy's way in it sees (C6.42: it
waits there for the enemy to come)."""
SETUP_SPREAD = 0.75
"""How far below the best set-up hex another may score and still be drawn (seeded by the
player's seed): the set-up varies from game to game, so the scenario file tells no one where a
"?" stands (RD-11, HX-12)."""
UNKNOWN_RISK = ((6, 0.25), (12, 0.15), (1 << 30, 0.05))
"""(up to this range, the chance) that a "?" in LOS knocks out a vehicle: a prior, since a "?"
may be a Gun or only Infantry (RD-11); about half a 75 mm Gun's odds at those ranges."""


@dataclass(frozen=True)
class Decision:
    """What the computer does, and why in plain words (the log and the screen show it).

    ``plan``: level 3's plan for the phase and its trial runs' figures. They come from
    playouts on its own side's whole knowledge, its secrets too (what its "?" are, where it
    Bore Sighted: RD-11, C6.42), so they are never shown to the other side."""

    action: Action
    why: str
    plan: str = ""


def _mix(*parts: int) -> int:
    """A stable seed from integers (``hash`` of a tuple of ints is stable, but say it)."""
    h = 1469598103934665603
    for p in parts:
        h = ((h ^ (p & 0xFFFFFFFFFFFFFFFF)) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def _text(word: str) -> int:
    """A stable integer of a word (``hash`` of a str changes from run to run)."""
    return zlib.crc32(word.encode())


class ComputerPlayer:
    """One side played by the computer at ``level`` (0-3), its choices seeded by ``seed``."""

    def __init__(self, side: str, level: int = 2, seed: int = 0, budget: Budget | None = None):
        if level not in LEVELS:
            raise ValueError(f"level {level}: expected one of {', '.join(map(str, LEVELS))}")
        self.side = side
        self.level = level
        self.seed = seed
        self.budget = budget or Budget()
        self._threats: dict[tuple, tuple[set[str], dict]] = {}
        self._objective_key: tuple | None = None
        self._objective_fn: Callable[[str], float] | None = None
        # a playout player of level 3's search (game.ai.lookahead): its plan
        self.plan: Plan = STEADY
        self.steady_rng = False
        self.eager = False
        """A playout's enemy takes each Defensive First Fire shot worth taking at once (it
        does not wait for better odds, C6.17): the search then counts the fire a mover may
        draw from a less patient enemy too."""
        self.commit = False
        """A playout player drives each route chosen to its end (while its steps stay legal)
        and does not weigh again a vehicle that chose to stay: a playout needs no more, and
        costs one planner call a vehicle instead of one a step."""
        self.work = 0
        """The hexes weighed (each hex a planner call scores, each hex of a threat or attack
        map made): what a search's budget counts, as it grows with the time spent."""
        self._routes: dict[str, list[Action]] = {}
        self._stays: set[str] = set()
        self._commit_key: tuple | None = None
        self._searched: dict[tuple, SearchResult] = {}
        self._preset: dict[tuple[int, str], Plan] = {}
        self.last_search: SearchResult | None = None
        """Level 3: the last search made (the bench and the log read it)."""

    def acts(self, table: Table) -> bool:
        """Whether this player is the one to act now (its phase, or its Defensive First Fire
        chance during the other side's move)."""
        return not table.over and table.to_act == self.side

    # --- deciding ----------------------------------------------------------------------------

    def choose(self, table: Table) -> Decision:
        """The action to take now (the side must be the one to act)."""
        if table.side != self.side:
            raise ValueError(f"{self.side} reads its own table, not {table.side}'s")
        if not self.acts(table):
            raise ValueError(f"{self.side} is not to act")
        # a playout player's ties are broken alike whatever was played
        rng = random.Random(self.seed if self.steady_rng else self._draw_seed(table))
        legal = table.actions()
        if self.level == 0:
            action = pick(legal, rng, fire_p=0.5)
            return Decision(action, "a random legal action (level 0)")
        if table.dff_pending:
            return self._dff(table, legal)
        phase = table.phase
        if phase in ("setup", "setup_attacker"):
            return self._setup(table, legal)
        if phase in FIRE_PHASES:
            return self._fire(table, legal)
        if phase == "movement":
            return self._move(table, legal, rng)
        return Decision(EndPhase(), "nothing to do in this phase")

    def _draw_seed(self, table: Table, *salt: int) -> int:
        """The seed of this decision's random source: the player's own seed, the turn, the
        phase, the side to act and how many events its side may read
        (:meth:`Knowledge.events`), never the actions applied or the dice drawn: those count
        the other side's secret choices too (a Bore Sighting, a set-up move: C6.42, HX-12),
        and what its side may not know must not change its plan."""
        return _mix(
            self.seed,
            table.turn,
            _text(table.phase),
            _text(table.to_act or ""),
            table.event_count(),
            *salt,
        )

    # --- the parts -----------------------------------------------------------------------------

    def _worth(self, table: Table, unit_id: str) -> float:
        """What knocking out an enemy is worth: an AFV 2, anything else 1 (the points of
        RD-13), doubled when a victory condition names it."""
        entry = next((u for u in table.units() if u["id"] == unit_id), None)
        base = 2.0 if entry is not None and entry.get("category") == "afv" else 1.0
        for v in table.victory:
            if v.side == self.side and self._may_be(table, unit_id, v.units):
                base *= 2
            if v.side == self.side and entry is not None and entry["hex"] in v.hexes:
                base *= 3  # it stands on a hex this side must hold
            if v.side != self.side and v.kind == "hold" and entry and entry["hex"] in v.hexes:
                base *= 2  # it stands on a hex its side must hold (RD-13)
        return base

    def _may_be(self, table: Table, unit_id: str, names) -> bool:
        """Whether the enemy ``unit_id`` may be one of the units ``names`` (a victory
        condition's): a unit this side sees is itself; which "?" is which is secret (RD-11),
        so a "?" may be any of them not seen elsewhere and still in play (a removal is seen
        by both sides, HX-13)."""
        if not names:
            return False
        shown = table.known_enemies()
        if unit_id in shown:
            return unit_id in names
        gone = table.out_of_play()
        return any(x not in shown and x not in gone for x in names)

    def _hold_factor(self, table: Table, unit_id: str) -> float:
        """3 for an enemy on a hex this side must hold (it must go), else 1."""
        where = table.where(unit_id)
        hold = any(v.side == self.side and where in v.hexes for v in table.victory)
        return 3.0 if hold else 1.0

    def _shots(self, table: Table, legal: list[Action]):
        """Each legal shot with its value: P(knock out) x the target's worth (a "?": its To
        Hit x 1/4, what a hit does unknown, RD-11), from the odds the side may be shown."""
        out = []
        for a in legal:
            if not isinstance(a, Fire):
                continue
            try:
                shot = table.odds(a.unit, a.target, a.ammo)
            except IllegalAction:
                continue
            if shot.p_kill is None:  # a "?": a hit reveals it (HX-9); where it stands counts
                value = shot.p_hit * 0.25 * self._hold_factor(table, a.target)
            else:
                value = shot.p_kill * self._worth(table, a.target) + 0.05 * shot.p_hit
            out.append((value, a, shot))
        # ties go by the target's hex, never its id: which "?" is which is secret (RD-11)
        out.sort(key=lambda t: (-t[0], t[1].unit, table.where(t[1].target), repr(t[1].ammo)))
        return out

    def _fire(self, table: Table, legal: list[Action]) -> Decision:
        """The best shot worth its cost: a Prep Fire shot keeps the firer from moving (RD-12),
        a concealed vehicle's shot reveals it (RD-11), a shot that costs an exit its move must
        be worth more (``_exit_stake``); each firer is weighed by its own cost, so an equal
        shot from a firer already seen goes first."""
        shots = self._shots(table, legal)
        least = 0.25 if table.phase == "prep_fire" and self.level >= 2 else 0.02
        held = False
        stakes: dict[str, float] = {}
        for value, action, shot in shots:
            if value < least:
                break
            need = least
            if self.level >= 2 and self._hides(table, action.unit, action.target):
                need = max(need, HIDDEN_SHOT)
            if self.level >= 2 and table.phase == "prep_fire":
                if action.unit not in stakes:
                    stakes[action.unit] = self._exit_stake(table, action.unit)
                if value >= need and stakes[action.unit] > value:
                    held = True
                need = max(need, stakes[action.unit])
            if value >= need:
                return Decision(action, _shot_words(shot))
        if held:
            return Decision(EndPhase(), "holds its fire: it moves to exit (RD-12, RD-13)")
        return Decision(EndPhase(), "no shot worth taking")

    def _exit_stake(self, table: Table, unit_id: str) -> float:
        """What a Prep Fire shot must be worth when it costs the firer the Movement Phase
        (RD-12) a victory by exit needs (RD-13): a unit that could leave by that edge this
        phase, or could no longer get there in time if it waits one, keeps its move unless
        the shot is worth a named unit's even chance (``EXIT_SHOT``); else 0."""
        unit = next((u for u in table.units() if u["id"] == unit_id), None)
        if unit is None or not unit.get("is_vehicle"):
            return 0.0
        board = table.board
        here = board.parse(unit["hex"])
        left = phases_left(table, self.side, 1)
        reach = float(unit.get("mp_left", 0.0)) * HEXES_PER_MP
        for v in table.victory:
            if v.side != self.side or v.kind != "exit" or not v.edge:
                continue
            now = in_time(board, here, v.edge, reach)
            later = in_time(board, here, v.edge, (left - 1) * reach)
            if now >= 1.0 or later < 1.0 <= in_time(board, here, v.edge, left * reach):
                return EXIT_SHOT
        return 0.0

    def _dff(self, table: Table, legal: list[Action]) -> Decision:
        """C6.17: fire now, or let the mover spend more MP in sight and fire at better odds."""
        shots = self._shots(table, legal)
        if not shots:
            return Decision(Pass(), "no shot at the mover")
        value, action, shot = shots[0]
        if self.level >= 2 and not self.eager and (shot.p_kill is None or shot.p_kill < 0.45):
            mover = next((u for u in table.units() if u["id"] == table.moving_unit), None)
            left = float(mover.get("mp_left", 0)) if mover else 0.0
            limited = "C6.12" in str(shot.report) or "C6.11" in str(shot.report)
            if limited and left >= 3:  # Case J2 / J1 now, better once it spends more MP
                return Decision(Pass(), "waits: the mover will be easier to hit (C6.17)")
        if self.level >= 2:  # a firer already seen before one a shot would give away (RD-11)
            first = next(
                (
                    t
                    for t in shots
                    if t[0] >= HIDDEN_SHOT or not self._hides(table, t[1].unit, t[1].target)
                ),
                None,
            )
            if first is None:
                return Decision(Pass(), "stays hidden: the shot would give it away (RD-11)")
            value, action, shot = first
        if value >= 0.04:
            return Decision(action, _shot_words(shot))
        return Decision(Pass(), "the odds are too poor")

    def _hides(self, table: Table, unit_id: str, target: str) -> bool:
        """Whether a shot of ``unit_id`` at ``target`` would give away a concealment worth
        keeping (RD-11): the firer is a concealed vehicle and the target is no danger to it
        (its shot where the firer stands, RD-18, under ``DUEL_RISK``): in a duel the
        first shot counts more than staying unseen (Case K is only +2)."""
        if not self._hidden(table, unit_id):
            return False
        here = table.threat_here(unit_id)
        return sum(removal_risk(t) for t in here.threats if t.firer == target) < DUEL_RISK

    def _hidden(self, table: Table, unit_id: str) -> bool:
        """Whether this side's vehicle is concealed (a shot or a move in sight reveals it;
        a Gun, which cannot move, is there to fire)."""
        return any(
            u["id"] == unit_id and u.get("concealed") and u.get("is_vehicle") for u in table.units()
        )

    def _setup(self, table: Table, legal: list[Action]) -> Decision:
        """Set-up (HX-12): each unit with a set-up area placed where its own reasoning puts
        it (:meth:`_placement`, seeded), then conceal what may be concealed (Case K, +2 to
        hit it), Bore Sight a hex the enemy must come through (a hold hex of its, in range),
        then end."""
        if self.level >= 1:  # every unit with a set-up area (HX-12), never the file's hex
            placed = self._placement(table, legal)
            if placed is not None:
                return placed
        conceal = [a for a in legal if isinstance(a, Conceal)]
        if conceal and self.level >= 1:
            return Decision(conceal[0], "sets up concealed (RD-11)")
        if self.level >= 2:
            bore = self._bore_sight(table, legal)
            if bore is not None:
                return bore
        return Decision(EndPhase(), "set-up done")

    def _bore_sight(self, table: Table, legal: list[Action]) -> Decision | None:
        """C6.42: each weapon Bore Sights the nearest hex, inside its Covered Arc (HX-2), of
        the way the enemy must come (a hex it must hold first, else the straight line from its
        vehicles to what its victory needs: RD-13)."""
        board = table.board
        seen = table.units()
        mine = {u["id"]: u for u in seen if u["side"] == self.side}
        holds = {h for v in table.victory if v.side != self.side for h in v.hexes}
        way = {label(h) for h in self._enemy_way(table, seen)}
        best: tuple[float, str, BoreSight] | None = None
        for a in legal:
            if not isinstance(a, BoreSight) or a.unit not in mine:
                continue
            unit = mine[a.unit]
            here, there = board.parse(unit["hex"]), board.parse(a.hex)
            if not unit.get("turreted") and facing_offset(here, int(unit["facing"]), there) > 30:
                continue
            d = here.distance(there)
            value = (20.0 if a.hex in holds else 10.0 if a.hex in way else 0.0) - 0.5 * d
            if value > 0 and (best is None or (value, a.hex) > best[:2]):
                best = (value, a.hex, a)
        if best is None:
            return None
        return Decision(best[2], f"bore sights {best[1]}, on the enemy's way in (C6.42)")

    def _enemy_way(self, table: Table, seen: list[UnitView]) -> list:
        """The hexes the enemy must cross: the straight line from each of its vehicles to the
        nearest hex of what its victory needs (a hex to hold, the edge to leave by, else this
        side's units), from the victory conditions every side reads (RD-13)."""
        board = table.board
        ours = [board.parse(u["hex"]) for u in seen if u["side"] == self.side]
        holds = [
            board.parse(h)
            for v in table.victory
            if v.side != self.side and v.kind == "hold"
            for h in v.hexes
        ]
        edges = [
            v.edge for v in table.victory if v.side != self.side and v.kind == "exit" and v.edge
        ]
        way: dict = {}
        for u in seen:
            if u["side"] == self.side or not u.get("is_vehicle"):
                continue
            start = board.parse(u["hex"])
            col, row = to_offset(start)
            ends = list(holds)
            for edge in edges:
                c, r = {
                    "west": (0, row),
                    "east": (board.columns - 1, row),
                    "north": (col, 0),
                    "south": (col, board.rows - 1),
                }[edge]
                ends.append(from_offset(c, r))
            ends = ends or ours
            if ends:
                end = min(ends, key=lambda h: (start.distance(h), h))
                way.update(dict.fromkeys(h for h in hex_line(start, end) if board.contains(h)))
        return list(way)

    def _placement(self, table: Table, legal: list[Action]) -> Decision | None:
        """The next unit of its side to place (HX-12), from the Place actions among the legal
        ones: first to the hex :meth:`_set_up_spot` draws for it (its facing kept: a
        placement elsewhere is listed so), then turned there (:meth:`_set_up_facing`); a unit
        its side's log shows placed twice, or turned in its own hex, is done (so a game
        resumed in the middle of the set-up goes on the same). None when every unit stands
        where and as it is to stand."""
        seen = table.units()
        mine = {u["id"]: u for u in seen if u["side"] == self.side}
        placed: dict[str, int] = {}
        for e in table.events():
            if e.kind == "place":
                placed[e.data.get("unit", "")] = placed.get(e.data.get("unit", ""), 0) + 1
        way = self._enemy_way(table, seen)
        eyes = [table.viewshed(u["hex"])[0] for u in seen if u["side"] != self.side]
        for uid in table.placeable():
            unit = mine.get(uid)
            times = placed.get(uid, 0)
            if unit is None or times >= 2:
                continue
            here, facing = unit["hex"], int(unit.get("facing", 0))
            why = ""
            if times == 0:
                spot = self._set_up_spot(table, unit, seen, way, eyes)
                if spot is None:
                    continue
                hx, why = spot
                if hx != here:
                    action = Place(uid, hx, facing)
                    if action in legal:
                        return Decision(action, why)
            turned, words = self._set_up_facing(table, unit, seen, way)
            if turned != facing:
                action = Place(uid, here, turned)
                if action in legal:
                    return Decision(action, words)
        return None

    def _set_up_spot(
        self,
        table: Table,
        unit: UnitView,
        seen: list[UnitView],
        way: list,
        eyes: list,
    ) -> tuple[str, str] | None:
        """Where in its set-up area (``Game.setup_hexes``, HX-12) ``unit`` sets up, by its
        side's own reasoning, and the words why: each free hex scored by

        - cover: a hex where it may set up concealed (woods or a building out of the LOS of
          every enemy its side knows of, RD-11), for the scenario defender (which may
          conceal) or a unit concealed already (``SETUP_COVER``);
        - a vehicle: the objective less the risk of being knocked out there (the threat map,
          RD-18), as in its Movement Phase;
        - a Gun (it cannot move): how much of the enemy's likely way in it sees, nearer
          better (``SETUP_SIGHT``), and the objective;
        - Infantry: the objective, and nearness to the enemy's way in (its AT weapons are
          short-ranged);
        - a little less next to another unit of its side (one shot, one mover in sight,
          should not find them all);

        then one of the hexes within ``SETUP_SPREAD`` of the best drawn at random from the
        player's own seed (the same seed, the same set-up; another seed, most likely
        another): never the scenario file's hex for its own sake, so the file tells no one
        where a "?" stands."""
        board = table.board
        uid = unit["id"]
        heavy = unit.get("category") != "infantry"
        enemy_hexes = {u["hex"] for u in seen if u["side"] != self.side}
        stacked = {  # one vehicle or Gun a hex (HX-4)
            u["hex"]
            for u in seen
            if u["side"] == self.side and u["id"] != uid and u.get("category") != "infantry"
        }
        options = [
            h
            for h in table.setup_hexes(uid)
            if h not in enemy_hexes and not (heavy and h in stacked)
        ]
        if not options:
            return None
        defends = self.side == table.defender
        may_hide = defends or bool(unit.get("concealed"))
        objective = self._objective_of(table, uid)
        others = [board.parse(u["hex"]) for u in seen if u["side"] == self.side and u["id"] != uid]
        way_at = [(w, board.index(w)) for w in way]

        def hides(hx: str) -> bool:
            h = board.parse(hx)
            if board.terrain_at(h).key not in HIDING_TERRAIN:
                return False
            i = board.index(h)
            return not any(eye[i] for eye in eyes)

        def view(hx: str) -> float:  # the enemy's way in it sees, nearer better
            h = board.parse(hx)
            clear = table.viewshed(hx)[0]
            total = 0.0
            for w, i in way_at:
                d = h.distance(w)
                if d == 0 or not clear[i]:
                    continue
                total += 1.0 if 2 <= d <= 8 else 0.4 if d < 2 else 0.5 if d <= 12 else 0.2
            return total

        if unit.get("is_vehicle"):
            threats = self._threats_for(table, uid, frozenset([unit["hex"], *options]))
            worth = 2.0 if unit.get("category") == "afv" else 1.0

            def base(hx: str) -> float:
                return objective(hx) - 6.0 * worth * removal_risk(threats.get(hx))

        elif unit.get("has_gun"):
            views = {h: view(h) for h in options}
            most = max(views.values()) or 1.0

            def base(hx: str) -> float:
                return SETUP_SIGHT * views[hx] / most + 0.5 * objective(hx)

        else:

            def base(hx: str) -> float:
                here = board.parse(hx)
                near = min((here.distance(w) for w, _ in way_at), default=0)
                return objective(hx) - 0.3 * max(0, near - 1)

        def score(hx: str) -> float:
            here = board.parse(hx)
            s = base(hx)
            if may_hide and hides(hx):  # a vehicle weighs its risk there too: half
                s += SETUP_COVER / 2 if unit.get("is_vehicle") else SETUP_COVER
            if any(here.distance(o) <= 1 for o in others):
                s -= 0.5
            return s

        scores = {h: score(h) for h in options}
        top = max(scores.values())
        pool = sorted(h for h, v in scores.items() if v >= top - SETUP_SPREAD)
        rng = random.Random(_mix(self.seed, _text(table.phase), _text(uid)))
        hx = rng.choice(pool)
        why = f"sets up in {hx}"
        if may_hide and hides(hx):
            why += ", out of the enemy's sight (RD-11)"
        return hx, why

    def _set_up_facing(
        self, table: Table, unit: UnitView, seen: list[UnitView], way: list
    ) -> tuple[int, str]:
        """The facing ``unit`` takes where it has set up (HX-12: any facing) and its words: a
        Gun faces the most of the enemy's way in it sees inside its Covered Arc (else all of
        it; C6.42: it waits for the enemy there); the scenario defender's vehicle faces the
        enemies it knows of (its front armor, RD-8); else its facing is kept."""
        board = table.board
        here = board.parse(unit["hex"])
        facing = int(unit.get("facing", 0))
        if not unit.get("is_vehicle") and unit.get("has_gun") and way:
            clear = table.viewshed(unit["hex"])[0]
            sighted = [w for w in way if clear[board.index(w)] and w != here] or list(way)

            def arc(f: int) -> tuple:
                offs = [facing_offset(here, f, w) for w in sighted]
                return (-sum(o <= 30 for o in offs), sum(offs), f != facing, f)

            best = min(range(6), key=arc)
            return best, f"turns its Covered Arc towards the enemy's way in (hexside {best})"
        if unit.get("is_vehicle") and self.side == table.defender:
            enemies = [
                board.parse(u["hex"])
                for u in seen
                if u["side"] != self.side and u.get("status", "active") == "active"
            ]
            if enemies:

                def off(f: int) -> float:
                    return sum(facing_offset(here, f, e) for e in enemies)

                best = min(range(6), key=lambda f: (off(f), f != facing, f))
                if off(best) < off(facing) - 1e-6:
                    return best, f"turns to face the enemy (hexside {best})"
        return facing, ""

    # --- movement ------------------------------------------------------------------------------

    def _threats_for(self, table: Table, unit_id: str, within: frozenset[str]) -> dict:
        """The threat map of an own vehicle (RD-18) over the hexes ``within`` it weighs (a
        large map's others cost time and are never read), kept while the enemies stand
        still."""
        # what it is read for depends on the enemies alone: an own vehicle's hex (the only
        # other input, HX-4) is never scored (not reachable, not free to set up in), so a
        # resumed game, its cache empty, decides the same
        me: UnitRecord = next((u for u in table.units() if u["id"] == unit_id), {})
        own = (me.get("facing"), me.get("turret"), me.get("status"))  # its aspect to each shot
        what = ("threat", unit_id, own)
        return self._kept(table, what, table.threat_map, unit_id, within)

    def _kept(
        self,
        table: Table,
        what: tuple,
        build: Callable[[str, frozenset[str]], dict],
        unit_id: str,
        within: frozenset[str],
    ) -> dict:
        """A map of ``unit_id`` over the hexes ``within`` (``build(unit_id, hexes)``), kept
        while the enemies it may see stand as they do, in this phase: a hex made once is not
        made again (its figure is the same whatever other hexes were asked for), unless its
        own side's unit stood in it (a hex it may not enter has no figure, HX-4); ``what``
        names the map and what else it depends on."""
        units = table.units()
        enemies = tuple(  # and what a shot of theirs reads that a shot may change (C6.5)
            (
                u["id"],
                u["hex"],
                u.get("status"),
                u.get("facing"),
                u.get("turret"),
                u.get("shock"),
                tuple(u.get("acquisition") or ()),
            )
            for u in units
            if u["side"] != self.side
        )
        key = (*what, enemies, table.turn, table.phasing, table.phase)
        kept = self._threats.get(key)
        if kept is None:
            if len(self._threats) > 64:
                self._threats.clear()
            kept = self._threats[key] = (set(), {})
        made, figures = kept
        missing = within - made
        if missing:
            part = build(unit_id, frozenset(missing))
            figures.update(part)
            made |= missing - {u["hex"] for u in units if u["side"] == self.side}
            self.work += len(part)
        return figures

    def _unknown_risk(self, table: Table) -> Callable[[str], float]:
        """The risk an enemy "?" may hold for a vehicle in a hex: what it is is secret (RD-11),
        so each "?" with a clear LOS to the hex (the terrain, which every side knows) counts
        as a fair chance of a hidden Gun's shot, more at short range (UNKNOWN_RISK)."""
        board = table.board
        rows = [
            (board.parse(u["hex"]), table.viewshed(u["hex"])[0])
            for u in table.units()
            if u["side"] != self.side and u.get("type") == "?"
        ]
        memo: dict[str, float] = {}

        def risk(hx: str) -> float:
            hit = memo.get(hx)
            if hit is None:
                here = board.parse(hx)
                i = board.index(here)
                alive = 1.0
                for where, clear in rows:
                    d = where.distance(here)
                    if clear[i] and d > 0:
                        alive *= 1.0 - next(p for reach, p in UNKNOWN_RISK if d <= reach)
                hit = memo[hx] = 1.0 - alive
            return hit

        return risk

    def _attacks_for(self, table: Table, unit_id: str, within: frozenset[str]) -> dict:
        """The attack map of an own vehicle (the threat map turned round) over the hexes
        ``within``, kept while the enemies stand still; the same key as :meth:`_threats_for`
        (it reads no more)."""
        return self._kept(table, ("attack", unit_id), table.attack_map, unit_id, within)

    def _objective_of(self, table: Table, unit_id: str):
        """The objective of ``unit_id`` as a function of a hex, its inputs read once: on a
        hex the side must hold that no other unit of its holds yet, or near one (more as the
        turns run out: a hold counts at the end), the deepest first so that the others can
        follow in behind; near the edge it must leave by; near the enemy it must knock out
        (not closer than point blank); and, for Infantry (AT fire does not harm it, 002), on
        a hex the enemy must hold (it cannot hold it while this side stands there, RD-13)."""
        key = (table, unit_id)  # a table is of one moment of one game
        if self._objective_key == key and self._objective_fn is not None:
            return self._objective_fn
        board = table.board
        late = table.turn / max(1, table.turns)
        urgency = 0.4 + 3.6 * late * late
        # a hold counts when the last turn ends (RD-13): before it, near is enough
        stand = 4.0 if table.turn >= table.turns else 1.0
        seen = table.units()
        mine = [u for u in seen if u["side"] == self.side]
        me: UnitRecord = next((u for u in mine if u["id"] == unit_id), {})
        held = {u["hex"] for u in mine if u["id"] != unit_id and u.get("status") == "active"}
        conditions = [v for v in table.victory if v.side == self.side]
        home = [board.parse(h) for h in table.home_hexes()]
        # an enemy Infantry unit seen in a hex keeps it: AT fire cannot harm it (002) and no
        # unit enters an enemy's hex, so a hold of that hex is lost (RD-13)
        kept = {
            u["hex"] for u in seen if u["side"] != self.side and u.get("category") == "infantry"
        }
        immune = me.get("category") == "infantry"
        holds = []
        for v in conditions:
            if v.kind == "hold" and not kept.intersection(v.hexes):
                free = [board.parse(h) for h in v.hexes if h not in held]
                holds.append((free, _depths(free, home)))
        edges = [v.edge for v in conditions if v.kind == "exit" and v.edge]
        named = {x for v in conditions for x in v.units}
        enemies = [
            board.parse(u["hex"])
            for u in seen
            if u["side"] != self.side and (not named or self._may_be(table, u["id"], named))
        ]
        block = set()
        if immune:  # AT fire cannot harm it there (002)
            ours = {  # hexes an own Infantry unit keeps: an enemy hold of one is lost
                u["hex"]
                for u in mine
                if u["id"] != unit_id
                and u.get("category") == "infantry"
                and u.get("status") == "active"
            }
            block = {
                h
                for v in table.victory
                if v.side != self.side and v.kind == "hold" and not ours.intersection(v.hexes)
                for h in v.hexes  # a vehicle there may yet be knocked out or drive off
                if h not in kept  # an enemy Infantry unit there keeps it
            }
        # the scenario defender wins when time runs out (HX-11): its vehicles close only to
        # shooting range and let the enemy come the rest of the way (its Infantry, which AT
        # fire cannot harm, 002, closes with it all the same)
        near = STANDOFF if self.side == table.defender and not immune else 3
        memo: dict[str, float] = {}

        def objective(hx: str) -> float:
            hit = memo.get(hx)
            if hit is not None:
                return hit
            here = board.parse(hx)
            score = 0.0
            for hexes, depth in holds:
                if hexes:
                    d = min(here.distance(h) for h in hexes)
                    if immune:  # Infantry keeps a hex it takes (002): take it now
                        score += TAKE_AND_KEEP if d == 0 else -0.6 * d
                    else:
                        score += (
                            (stand + 0.3 * depth.get(here, 0)) * urgency
                            if d == 0
                            else (-0.5 * urgency * d)
                        )
            for edge in edges:  # Infantry is slow and AT fire cannot stop it (002): go now
                score -= 0.6 * (4.0 if immune else urgency) * to_edge(board, here, edge)
            if enemies:  # close with the enemy it must knock out
                d = min(here.distance(e) for e in enemies)
                score -= 0.3 * max(0, d - near)
            if block:  # the sooner the better: once there, it stays (002, RD-13)
                d = min(here.distance(board.parse(h)) for h in block)
                score += TAKE_AND_KEEP if d == 0 else -0.6 * d
            memo[hx] = score
            return score

        self._objective_key, self._objective_fn = key, objective
        return objective

    def _best_hex(
        self, table: Table, unit: UnitView, rng: random.Random
    ) -> tuple[float, str | None, Route | None]:
        """Level 2's search over every hex the vehicle can reach (level 1: the hexes next to
        it): (score, hex, route), hex None for staying put."""
        uid = unit["id"]
        if self.level >= 2:
            routes = table.reachable(uid)
        else:
            routes = {h: r for h in table.move_costs(uid) if (r := table.route(uid, h))}
        # the hexes weighed: where it stands, where it could go and the hexes on the way
        within = frozenset([unit["hex"], *routes, *(h for r in routes.values() for h in r.hexes)])
        threats = self._threats_for(table, uid, within)
        worth = 2.0 if unit.get("category") == "afv" else 1.0

        unknown = self._unknown_risk(table) if self.level >= 2 else (lambda hx: 0.0)

        def risk_at(hx: str) -> float:
            known = removal_risk(threats.get(hx))
            return 1.0 - (1.0 - known) * (1.0 - unknown(hx))

        caution, aggression = self._weights(table)
        plan = self._plan
        caution *= plan.caution
        aggression *= plan.aggression
        # level 2 also seeks the hexes it could shoot from (the attack map, RD-18)
        attacks = self._attacks_for(table, uid, within) if self.level >= 2 else {}
        worths: dict[str, float] = {}

        def offense(hx: str) -> float:
            values = []
            for target, p in attacks.get(hx, ()):
                if target not in worths:
                    worths[target] = self._worth(table, target)
                values.append(p * worths[target])
            values.sort(reverse=True)
            return values[0] + 0.3 * sum(values[1:]) if values else 0.0

        leaves = self._last_exit(table, unit)

        def score(hx: str, route: Route | None = None) -> float:
            if route is not None and leaves(hx, route):
                return EXIT_NOW  # off the map this phase: out of harm's way, and counted
            safe = 1.0 - risk_at(hx)
            if route is not None and self.level >= 2:  # Defensive First Fire on the way
                for h in route.hexes[:-1]:  # (a moving target: about half as easy, Case J)
                    safe *= 1.0 - DFF_ON_THE_WAY * risk_at(h)
            goal = plan.objective * self._objective_of(table, uid)(hx)
            return goal - caution * worth * (1.0 - safe) + aggression * offense(hx)

        stay = score(unit["hex"])
        if self.level >= 2 and self.side == table.defender and unit.get("concealed"):
            stay += 1.0  # a move in enemy sight would reveal it (RD-11): it waits hidden
        best: tuple[float, str | None, Route | None] = (stay, None, None)
        self.work += len(routes)
        for hx in sorted(routes):
            s = score(hx, routes[hx]) - 0.02 * routes[hx].mp + rng.random() * 1e-6
            if s > best[0] + 0.05:
                best = (s, hx, routes[hx])
        return best

    def _last_exit(self, table: Table, unit: UnitView) -> Callable[[str, Route], bool]:
        """In the side's last Movement Phase (RD-12) with an exit victory (RD-13): whether
        the route to a hex leaves the vehicle on the edge that victory names with the MP to
        turn off the map and leave by its front hexside (1 MP, RD-13 exit) this phase; a hex
        on the edge it could not leave from then counts for nothing more than its nearness."""
        wanted = {v.edge for v in table.victory if v.side == self.side and v.kind == "exit"}
        if not wanted or phases_left(table, self.side) > 0 or not unit.get("is_vehicle"):
            return lambda hx, route: False
        board = table.board
        left = float(unit.get("mp_left", 0.0))
        facing0 = int(unit.get("facing", 0))

        def leaves(hx: str, route: Route) -> bool:
            here = board.parse(hx)
            out = [f for f in range(6) if board.edge_beyond(here.neighbor(f)) in wanted]
            if not out:
                return False
            facing = facing0
            for step in route.steps:
                if isinstance(step, Turn):
                    facing = step.facing
            turns = min(min((f - facing) % 6, (facing - f) % 6) for f in out)
            return left - route.mp >= 1 + turns

        return leaves

    def _weights(self, table: Table) -> tuple[float, float]:
        """(caution, aggression): how much the risk of being knocked out (RD-18) and the
        shots a hex gives count against the objective. The side that wins when time runs out
        (the scenario defender, HX-11) holds back; the other must come on, the bolder as its
        turns run out."""
        if self.level < 2:
            return 3.0, 0.0
        defends = self.side == table.defender
        late = table.turn / max(1, table.turns)
        caution = 6.0 if defends else 3.0 + 3.0 * (1.0 - late)
        aggression = 0.8 if defends else 1.0 + 3.0 * late
        return caution, aggression

    _plan: Plan = STEADY
    """The plan the move being decided follows (level 3: the search's; else ``self.plan``)."""

    def _plan_now(self, table: Table) -> tuple[Plan, str]:
        """The plan for this Movement Phase and its words (``Decision.plan``, never shown to
        the other side: they read this side's secrets too): level 3 searches at
        the phase's first decision (game.ai.lookahead) and keeps the plan for the phase; a
        game resumed in the middle of a phase takes up the plan its save kept (resume_plan)."""
        if self.level < 3:
            return self.plan, ""
        key = (table.game_key, table.turn, table.phasing)
        found = self._searched.get(key)
        if found is None:
            if len(self._searched) > 16:
                self._searched.clear()
            preset = self._preset.get((table.turn, table.phasing))
            if preset is not None:  # a saved game resumed in this phase: its plan
                found = SearchResult(preset, (), 0, 0, 0)
            elif table.board.size > self.budget.max_hexes:
                found = SearchResult(STEADY, (), 0, 0, 0, "the map is too large to search")
            else:
                found = self._search(table)
            self._searched[key] = self.last_search = found
        return found.best, found.words()

    def plan_record(self, table: Table) -> dict | None:
        """Level 3: the plan of the Movement Phase in progress as a save keeps it
        (``{"turn", "side", "name"}``), or None."""
        found = self._searched.get((table.game_key, table.turn, table.phasing))
        if self.level < 3 or found is None or table.phase != "movement":
            return None
        return {"turn": table.turn, "side": table.phasing, "name": found.best.name}

    def resume_plan(self, record: dict) -> None:
        """Take up the plan a save kept (:meth:`plan_record`) for that Movement Phase: a game
        resumed in its middle goes on by the plan it began with (a name no plan has is left
        out: the phase is searched again)."""
        plan = next((p for p in PLANS if p.name == record.get("name")), None)
        if plan is not None:
            self._preset[(int(record["turn"]), str(record["side"]))] = plan

    def _search(self, table: Table) -> SearchResult:
        """Level 3's portfolio search over the rest of this player turn (docs/ai.md)."""
        other = next(s for s in table.sides if s != self.side)
        cache: dict[tuple, tuple[set[str], dict]] = {}
        base = self._draw_seed(table, 3)

        def players(plan: Plan, r: int) -> tuple[ComputerPlayer, ComputerPlayer]:
            me = ComputerPlayer(self.side, 2, seed=_mix(base, r, 1))
            me.plan = plan
            them = ComputerPlayer(other, 2, seed=_mix(base, r, 2))
            them.eager = True
            for p in (me, them):
                p.steady_rng = p.commit = True
                p._threats = cache  # the maps depend on the enemies, not on the plan
            return me, them

        value = Valuation(self, table)
        return search(table, base, players, value, PLANS, self.budget)

    def _move(self, table: Table, legal: list[Action], rng: random.Random) -> Decision:
        mine = {u["id"]: u for u in table.units() if u["side"] == self.side}
        moving = table.moving_unit
        leave = self._leave(table, mine, legal)
        if leave is not None:
            return leave
        self._plan, because = self._plan_now(table)
        if not self._plan.moves:  # the plan keeps the vehicles where they stand
            for uid in table.can_act():
                unit = mine.get(uid)
                if unit is not None and not unit.get("is_vehicle"):
                    step = self._infantry_step(table, unit, legal)
                    if step is not None:
                        return step
            if moving is not None and moving in mine:
                stop = EndMove(moving, False)  # in Motion, it stops only in a new hex (HX-16)
                if stop not in legal:
                    return Decision(EndMove(moving, True), "stays in Motion", because)
                return Decision(stop, "stops", because)
            return Decision(EndPhase(), "stands fast", because)
        if self.commit and self._commit_key != (table.game_key, table.turn, table.phasing):
            self._commit_key = (table.game_key, table.turn, table.phasing)
            self._routes, self._stays = {}, set()
        if moving is not None and moving in mine:  # a move under way: on, or end it
            unit = mine[moving]
            if not unit.get("is_vehicle"):  # Infantry walks on while its MF last (RD-10)
                step = self._infantry_step(table, unit, legal)
                return step or Decision(EndMove(moving, False), "stops")
            ahead = self._routes.get(moving)
            if self.commit and ahead is not None:
                if ahead and ahead[0] in legal:
                    return Decision(ahead.pop(0), "drives on")
                hx, route = None, None
            else:
                _, hx, route = self._best_hex(table, unit, rng)
            first = route.steps[0] if route is not None and route.steps else None
            if first is not None and first in legal and not self._goes_back(table, unit, first):
                return Decision(first, f"drives towards {hx}")
            if route is None and self.level >= 2:  # it stays: its front to the enemy (RD-8)
                pivot = self._face(table, unit, legal)
                if pivot is not None:
                    return pivot
            danger = table.threat_here(moving).p_kill  # where it stands, as it stands
            if EndMove(moving, False) not in legal:  # in Motion: it stops only in a new hex
                danger = 1.0  # (HX-16)
            return Decision(
                EndMove(moving, danger > 0.08),
                "ends its move in Motion (Case J)" if danger > 0.08 else "stops",
            )
        for uid in table.can_act():
            if uid not in mine or uid in self._stays:
                continue
            unit = mine[uid]
            if not unit.get("is_vehicle"):  # Infantry: one hex nearer the objective
                step = self._infantry_step(table, unit, legal)
                if step is not None:
                    return step
                continue
            _, hx, route = self._best_hex(table, unit, rng)
            if route is not None and route.steps and route.steps[0] in legal:
                if self.commit:
                    self._routes[uid] = list(route.steps[1:])
                return Decision(route.steps[0], f"drives towards {hx}", because)
            if route is None and self.level >= 2:  # it stays: its front to the enemy
                pivot = self._face(table, unit, legal)
                if pivot is not None:
                    return pivot
            if self.commit:
                self._stays.add(uid)
        return Decision(EndPhase(), "no move worth making", because)

    def _face(self, table: Table, unit: UnitView, legal: list[Action]):
        """For a vehicle that stays in its hex: the pivot (one hexside) towards the facing in
        which the enemies its side knows would be least likely to knock it out there (the
        threat map's exact odds, RD-18: a shot at its front meets its thickest armor, RD-8),
        if that is at least ``FACE_GAIN`` less likely than as it stands; else None."""
        uid = unit["id"]
        turns = {a.facing: a for a in legal if isinstance(a, Turn) and a.unit == uid}
        if not turns or unit.get("concealed"):  # a pivot in sight would reveal it (RD-11)
            return None
        if removal_risk(table.threat_here(uid)) < FACE_GAIN:  # no facing could gain that
            return None
        facing = int(unit.get("facing", 0))
        risks = {f: removal_risk(t) for f, t in table.threat_facings(uid).items()}
        best = min(risks, key=lambda f: (round(risks[f], 6), _pivots(facing, f), f))
        if risks[best] > risks[facing] - FACE_GAIN:
            return None
        step = (facing + (1 if (best - facing) % 6 <= 3 else -1)) % 6
        if step not in turns:
            return None
        why = (
            f"turns its front to the enemy ({100 * risks[facing]:.0f}% -> {100 * risks[best]:.0f}%)"
        )
        return Decision(turns[step], why)

    def _goes_back(self, table: Table, unit: UnitView, step: Action) -> bool:
        """Whether ``step`` would bring the moving vehicle back to a hex and facing it has
        already stood in during this move: the route, weighed again after each step, would
        then go round in circles, spending MP in the enemy's sight for nothing (C6.17). Read
        from the game's log of the move as its side reads it (``Event.seen_by``, the door
        :meth:`Knowledge.events` reads through: a unit moves once a phase, so the walk back
        stops at the phase's start), so a game resumed in the middle of a move decides the
        same."""
        board = table.board
        here, facing = board.parse(unit["hex"]), int(unit.get("facing", 0))
        if isinstance(step, Turn):
            after = (here, step.facing)
        elif isinstance(step, Move) and step.to != "off":
            after = (board.parse(step.to), facing)
        else:
            return False
        been = {(here, facing)}
        for e in reversed(table.events()):
            if e.kind == "phase":
                break
            if e.kind not in ("move", "turn") or e.data.get("unit") != unit["id"]:
                continue
            if e.kind == "turn":
                facing = int(e.data["from"])
            else:
                here = board.parse(e.data["from"])
            been.add((here, facing))
        return after in been

    def _leave(self, table: Table, mine: dict, legal: list[Action]) -> Decision | None:
        """An exit victory (RD-13): a unit on the edge it names leaves by it (never by
        another edge, where it would not count); a vehicle there facing along the edge
        turns towards it first (it leaves through its front hexside)."""
        wanted = {v.edge for v in table.victory if v.side == self.side and v.kind == "exit"}
        if not wanted:
            return None
        for a in legal:
            if isinstance(a, Move) and a.to == "off" and table.exit_edge(a.unit) in wanted:
                return Decision(a, "leaves the map (an exit victory, RD-13)")
        for a in legal:
            if isinstance(a, Turn) and mine.get(a.unit, {}).get("is_vehicle"):
                unit = mine[a.unit]
                facing = int(unit.get("facing", 0))
                ahead = [f for f in range(6) if table.exit_edge(a.unit, f) in wanted]
                if not ahead or facing in ahead:  # not on that edge, or facing off it
                    continue
                best = min(ahead, key=lambda f: (min((f - facing) % 6, (facing - f) % 6), f))
                step = 1 if (best - facing) % 6 <= 3 else -1
                if a.facing == (facing + step) % 6:
                    return Decision(a, "turns to leave the map (an exit victory, RD-13)")
        return None

    def _infantry_step(self, table: Table, unit: UnitView, legal: list[Action]) -> Decision | None:
        """An Infantry unit's move: the adjacent hex that serves the objective best, if it
        is better than where it stands."""
        objective = self._objective_of(table, unit["id"])
        here = objective(unit["hex"])
        moves = [a for a in legal if isinstance(a, Move) and a.unit == unit["id"]]
        scored = [(objective(a.to), a.to, a) for a in moves if a.to != "off"]
        scored.sort(key=lambda t: (-t[0], t[1]))
        if scored and scored[0][0] > here + 0.2:
            return Decision(scored[0][2], f"moves to {scored[0][1]}")
        return None


def _pivots(facing: int, to: int) -> int:
    """Hexsides from ``facing`` round to ``to``, the shorter way."""
    return min((to - facing) % 6, (facing - to) % 6)


def _depths(hexes: list, home: list) -> dict:
    """How much deeper each hex of a hold condition lies than the nearest of them, counted
    from where the side set up (0 for the nearest): the deepest is taken first."""
    if not hexes or not home:
        return {}
    far = {h: min(h.distance(x) for x in home) for h in hexes}
    least = min(far.values())
    return {h: d - least for h, d in far.items()}


def _shot_words(shot) -> str:
    if shot.p_kill is None:
        return f"fires at a concealed unit: {100 * shot.p_hit:.0f}% to hit"
    return f"fires: {100 * shot.p_hit:.0f}% to hit, {100 * shot.p_kill:.0f}% to knock it out"
