"""The computer opponent (docs/ai.md): it plays one side of any scenario from what that side
may know, read from its side's :class:`~game.engine.table.Table` alone (its view: a concealed
enemy is a "?" known by its alias, an enemy's Bore Sighted Location unknown; the questions a
side may ask; the actions legal to it), never from the game.

Each decision is Battle for Wesnoth's candidate-action loop (:mod:`game.ai.candidates`): the
candidates of the phase (set-up, move, fire, Defensive First Fire, pass) evaluate the
situation by the shared valuation (:mod:`game.ai.valuation`) and the tuning table
(game/ai/data/tuning.toml), and the best offer is the decision.

Four levels. 0 (``random``) plays random legal actions (the baseline). 1 (``scorer``) scores
the candidate actions of each decision with the exact odds (the odds panel's own numbers), the
threat map (RD-18) and the victory conditions: the best shot if it is worth it, else the best
move, else End Phase. 2 (``planner``) weighs, for each vehicle, every hex it can reach this
phase (the engine's own route planner) by the objective, the risk of being knocked out there
and the enemies it would see, and it reasons about Defensive First Fire (C6.17): a shot at +4
(Case J2) at a vehicle with MP left is held for the better odds it will give after more MP in
sight. 3 (``lookahead``) adds a search on top (:mod:`game.ai.lookahead`): at the start of its
Movement Phase it plays the rest of its player turn out under each plan of a portfolio, on
copies holding only what its side may know, and moves by the plan that ends best.

Every choice is reproducible: ties are broken by a random source seeded from the player's seed
and what its side may know of the game (the turn, the phase, the events it may read: never the
other side's secrets), so a game against the computer saved and resumed goes on as it
would have, and its save replays to the same hash."""

from __future__ import annotations

import random
from dataclasses import replace

from game.engine.actions import Action, Pass, action_from_json
from game.engine.table import Table

from .candidates import best, candidates
from .decision import Decision, mix, text
from .lookahead import PLANS, STEADY, Budget, ChanceResult, SearchResult, search, weigh_chance
from .situation import Drive, Situation
from .tuning import Plan, tuning
from .valuation import Valuation
from .valuation.danger import must_be_afvs
from .valuation.maps import KeptMaps
from .valuation.objective import Objectives
from .valuation.reach import loses_at_the_end
from .valuation.seen import SeenObjectives, seen_routes

LEVELS = {0: "random", 1: "scorer", 2: "planner", 3: "lookahead"}
SEARCHES_KEPT = 16
"""Level 3's searches kept (a phase's plan, by game, turn and side), then all dropped."""


def portfolio(table: Table, side: str) -> tuple[Plan, ...]:
    """The plans level 3 weighs (``[[plans]]``): a plan in which no vehicle moves (``stand``)
    only for a side that does not lose as things stand at the game's end
    (:func:`~.valuation.reach.loses_at_the_end`, RD-13, HX-11): waiting is the plan of the side
    that wins when time runs out, or holds what it must; for the side that must act it only
    spends a turn, and its playouts, short of the drive still to come under fire, scored it
    above moving (issue 41: the Orel road's column stood in turn 2 or 3 of 5 of 20 games
    against the careful player, and lost all five, short of Movement Phases to leave)."""
    if not loses_at_the_end(table, side):
        return PLANS
    return tuple(p for p in PLANS if p.moves)


class ComputerPlayer:
    """One side played by the computer at ``level`` (0-3), its choices seeded by ``seed``."""

    def __init__(self, side: str, level: int = 2, seed: int = 0, budget: Budget | None = None):
        if level not in LEVELS:
            raise ValueError(f"level {level}: expected one of {', '.join(map(str, LEVELS))}")
        self.side = side
        self.level = level
        self.seed = seed
        self.budget = budget or Budget()
        self.maps = KeptMaps(side)
        """The threat and attack maps it keeps, and the hexes it has weighed (``work``)."""
        self.objectives = Objectives(side)
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
        self.drive = Drive()
        self._searched: dict[tuple, SearchResult] = {}
        self._preset: dict[tuple[int, str], Plan] = {}
        self._scripts: dict[tuple, tuple[ComputerPlayer, int]] = {}
        """Level 3: the playout player that plays a Movement Phase whose kept plan is not level
        2's own, and its seed, by its key (:meth:`_scripted`)."""
        self._preset_script: dict[tuple[int, str], dict] = {}
        self.last_chance: ChanceResult | None = None
        """Level 3: the last Defensive First Fire chance weighed (:meth:`_weigh_chance`)."""
        self.last_search: SearchResult | None = None
        """Level 3: the last search made (the bench and the log read it)."""

    @property
    def work(self) -> int:
        """The hexes weighed (each hex a planner call scores, each hex of a threat or attack
        map made): what a search's budget counts, as it grows with the time spent."""
        return self.maps.work

    def acts(self, table: Table) -> bool:
        """Whether this player is the one to act now (its phase, or its Defensive First Fire
        chance during the other side's move)."""
        return not table.over and table.to_act == self.side

    # --- deciding ----------------------------------------------------------------------------

    def choose(self, table: Table) -> Decision:
        """The action to take now (the side must be the one to act): the candidate-action
        loop's pick among the candidates of this level and phase."""
        if table.side != self.side:
            raise ValueError(f"{self.side} reads its own table, not {table.side}'s")
        if not self.acts(table):
            raise ValueError(f"{self.side} is not to act")
        script = self._scripted(table)
        if script is not None:  # level 3: the plan kept is played as its playouts played it
            decision = script.choose(table)
            return replace(decision, plan=decision.plan or self._plan_now(table)[1])
        decision = self._choose(table)
        if self._scripted(table) is not None:  # its search has just kept another plan
            return self.choose(table)
        return decision

    def _choose(self, table: Table) -> Decision:
        """The candidate-action loop's pick (:meth:`choose`)."""
        # a playout player's ties are broken alike whatever was played
        rng = random.Random(self.seed if self.steady_rng else self._draw_seed(table))
        self.drive.commit = self.commit
        situation = Situation(
            table=table,
            legal=table.actions(),
            rng=rng,
            side=self.side,
            level=self.level,
            seed=self.seed,
            maps=self.maps,
            objectives=self.objectives,
            drive=self.drive,
            planner=self._plan_now,
            eager=self.eager,
            weigh=self._weigh_chance if self._weighs(table) else None,
        )
        return best(candidates(table, self.level), situation)

    def _draw_seed(self, table: Table, *salt: int) -> int:
        """The seed of this decision's random source: the player's own seed, the turn, the
        phase, the side to act and how many events its side may read
        (:meth:`Knowledge.events`), never the actions applied or the dice drawn: those count
        the other side's secret choices too (a Bore Sighting, a set-up move: C6.42, HX-12),
        and what its side may not know must not change its plan."""
        return mix(
            self.seed,
            table.turn,
            text(table.phase),
            text(table.to_act or ""),
            table.event_count(),
            *salt,
        )

    # --- level 3: the plan of a Movement Phase ---------------------------------------------------

    def _plan_now(self, table: Table) -> tuple[Plan, str]:
        """The plan for this Movement Phase and its words (``Decision.plan``, never shown to
        the other side: they read this side's secrets too): level 3 searches at the phase's
        first decision that needs a plan (game.ai.lookahead) and keeps it for the phase; a
        game resumed in the middle of a phase takes up the plan its save kept (resume_plan)."""
        if self.level < 3:
            return self.plan, ""
        key = (table.game_key, table.turn, table.phasing)
        found = self._searched.get(key)
        if found is None:
            if len(self._searched) > SEARCHES_KEPT:
                self._searched.clear()
                self._scripts.clear()
            preset = self._preset.get((table.turn, table.phasing))
            if preset is not None:  # a saved game resumed in this phase: its plan
                found = SearchResult(preset, (), 0, 0, 0)
                kept = self._preset_script.get((table.turn, table.phasing))
                if kept is not None:
                    seed = int(kept["seed"])
                    self._scripts[key] = (self._script(table, preset, seed, kept), seed)
            else:
                found = self._search(table, self._budget(table))
            self._searched[key] = self.last_search = found
        return found.best, found.words()

    def plan_record(self, table: Table) -> dict | None:
        """Level 3: the plan of the Movement Phase in progress as a save keeps it
        (``{"turn", "side", "name"}``), or None."""
        key = (table.game_key, table.turn, table.phasing)
        found = self._searched.get(key)
        if self.level < 3 or found is None or table.phase != "movement":
            return None
        record: dict = {"turn": table.turn, "side": table.phasing, "name": found.best.name}
        kept = self._scripts.get(key)
        if kept is not None:  # the playout player's seed and the routes it drives
            script, seed = kept
            record["script"] = {
                "seed": seed,
                "routes": {u: [a.to_json() for a in r] for u, r in script.drive.routes.items()},
                "stays": sorted(script.drive.stays),
            }
        return record

    def resume_plan(self, record: dict) -> None:
        """Take up the plan a save kept (:meth:`plan_record`) for that Movement Phase: a game
        resumed in its middle goes on by the plan it began with (a name no plan has is left
        out: the phase is searched again)."""
        plan = next((p for p in PLANS if p.name == record.get("name")), None)
        if plan is not None:
            self._preset[(int(record["turn"]), str(record["side"]))] = plan
            if isinstance(record.get("script"), dict):
                self._preset_script[(int(record["turn"]), str(record["side"]))] = record["script"]

    def _scripted(self, table: Table) -> ComputerPlayer | None:
        """Level 3 in its own Movement Phase: the player that plays it when the search (run when
        a candidate first asks for the plan) kept another plan than level 2's own (None: level
        2's own play, as the search's first plan, or no search yet).
        The search judged that plan as its playouts' player played it (a few likely hexes a
        vehicle, each route driven to its end, no look-ahead: ``commit``), so the kept plan is
        played by that player, with the seed of the search's first round: level 2's full
        weighing of the same plan drives elsewhere (issue 41, the hedgerow: ``push`` won its
        trial runs by leaving the west edge along row 9, and level 3 then drove along row 1
        into the hidden Guns and Panzers, 9 of 20 won where level 2 won 14)."""
        if self.level < 3 or table.phase != "movement" or table.phasing != self.side:
            return None
        key = (table.game_key, table.turn, table.phasing)
        if key not in self._searched and (table.turn, table.phasing) in self._preset_script:
            self._plan_now(table)  # a saved game resumed in this phase: its script
        kept = self._scripts.get(key)
        return None if kept is None else kept[0]

    def _script(self, table: Table, plan: Plan, seed: int, kept: dict | None = None):
        """The playout player of ``plan`` seeded ``seed``; ``kept``: the routes it drove, from
        a save (:meth:`plan_record`)."""
        script = ComputerPlayer(self.side, 2, seed=seed)
        script.plan = plan
        script.steady_rng = script.commit = True
        if kept is not None:
            script.drive.commit = True
            script.drive.key = (table.game_key, table.turn, table.phasing)
            rows = kept.get("routes", {}).items()
            script.drive.routes = {u: [action_from_json(a) for a in r] for u, r in rows}
            script.drive.stays = set(kept.get("stays", ()))
        return script

    def _budget(self, table: Table) -> Budget:
        """The search's budget: on a map of more than ``max_hexes`` hexes a smaller one
        (``[search] large_rounds``, ``large_work``), each playout its own player turn alone:
        a playout there costs several times one on the small maps; a plan that beat level 2's
        by ``large_confirm`` in its one round gets a second (issue 41, eighth session)."""
        b = self.budget
        if table.board.size <= b.max_hexes:
            return b
        t = tuning().search
        return replace(
            b,
            rounds=min(b.rounds, t.large_rounds),
            work=min(b.work, t.large_work),
            answer=False,
            confirm_gain=b.confirm_gain or t.large_confirm,
        )

    def _weighs(self, table: Table) -> bool:
        """Level 3 weighs its Defensive First Fire chances by playouts (:meth:`_weigh_chance`)
        on a map its search covers in full (``[search] max_hexes``), once the enemy's vehicles
        have been seen to drive in an earlier phase (``[chance] evidence``: before that its
        playouts' enemy is level 2's guess alone, and weighing against it cost the careful
        player's games, issue 41, tenth session)."""
        return (
            self.level >= 3
            and bool(table.dff_pending)
            and table.board.size <= self.budget.max_hexes
            and (not tuning().chance.evidence or bool(seen_routes(table, self.side, True)))
        )

    def _playout_pair(
        self,
        other: str,
        mine: int,
        theirs: int,
        seen: frozenset[str],
        shared: dict[tuple, tuple[set[str], dict]],
        plan: Plan = STEADY,
        eager: bool = False,
    ) -> tuple[ComputerPlayer, ComputerPlayer]:
        """A round's two playout players of level 3's searches (level 2's, seeded ``mine``
        and ``theirs``): this side's by ``plan``; the enemy's driving where its vehicles were
        seen to drive (``seen``, :class:`~.valuation.seen.SeenObjectives`), ``eager``: taking
        each Defensive First Fire shot worth taking at once; both keeping their maps in
        ``shared`` (the maps depend on the enemies, not the plan)."""
        me = ComputerPlayer(self.side, 2, seed=mine)
        me.plan = plan
        them = ComputerPlayer(other, 2, seed=theirs)
        them.eager = eager
        them.objectives = SeenObjectives(other, seen)
        for p in (me, them):
            p.steady_rng = p.commit = True
            p.maps = KeptMaps(p.side, shared)
        return me, them

    def _weigh_chance(self, table: Table, options: list[Action]) -> tuple[int, str]:
        """Level 3 at a Defensive First Fire chance (docs/ai.md): ``options`` (level 2's choice
        first) played out to the end of the enemy's Defensive Fire Phase on the search's
        copies (:func:`~.lookahead.weigh_chance`), the enemy's movers still to come driven by
        its playout player (level 2's steady plan, each route to its end, driving where the
        enemy's vehicles were seen to drive this game: ``[chance] seen``), this side's later
        chances and Defensive Fire by level 2; its seed from the player's seed and what its
        side may know (:meth:`_draw_seed`), so a resumed game weighs the same. The index of
        the option kept and its words (``Decision.plan``)."""
        other = next(s for s in table.sides if s != self.side)
        shared: dict[tuple, tuple[set[str], dict]] = {}
        base = self._draw_seed(table, 4)
        seen = seen_routes(table, self.side) if tuning().chance.seen else frozenset()

        def players(r: int) -> tuple[ComputerPlayer, ComputerPlayer]:
            return self._playout_pair(other, mix(base, r, 1), mix(base, r, 2), seen, shared)

        value = Valuation(self, table)
        need, hexes = must_be_afvs(table, self.side)
        found = weigh_chance(table, base, options, players, value, tanks=(need, frozenset(hexes)))
        self.last_chance = found
        what = "holds" if isinstance(options[found.kept], Pass) else "fires"
        return found.kept, found.words(what)

    def _search(self, table: Table, budget: Budget) -> SearchResult:
        """Level 3's portfolio search over the rest of this player turn (docs/ai.md)."""
        other = next(s for s in table.sides if s != self.side)
        shared: dict[tuple, tuple[set[str], dict]] = {}
        base = self._draw_seed(table, 3)
        seen = seen_routes(table, self.side)  # where the enemy met has driven (its log)

        def players(plan: Plan, r: int) -> tuple[ComputerPlayer, ComputerPlayer]:
            seeds = mix(base, r, 1), mix(base, r, 2)
            return self._playout_pair(other, *seeds, seen, shared, plan=plan, eager=True)

        value = Valuation(self, table)
        need, hexes = must_be_afvs(table, self.side)  # RD-13: the "?" that must be AFVs
        plans = portfolio(table, self.side)
        found = search(table, base, players, value, plans, budget, tanks=(need, frozenset(hexes)))
        if found.best != STEADY:  # played as its playouts played it (_scripted)
            key = (table.game_key, table.turn, table.phasing)
            seed = mix(base, 0, 1)
            self._scripts[key] = (self._script(table, found.best, seed), seed)
        return found
