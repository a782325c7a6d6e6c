"""Level 3's search (docs/ai.md "Level 3: a search over the player turn"): a portfolio search.
At the start of its Movement Phase the computer plays the rest of its player turn (its moves,
the enemy's Defensive First Fire and Defensive Fire, its Advancing Fire) and the enemy's
player turn that answers it, once for each plan of a small portfolio (level 2's scorer,
bolder, more careful, pushing for the objective, standing fast), on copies of the game that
hold only what its side may know, and keeps the plan whose playouts end best.

What a copy may hold (its determinization, made by the side's table, ``Table.imagined``, in
:mod:`game.engine.imagine`: the computer never holds the game itself): the dice are new dice seeded
from the computer's own seed (never the game's: their next rolls are not its to know); an enemy's
Bore Sighted Location is cleared (C6.42); an enemy "?" stays where it is (every side knows where a
counter is, RD-11) but becomes the prior of what it may be: a typical Gun of its side for the
scenario's year (``prior_gun``), concealed, facing the nearest vehicle of the searching side. What
it really is stays out of every playout, so a playout's outcome depends only on what the side may
know; and a mover that passes in its sight draws the fire a hidden Gun would give.

Chance: a shot inside a playout is rolled with the copy's seeded dice, the same rolls for every
plan (common random numbers, so that plans are compared on the same luck); what would follow
the playout's end, the enemy's next shots, is counted from the exact odds (the threat map's
figure for each hex, RD-18), not sampled.

The budget is counted in playouts and hexes weighed, never in seconds, so that the search
decides the same on any machine and a resumed game goes on as it would have."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from game.engine.actions import Action
from game.engine.table import Snapshot, Table

from .tuning import Plan, tuning

PLANS: tuple[Plan, ...] = tuning().plans
"""The portfolio (``[[plans]]`` in the tuning table): level 2's own (``steady``), ``bold``,
``careful``, ``push`` and ``stand``."""
STEADY = PLANS[0]
_SEARCH = tuning().search


@dataclass(frozen=True)
class Budget:
    """How much a search may play: up to ``rounds`` playouts of each plan, and no playout
    begun once ``work`` hexes have been weighed (the playout players' ``work``: it grows with
    the time spent, about 3,700 hexes a second on the reference machine, 2 cores, but it is
    the same on any machine, so the search is too: about 3 s at most); a playout stops after
    ``per_playout`` actions (it never happened in the shipped scenarios)."""

    rounds: int = _SEARCH.rounds
    work: int = _SEARCH.work
    max_hexes: int = _SEARCH.max_hexes
    """A map of more hexes is not searched (one playout there weighs most of ``work``:
    7,000-8,000 hexes on the four-board map's 1,320, two playouts of fifteen, too few to
    choose a plan by): level 3 plays as level 2."""
    per_playout: int = _SEARCH.per_playout
    confirm: int = _SEARCH.confirm
    """More rounds, at most, of level 2's own plan and the one that beat it, within ``work``
    (:func:`search`: the plan is kept only if it beats level 2's own on them alone)."""
    answer: bool = True
    """Play on through the enemy's player turn that follows (its answer), not only this
    side's."""
    confirm_gain: float = 0.0
    """When the budget ended with one round of the plans alone and another plan beat level
    2's own in it by at least this much (0: never), a second round of those two alone
    (:func:`_confirmed`; the large maps, ``[search] large_confirm``)."""


class Chooser(Protocol):
    """A playout player: the computer's level 2 with a plan, or the enemy's; ``work``: the
    hexes it has weighed."""

    @property
    def work(self) -> int: ...

    def choose(self, table: Table) -> object: ...


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


def _step(copy: Snapshot, mine: Table, side: str, me: Chooser, them: Chooser) -> None:
    """One action of a playout on ``copy`` (``mine``: ``side``'s table of it): the side that
    acts chooses through its own table (``me`` for ``side``, ``them`` for the enemy)."""
    acting = mine.to_act
    assert acting is not None
    player = me if acting == side else them
    table = copy.table(acting)
    action: Action = player.choose(table).action  # type: ignore[attr-defined]
    table.submit(action)


def playout(
    copy: Snapshot,
    side: str,
    me: Chooser,
    them: Chooser,
    cap: int,
    answer: bool = True,
) -> int:
    """Play the imagined game ``copy`` (``Table.imagined``: each side acts through its own
    table there) to the end of ``side``'s player turn and, with ``answer``, of the enemy's
    that follows (its Prep Fire, its moves under ``side``'s Defensive First Fire, its
    Advancing Fire: the answer to what ``side`` did), or to the end of the game; ``me``
    chooses for ``side`` and ``them`` for the enemy; the actions played."""
    away = False  # the enemy's player turn has begun

    def ended(mine: Table) -> bool:
        nonlocal away
        if mine.phasing != side:
            if not answer:
                return True
            away = True
            return False
        return away

    return _play_until(copy, side, me, them, cap, ended)


def _play_until(
    copy: Snapshot, side: str, me: Chooser, them: Chooser, cap: int, ended: Callable[[Table], bool]
) -> int:
    """Step the imagined game ``copy`` (:func:`_step`) until the game is over, ``ended`` says
    so of ``side``'s table, or ``cap`` actions were played: the actions played."""
    n = 0
    while n < cap:
        mine = copy.table(side)
        if mine.over or ended(mine):
            break
        _step(copy, mine, side, me, them)
        n += 1
    return n


def search(
    table: Table,
    seed: int,
    players: Callable[[Plan, int], tuple[Chooser, Chooser]],
    value: Callable[[Table, Any], float],
    plans: Sequence[Plan] = PLANS,
    budget: Budget = Budget(),
    margin: float = _SEARCH.margin,
    caution: float = _SEARCH.sure,
    tanks: tuple[int, frozenset[str]] = (0, frozenset()),
) -> SearchResult:
    """The portfolio search: rounds of one playout per plan, each round on its own dice (the same
    for every plan) and copy (``table.imagined``: what the table's side may know, each enemy "?"
    dealt anew), ``players(plan, round)`` giving the two playout players and ``value(copy, me)`` the
    worth of a playout's end (the side's table there) to that side, until the budget is spent. The
    plans are compared over the rounds all of them finished (over the first round's playouts when
    the budget ended it early: the plans it reached): level 2's own (the first) is kept unless
    another beats it round by round by ``margin``, after ``caution`` standard errors of the
    difference (:func:`_kept`: a plan that won one playout in three by luck is not taken for a
    sure one); that plan and level 2's own are then played out again on fresh dice, up to
    ``budget.confirm`` rounds within the work, and it is kept only if it beats it so on those
    fresh rounds alone (the rounds it was chosen on hold the luck of the choice; issue 41, the
    duel's ``bold`` drive won 5 of 6 playouts at seed 116, 15 of 40 over 40 rounds).
    Once two rounds have ended with every plan's playouts worth the same, the search stops:
    the plans make no difference here (a side with no vehicle to move), and more rounds would
    cost time alone.
    ``tanks``: how many enemy "?" must be AFVs and the hexes of those that may be (each copy
    holds that many typical AFVs there, ``Table.imagined``; RD-13)."""
    side = table.side
    assert side is not None
    values: list[list[float]] = [[] for _ in plans]
    spent = [0, 0]  # actions, work

    def run(r: int, i: int, into: list[float] | None = None) -> None:
        """Round ``r``'s playout of plan ``i`` (round ``r``'s dice and copy, whatever plan),
        its value kept in ``into`` (else with the plan's values)."""
        dice_seed = (seed * 1_000_003 + r) & 0x7FFFFFFFFFFFFFFF
        copy = table.imagined(dice_seed, *tanks)
        me, them = players(plans[i], r)
        spent[0] += playout(copy, side, me, them, budget.per_playout, budget.answer)
        spent[1] += me.work + them.work
        (values[i] if into is None else into).append(value(copy.table(side), me))

    for r in range(budget.rounds):
        for i in range(len(plans)):
            if spent[1] >= budget.work and (r or i):
                break
            run(r, i)
        else:
            if r >= 1 and all(v == values[0] for v in values):
                break  # every plan played out alike twice: here they make no difference
            continue
        break
    confirmed = _confirmed(values, budget.confirm_gain, run) if budget.confirm_gain else None
    rows = _compared(values) if confirmed is None else [(i, values[i][:2]) for i in confirmed]
    best, checked = _kept(rows, margin, caution), 0
    if best and confirmed is None:  # the best of several on a few rounds: checked on more
        steady: list[float] = []  # judged on the fresh rounds alone: no luck of the choice
        other: list[float] = []  # (issue 41, eighth session)
        for r in range(budget.rounds, budget.rounds + budget.confirm):
            if spent[1] >= budget.work and len(steady) != 1:
                break  # (one fresh round alone would judge nothing: _kept wants two)
            run(r, 0, steady)
            run(r, best, other)
            checked += 2
        if steady:
            kept = dict(rows)  # the scores count the fresh rounds too
            kept[0].extend(steady)
            kept[best].extend(other)
            best = _kept([(0, steady), (best, other)], margin, caution) and best
    actions, work = spent
    means = {i: sum(v) / len(v) for i, v in rows}
    scores = tuple(PlanScore(plans[i], means[i], len(v)) for i, v in rows)
    played = sum(len(v) for v in values) + checked
    return SearchResult(plans[best], scores, played, actions, work)


def _confirmed(
    values: list[list[float]], at_least: float, run: Callable[[int, int], None]
) -> tuple[int, int] | None:
    """Issue 41, eighth session (the large maps, whose budget plays about one round): when
    the plans were compared over one round alone and another plan beat level 2's own (index 0)
    there by ``at_least`` (the four boards' Russian, one AFV short of its elimination victory,
    waited under level 2's plan while ``bold``'s trial run knocked it out and won), a second
    round of level 2's own and that plan alone (``run(round, plan)``, on the second round's
    dice and copy) so that :func:`_kept` has a difference round by round to be sure by: the
    two plans' indexes, to be compared over those two rounds alone (None: no second round)."""
    if min(len(v) for v in values) >= 2 or not values[0]:
        return None
    steady = values[0][0]
    gains = [(v[0] - steady, i) for i, v in enumerate(values) if i and v]
    if not gains or max(gains)[0] < at_least:
        return None
    best = max(gains)[1]
    for i in (0, best):
        if len(values[i]) < 2:
            run(1, i)
    return (0, best)


def _compared(values: list[list[float]]) -> list[tuple[int, list[float]]]:
    """Each plan's values over the rounds every plan finished (over the first round's
    playouts when the budget ended it early: the plans it reached), by the plan's index."""
    rounds = min(len(v) for v in values)
    if rounds:
        return [(i, v[:rounds]) for i, v in enumerate(values)]
    return [(i, list(v)) for i, v in enumerate(values) if v]


def _kept(rows: list[tuple[int, list[float]]], margin: float, caution: float) -> int:
    """The index of the plan kept: level 2's own (index 0) unless another beats it round by
    round, on the same dice and copy (common random numbers: the difference of the two plans'
    values in each round, whatever the luck of the round), by more than ``margin`` after
    ``caution`` standard errors of that difference; of several, the one that beats it by the
    most so. A plan is not judged by the spread of its own values: a playout that ends the
    game is worth a win either way (2 x ``WIN``), and a plan whose every playout stays quiet
    (``stand``) would be taken for a sure one against any plan that fights (issue 41). With
    one round alone there is no standard error to be sure by: level 2's own is kept (issue 41,
    seventh session: on the four boards, whose budget plays about one round, ``bold`` was
    taken on one playout's gain of 6 and lost three T-34s in the turn)."""
    first, steady = rows[0]
    assert first == 0  # level 2's own is played first, whatever the budget
    if len(steady) < 2:
        return 0
    best, most = 0, margin
    for i, v in rows:
        diffs = [a - b for a, b in zip(v, steady, strict=True)]
        gain = sum(diffs) / len(diffs) - caution * _stderr(diffs)
        if i and gain > most:
            best, most = i, gain
    return best


def _stderr(values: list[float]) -> float:
    """The standard error of the mean of ``values`` (0 for fewer than two)."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    return (sum((v - mean) ** 2 for v in values) / (n - 1) / n) ** 0.5


# --- level 3 at a Defensive First Fire chance -------------------------------------------------

_CHANCE = tuning().chance
CHANCE_PHASES = ("movement", "defensive_fire")
"""The enemy's phases a chance's playout plays to the end of (its Movement Phase, the movers
still to come; then the Defensive Fire Phase, RD-12)."""


@dataclass(frozen=True)
class ChanceResult:
    """What the search at a Defensive First Fire chance kept (``kept``: the index of the
    option, 0 level 2's own), each option's mean value over the rounds played, and what it
    spent."""

    kept: int
    means: tuple[float, ...]
    rounds: int
    work: int

    def words(self, name: str) -> str:
        """The search in a player's words (``Decision.plan``, never shown to the other side:
        the playouts hold its secrets, RD-11), ``name``: what the option kept does."""
        usual = self.means[0] if self.means else 0.0
        mine = self.means[self.kept] if self.means else 0.0
        runs = f"{self.rounds} trial run{'s' if self.rounds != 1 else ''} of the move"
        if self.kept == 0:
            return f"{name}, best in {runs} ({mine:+.0f})"
        return f"{name}: in {runs} it scored {mine:+.0f}, the usual choice {usual:+.0f}"


def finish_moves(copy: Snapshot, side: str, me: Chooser, them: Chooser, cap: int) -> int:
    """Play the imagined game ``copy`` from a Defensive First Fire chance of ``side`` to the
    end of the enemy's Defensive Fire Phase (or of the game): the enemy's movers still to come
    moved by ``them``, ``side``'s later chances and its Defensive Fire by ``me``; the actions
    played."""
    return _play_until(
        copy, side, me, them, cap, lambda t: t.phasing == side or t.phase not in CHANCE_PHASES
    )


def weigh_chance(
    table: Table,
    seed: int,
    options: Sequence[Action],
    players: Callable[[int], tuple[Chooser, Chooser]],
    value: Callable[[Table], float],
    rounds: int = _CHANCE.rounds,
    work: int = _CHANCE.work,
    margin: float = _SEARCH.margin,
    caution: float = _SEARCH.sure,
    tanks: tuple[int, frozenset[str]] = (0, frozenset()),
    cap: int = _SEARCH.per_playout,
    confirm: int = _CHANCE.confirm,
) -> ChanceResult:
    """Level 3 at a Defensive First Fire chance of ``table``'s side (docs/ai.md "Defensive First
    Fire chances"; measured in docs/ai-experiments.md "Level 3 against the enemy it has met"): each
    of ``options`` (a shot, or Pass: the chance let go; level 2's own choice first) is taken on a
    copy of the game made by the side's table (``table.imagined``: what it may know, each enemy "?"
    dealt anew, new dice, drawn anew after the option so that every option goes on with the same
    rolls), and the rest of the enemy's Movement Phase and its Defensive Fire Phase are played out
    (:func:`finish_moves`, ``players(round)``: the side's level 2 and the enemy's playout
    player), then valued (``value``, as the plan search values a playout's end). Each round
    plays every option on the same copy and dice (common random numbers); no round is begun
    once ``work`` hexes have been weighed (two rounds at least: :func:`_kept` wants two), and
    two rounds in which every option was worth the same end it. Level 2's own choice is kept
    unless another beats it round by round by ``margin`` after ``caution`` standard errors
    (:func:`_kept`), and then only if it beats it so again on up to ``confirm`` fresh rounds
    of the two alone (within ``work`` more: the best of several on a few rounds is often
    luck, as in :func:`search`)."""
    side = table.side
    assert side is not None
    values: list[list[float]] = [[] for _ in options]
    spent = [0]

    def run(r: int, i: int) -> float:
        """Round ``r``'s playout of option ``i`` (round ``r``'s copy and dice): its value."""
        dice = (seed * 1_000_003 + r) & 0x7FFFFFFFFFFFFFFF
        copy = table.imagined(dice, *tanks)
        copy.table(side).submit(options[i])
        copy.reseed(dice ^ 0x5DEECE66D)  # the same rolls after it, whatever the option drew
        me, them = players(r)
        finish_moves(copy, side, me, them, cap)
        spent[0] += me.work + them.work
        return value(copy.table(side))

    for r in range(rounds):
        if r >= 2 and (spent[0] >= work or all(v == values[0] for v in values)):
            break
        for i in range(len(options)):
            values[i].append(run(r, i))
    kept = _kept(list(enumerate(values)), margin, caution)
    played = len(values[0])
    if kept and confirm:  # the best of several on a few rounds: checked on fresh ones alone
        usual: list[float] = []
        other: list[float] = []
        limit = spent[0] + work
        for r in range(rounds, rounds + confirm):
            if len(usual) >= 2 and spent[0] >= limit:
                break
            usual.append(run(r, 0))
            other.append(run(r, kept))
        values[0].extend(usual)
        values[kept].extend(other)
        kept = _kept([(0, usual), (kept, other)], margin, caution)
    means = tuple(sum(v[:played]) / played for v in values)  # the rounds its words count
    return ChanceResult(kept, means, played, spent[0])
