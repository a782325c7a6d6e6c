"""The luck report (``hexfire replay --luck SAVE``; shown beside a game's result): each side's
dice against the exact odds of the shots it took (RD-16: the odds are what the dice do).

For every shot (a Fire action) the exact probability of a hit and of a kill (burned or
eliminated) is worked out as the shot stood, before its dice; the report sets the hits and
kills expected (the sums of those probabilities) against the ones made, with the probability
of doing at least that well (the exact Poisson-binomial tail of the shots' probabilities)."""

from __future__ import annotations

from dataclasses import dataclass

from game.engine import Game, IllegalAction
from game.engine.actions import Fire, action_from_json

from .replay import apply_checked
from .savegame import SavedGame

KILLS = ("burn", "eliminated")


@dataclass(frozen=True)
class Shot:
    """One shot: its side, P(hit), P(kill) before its dice, and what it did."""

    side: str
    p_hit: float
    p_kill: float
    hit: bool
    kill: bool


@dataclass(frozen=True)
class SideLuck:
    """One side's shots: expected and made, and the probability of at least as many."""

    side: str
    shots: int
    hits_expected: float
    hits: int
    p_hits_at_least: float
    kills_expected: float
    kills: int
    p_kills_at_least: float

    def to_json(self) -> dict:
        return {k: (round(v, 6) if isinstance(v, float) else v) for k, v in vars(self).items()}

    def line(self) -> str:
        """One line of the report, in plain words."""
        if not self.shots:
            return f"{self.side.title()}: no shots."
        return (
            f"{self.side.title()}: {self.shots} shot{'s' * (self.shots != 1)}; hits "
            f"{self.hits} of {self.hits_expected:.2f} expected (P of at least {self.hits}: "
            f"{100 * self.p_hits_at_least:.0f}%); kills {self.kills} of "
            f"{self.kills_expected:.2f} expected (P of at least {self.kills}: "
            f"{100 * self.p_kills_at_least:.0f}%)"
        )


def at_least(ps: list[float], k: int) -> float:
    """P(at least ``k`` successes) of independent trials with probabilities ``ps`` (exact:
    the Poisson-binomial distribution, by dynamic programming)."""
    dist = [1.0]
    for p in ps:
        nxt = [0.0] * (len(dist) + 1)
        for i, q in enumerate(dist):
            nxt[i] += q * (1 - p)
            nxt[i + 1] += q * p
        dist = nxt
    return min(1.0, max(0.0, sum(dist[k:])))


def shot_of(game: Game, action: Fire) -> tuple[str, float, float]:
    """The side, P(hit) and P(kill) of ``action`` on ``game`` before its dice."""
    odds = game.shot_odds(action)
    return (
        game.units[action.unit].side,
        odds.p_hit,
        sum(odds.p[k] for k in KILLS),
    )


def outcome(events: list, action: Fire) -> tuple[bool, bool]:
    """Whether the shot's fire event says it hit and killed."""
    for e in events:
        if e.kind == "fire" and (e.data or {}).get("firer") == action.unit:
            return bool(e.data.get("hit")), e.data.get("outcome") in KILLS
    return False, False


class LuckCounter:
    """Counts the shots of a game as it is played or replayed: :meth:`before` with the game
    as the action stands to be applied, :meth:`after` with its events."""

    def __init__(self) -> None:
        self.shots: list[Shot] = []
        self._pending: tuple[str, float, float] | None = None

    def before(self, game: Game, action) -> None:
        self._pending = None
        if isinstance(action, Fire):
            try:
                self._pending = shot_of(game, action)
            except IllegalAction:  # refused: it will not be applied
                self._pending = None

    def after(self, action, events: list) -> None:
        if self._pending is not None and isinstance(action, Fire):
            side, p_hit, p_kill = self._pending
            hit, kill = outcome(events, action)
            self.shots.append(Shot(side, p_hit, p_kill, hit, kill))
        self._pending = None

    def report(self, sides: tuple[str, ...]) -> list[SideLuck]:
        return report(self.shots, sides)


def report(shots: list[Shot], sides: tuple[str, ...]) -> list[SideLuck]:
    """Each side's luck from its shots."""
    out = []
    for side in sides:
        mine = [s for s in shots if s.side == side]
        hits = sum(s.hit for s in mine)
        kills = sum(s.kill for s in mine)
        out.append(
            SideLuck(
                side,
                len(mine),
                sum((s.p_hit for s in mine), 0.0),
                hits,
                at_least([s.p_hit for s in mine], hits),
                sum((s.p_kill for s in mine), 0.0),
                kills,
                at_least([s.p_kill for s in mine], kills),
            )
        )
    return out


def luck_of_save(saved: SavedGame, name: str = "<save>") -> list[SideLuck]:
    """The luck report of a saved game (replayed with every check)."""
    from .replay import migrate

    if not saved.current:
        parted = migrate(saved, name)
        if parted is not None:
            raise parted
    game = Game(saved.scenario().setup, saved.seed)
    counter = LuckCounter()
    for i, entry in enumerate(saved.actions):
        action = action_from_json(entry["action"])
        counter.before(game, action)
        events = apply_checked(game, i, entry, name)
        counter.after(action, events)
    return counter.report(tuple(game.setup.sides))
