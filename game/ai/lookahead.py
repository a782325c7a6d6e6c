"""Level 3's search (docs/ai.md "Level 3: a search over the player turn"): a portfolio search.
At the start of its Movement Phase the computer plays the rest of its player turn (its moves,
the enemy's Defensive First Fire and Defensive Fire, its Advancing Fire) and the enemy's
player turn that answers it, once for each plan of a small portfolio (level 2's scorer,
bolder, more careful, pushing for the objective, standing fast), on copies of the game that
hold only what its side may know, and keeps the plan whose playouts end best.

What a copy may hold (its determinization): the dice are new dice seeded from the computer's
own seed (never the game's: their next rolls are not its to know); an enemy's Bore Sighted
Location is cleared (C6.42); an enemy "?" stays where it is (every side knows where a counter
is, RD-11) but becomes the prior of what it may be: a typical Gun of its side for the
scenario's year (:func:`prior_gun`), concealed, facing the nearest vehicle of the searching
side. What it really is stays out of every playout, so a playout's outcome depends only on
what the side may know; and a mover that passes in its sight draws the fire a hidden Gun
would give.

Chance: a shot inside a playout is rolled with the copy's seeded dice, the same rolls for every
plan (common random numbers, so that plans are compared on the same luck); what would follow
the playout's end, the enemy's next shots, is counted from the exact odds (the threat map's
figure for each hex, RD-18), not sampled.

The budget is counted in playouts and hexes weighed, never in seconds, so that the search
decides the same on any machine and a resumed game goes on as it would have."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from game.board.hexes import direction_to, facing_angle
from game.engine import Game
from game.engine.actions import Action
from game.engine.catalogue import UnitType, unit_types
from game.engine.setup import Setup
from game.engine.state import UnitState
from game.rules.dice import SEEDS, Dice


@dataclass(frozen=True)
class Plan:
    """One way to play the Movement Phase: level 2's scorer with its weights scaled.

    ``objective``: the weight of the victory conditions' hexes and edges; ``caution``: of the
    risk of being knocked out (RD-18); ``aggression``: of the shots a hex would give; ``moves``:
    False to keep every vehicle where it stands (an exit by the victory's edge still goes)."""

    name: str
    words: str
    objective: float = 1.0
    caution: float = 1.0
    aggression: float = 1.0
    moves: bool = True


STEADY = Plan("steady", "its usual play (level 2)")
PLANS: tuple[Plan, ...] = (
    STEADY,
    Plan("bold", "closes in to shoot, risk counts less", caution=0.4, aggression=1.8),
    Plan("careful", "keeps out of the enemy's fire", caution=2.2, aggression=0.6),
    Plan("push", "goes for the objective", objective=2.0, caution=0.6),
    Plan("stand", "every vehicle stays where it is", moves=False),
)


@dataclass(frozen=True)
class Budget:
    """How much a search may play: up to ``rounds`` playouts of each plan, and no playout
    begun once ``work`` hexes have been weighed (the playout players' ``work``: it grows with
    the time spent, about 3,700 hexes a second on the reference machine, 2 cores, but it is
    the same on any machine, so the search is too: about 3 s at most); a playout stops after
    ``per_playout`` actions (it never happened in the shipped scenarios)."""

    rounds: int = 3
    work: int = 12_000
    max_hexes: int = 800
    """A map of more hexes is not searched (one playout there weighs most of ``work``:
    7,000-8,000 hexes on the four-board map's 1,320, two playouts of fifteen, too few to
    choose a plan by): level 3 plays as level 2."""
    per_playout: int = 600
    answer: bool = True
    """Play on through the enemy's player turn that follows (its answer), not only this
    side's."""


class Chooser(Protocol):
    """A playout player: the computer's level 2 with a plan, or the enemy's; ``work``: the
    hexes it has weighed."""

    work: int

    def choose(self, game: Game) -> object: ...


@dataclass(frozen=True)
class PlanScore:
    plan: Plan
    mean: float
    playouts: int


@dataclass(frozen=True)
class SearchResult:
    """The plan kept, each plan's mean value over its playouts (the plans the budget left
    no playout for are left out), and what was spent."""

    best: Plan
    scores: tuple[PlanScore, ...]
    playouts: int
    actions: int
    work: int
    why: str = "as the game was saved"
    """Why there was no search (no scores): a resumed game's kept plan, or a map too large."""

    def words(self) -> str:
        """The search in a player's words (``Decision.plan``: for its own side and the replay's
        reader, never the other side, RD-11): the plan, what it means, and
        how it did in the trial runs of this turn against the usual play (level 2's), in
        hundredths of a win."""
        if not self.scores:
            return f"plan '{self.best.name}': {self.best.words}, {self.why}"
        best = next(s for s in self.scores if s.plan == self.best)
        steady = next((s for s in self.scores if s.plan == STEADY), best)
        runs = f"{best.playouts} trial run{'s' if best.playouts != 1 else ''} of this turn"
        if best is steady:
            return f"plan '{self.best.name}': {self.best.words}, best in {runs} ({best.mean:+.0f})"
        return (
            f"plan '{self.best.name}': {self.best.words}; in {runs} it scored "
            f"{best.mean:+.0f}, the usual play {steady.mean:+.0f}"
        )


def prior_gun(setup: Setup, side: str) -> UnitType:
    """What a "?" of ``side`` is taken to be in a search (RD-11: what it is is secret): a
    typical Gun of its nationality fielded by the scenario's year, the middle one by caliber
    (the lighter of the two middle ones; a "?" may be only Infantry), else of the catalogue's
    Guns; chosen from the catalogue and the scenario alone."""
    guns = [t for t in unit_types().values() if t.category == "gun"]
    dated = [
        t
        for t in guns
        if setup.year is None or t.available is None or int(t.available[:4]) <= setup.year
    ]
    pool = sorted(
        [t for t in dated if t.nationality == side] or dated or guns,
        key=lambda t: (t.caliber, t.key),
    )
    return pool[(len(pool) - 1) // 2]


def determinize(game: Game, side: str, seed: int, hidden: frozenset[str] = frozenset()) -> Game:
    """A copy of ``game`` holding only what ``side`` may know that a playout could read: new
    dice from ``seed``; no enemy Bore Sighted Location (C6.42); each enemy "?" of ``hidden``
    its prior (:func:`prior_gun`), fresh, concealed, in its hex, facing the nearest vehicle of
    ``side`` (the search's own seeing; nothing of what it really is remains)."""
    copy = game.copy()
    copy.dice = Dice(seed % (SEEDS.stop))
    units = copy.state.units
    for unit in units.values():
        if unit.side != side:
            unit.bore_sight = None
        elif unit.acquisition is not None and unit.acquisition.target in hidden:
            # the counter stays on the Location, on no unit (C6.51): the ids are dealt anew
            unit.acquisition = replace(unit.acquisition, target=None)
    ours = sorted(
        (u for u in units.values() if u.side == side and u.active),
        key=lambda u: (not u.type.is_vehicle, u.id),
    )
    # which "?" is which is secret too (RD-11): the ids of the "?" are dealt out afresh over
    # their hexes (seeded), so that no playout's end (a victory naming units) can tell them
    qids = sorted(hidden)
    hexes = sorted((units[q] for q in qids), key=lambda u: u.label)  # by what its side sees
    random.Random(seed).shuffle(hexes)
    for qid, was in zip(qids, hexes, strict=True):
        facing = 0
        if ours:
            near = min(ours, key=lambda u: (not u.type.is_vehicle, u.hex.distance(was.hex), u.id))
            angle = direction_to(was.hex, near.hex)
            facing = min(range(6), key=lambda d: abs((angle - facing_angle(d) + 180) % 360 - 180))
        units[qid] = UnitState(
            id=qid,
            type=prior_gun(game.setup, was.side),
            side=was.side,
            hex=was.hex,
            facing=facing,
            turret=facing,
            concealed=True,
        )
    return copy


def playout(
    copy: Game,
    side: str,
    me: Chooser,
    them: Chooser,
    cap: int,
    answer: bool = True,
) -> int:
    """Play ``copy`` to the end of ``side``'s player turn and, with ``answer``, of the
    enemy's that follows (its Prep Fire, its moves under ``side``'s Defensive First Fire, its
    Advancing Fire: the answer to what ``side`` did), or to the end of the game; ``me``
    chooses for ``side`` and ``them`` for the enemy; the actions played."""
    n = 0
    away = False  # the enemy's player turn has begun
    while not copy.over and n < cap:
        if copy.phasing != side:
            if not answer:
                break
            away = True
        elif away:
            break
        player = me if copy.to_act == side else them
        decision = player.choose(copy)
        action: Action = decision.action  # type: ignore[attr-defined]
        copy.apply(action)
        n += 1
    return n


def search(
    game: Game,
    side: str,
    seed: int,
    hidden: frozenset[str],
    players: Callable[[Plan, int], tuple[Chooser, Chooser]],
    value: Callable[[Game, Any], float],
    plans: Sequence[Plan] = PLANS,
    budget: Budget = Budget(),
    margin: float = 5.0,
    caution: float = 1.0,
) -> SearchResult:
    """The portfolio search: rounds of one playout per plan, each round on its own dice (the
    same for every plan) and copy (``hidden``: the enemy "?" units, :func:`determinize`),
    ``players(plan, round)`` giving the two playout players and ``value(copy, me)`` the worth
    of a playout's end to ``side``, until the budget is spent. The plans are compared over the
    rounds all of them finished (over the first round's playouts when the budget ended it
    early: the plans it reached) by their mean less ``caution`` standard errors (a plan that
    won one playout in three by luck is not taken for a sure one); the best is kept, level
    2's own (the first) unless another beats it by ``margin``."""
    values: list[list[float]] = [[] for _ in plans]
    actions = work = 0
    for r in range(budget.rounds):
        dice_seed = (seed * 1_000_003 + r) & 0x7FFFFFFFFFFFFFFF
        for i, plan in enumerate(plans):
            if work >= budget.work and (r or i):
                break
            copy = determinize(game, side, dice_seed, hidden)
            me, them = players(plan, r)
            actions += playout(copy, side, me, them, budget.per_playout, budget.answer)
            work += me.work + them.work
            values[i].append(value(copy, me))
        else:
            continue
        break
    rounds = min(len(v) for v in values)
    if rounds:
        rows = [(i, v[:rounds]) for i, v in enumerate(values)]
    else:
        rows = [(i, v) for i, v in enumerate(values) if v]
    means = {i: sum(v) / len(v) for i, v in rows}
    sure = {i: means[i] - caution * _stderr(v) for i, v in rows}
    best = 0
    for i, m in sure.items():
        if i and m > sure[best] + (margin if best == 0 else 0.0):
            best = i
    scores = tuple(PlanScore(plans[i], means[i], len(v)) for i, v in rows)
    played = sum(len(v) for v in values)
    return SearchResult(plans[best], scores, played, actions, work)


def _stderr(values: list[float]) -> float:
    """The standard error of the mean of ``values`` (0 for fewer than two)."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    return (sum((v - mean) ** 2 for v in values) / (n - 1) / n) ** 0.5
