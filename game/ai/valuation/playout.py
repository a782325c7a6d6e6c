"""What the end of a level-3 playout is worth to the searching side (docs/ai.md "The value of
a playout's end"), as a share of a win (RD-13), from what that side may know there: a win or a
loss itself; each unit knocked out by its stake (its RD-13 points and its share of each
victory condition its removal brings nearer); how far the side is on its way to its exit
victories; how much nearer its objective each own unit stands; less, for each own vehicle,
its stake times the chance of being knocked out where it stands by the enemy's next shots
(the exact odds of the threat map, RD-18, and the "?" prior). An expected value: a unit at
risk is always worth more than a unit lost."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from game.engine.setup import Victory, counts_as
from game.engine.table import Table

from ..tuning import tuning
from .danger import removal_risk, soft, unknown_risk
from .objective import Objectives
from .reach import HEXES_PER_MP, exit_open, in_time, phases_left, to_edge

WIN = tuning().playout.win
"""A win; a victory condition's steps are its shares (RD-13), a unit's RD-13 points and its
objective a few. A playout that ends the game is worth twice a win (a loss its negative):
more than any short of the end."""


class Judge(Protocol):
    """The searching side's player, whose objective the value reads."""

    @property
    def side(self) -> str: ...
    @property
    def objectives(self) -> Objectives: ...


class Valuation:
    """The value of a playout's end for ``player``'s side, set up on the game the search
    starts from: the units its side knows there (never a "?"), their stakes, its exit
    victories and how far on its way to them it is."""

    def __init__(self, player: Judge, table: Table):
        self.player = player
        self.side = player.side
        self.start = {u["id"]: u for u in table.units() if u.get("type") != "?"}
        self.stakes = self._stakes(table)
        self.exits = [v for v in table.victory if v.side == self.side and v.counts({"type": "?"})]
        rows = [(u["hex"], uid) for uid, u in self.start.items() if u["side"] == self.side]
        self.base = self.exit_score(table, rows, phases_left(table, self.side, 1))

    def __call__(self, copy: Table, me: object = None) -> float:
        """The value of ``copy`` at a playout's end, against the search's start."""
        if copy.over:  # beyond what any playout short of the end may be worth
            return 2 * WIN if copy.winner == self.side else -2 * WIN
        return self.value(copy) - self.base

    def _stakes(self, table: Table) -> dict[str, float]:
        """What each unit's removal is worth (to the side that removes it): RD-13's points (an
        AFV 2, anything else 1) and its share of each victory condition it brings nearer: an
        elimination victory of ``count`` AFVs is a win (``WIN``) in ``count`` shares, one
        naming units a win in one share a unit, a points victory its points' share, and for
        an enemy, an exit victory's share if it could still leave by that edge in time."""
        out = {}
        board = table.board
        t = tuning().targets
        for uid, u in self.start.items():
            afv = u.get("category") == "afv"
            stake = t.afv if afv else t.other
            for v in table.victory:
                if v.side == u["side"]:
                    if v.edge and v.counts(u) and u["side"] != self.side:
                        reach = phases_left(table, u["side"], 1) * float(u.get("mp_left", 0))
                        near = in_time(board, board.parse(u["hex"]), v.edge, reach * HEXES_PER_MP)
                        stake += WIN / max(1, v.count) * near
                    continue
                if v.kind == "eliminate":
                    if v.units:
                        stake += WIN / len(v.units) if uid in v.units else 0.0
                    elif afv:
                        stake += WIN / max(1, v.count)
                elif v.kind == "points":
                    stake += WIN * (t.afv if afv else t.other) / max(1, v.count)
            out[uid] = stake
        return out

    def exit_score(
        self,
        table: Table,
        rows: list[tuple[str, str]],
        left: int,
        alive: dict[str, float] | None = None,
    ) -> float:
        """How far this side is on its way to each exit victory (RD-13), as a share of a win:
        the units already off the map by its edge and those that can still get there in the
        Movement Phases left (``left``), each as likely as it is to stay in play (``alive``),
        against the count needed; and a quarter of a win more, in proportion, for how near
        the edge each stands. One that can no longer be met (:func:`.reach.exit_open`) counts
        nothing: units off the map short of its count win nothing (RD-13).
        ``rows``: (hex, unit id) of its units in play."""
        board = table.board
        span = {"west": board.columns, "east": board.columns}
        span["north"] = span["south"] = board.rows
        score = 0.0
        for v in self.exits:
            if not exit_open(table, self.side, v):  # no unit can meet it now: it counts 0
                continue
            edge, count = str(v.edge), v.count
            gone = float(table.exited(edge, v.only))
            ready = near = 0.0
            for hx, uid in rows:
                kind = table.unit_type(uid)  # its own unit: its side knows it
                if not counts_as(v.only, kind.category):  # it would not count (RD-13)
                    continue
                here = board.parse(hx)
                p = 1.0 if alive is None else alive.get(uid, 1.0)
                ready += p * in_time(board, here, edge, left * max(kind.mp, kind.mf) * HEXES_PER_MP)
                near += p * (1.0 - to_edge(board, here, edge) / span[edge])
            n = max(1, count)
            share = tuning().playout.exit_near * min(1.0, (gone + near) / n)
            score += WIN * (min(1.0, (gone + ready) / n) + share)
        return score

    @staticmethod
    def _enemy_exit_open(table: Table, v: Victory) -> bool:
        """Whether the enemy's exit victory ``v`` may still be met, from what this side saw:
        the enemy units it saw leave by its edge (:meth:`~game.engine.table.Table.seen_exits`,
        before the search too), and those in play that could get there in time
        (:func:`.reach.exit_open`). An exit short of a victory that can no longer be met wins
        its side nothing (RD-13), so it counts nothing against this side."""
        left = table.seen_exits(str(v.side), str(v.edge), v.only)
        return exit_open(table, str(v.side), v, left=left)

    def value(self, table: Table) -> float:
        """The value of ``game`` to this side, from what it may know there (the module's
        text), the exit victories' progress counted whole (:meth:`__call__` counts it from
        the search's start)."""
        if table.over:
            return WIN if table.winner == self.side else -WIN
        status = {u["id"]: u for u in table.units()}
        unknowns: dict[float, Callable[[str], float]] = {}
        total = 0.0
        rows, alive = [], {}
        gone = table.out_of_play()
        for uid, was in self.start.items():
            now = status.get(uid)
            if was["side"] != self.side:
                # a removal is seen by both sides (HX-13); a unit concealed again is a "?"
                # known by its alias there, not gone
                if now is None and uid in gone:
                    edge = table.went_off(uid, gone)
                    if edge is not None:  # gone off the map: its side's exit, no removal
                        for v in table.victory:
                            if (
                                v.side == was["side"]
                                and v.edge == edge
                                and v.counts(was)
                                and self._enemy_exit_open(table, v)
                            ):
                                total -= WIN / max(1, v.count)
                    else:
                        total += self.stakes[uid]
                continue
            if now is None:  # its own unit: its side knows how it left
                if table.gone(uid) != "exited":
                    total -= self.stakes[uid]
                continue
            goal = self.player.objectives.of(table, uid)
            total += goal(now["hex"]) - goal(was["hex"])
            rows.append((now["hex"], uid))
            if now.get("is_vehicle"):
                known = removal_risk(table.threat_here(uid))
                scale = soft(now)
                if scale not in unknowns:
                    unknowns[scale] = unknown_risk(table, self.side, scale=scale)
                risk = 1.0 - (1.0 - known) * (1.0 - unknowns[scale](now["hex"]))
                alive[uid] = 1.0 - risk
                total -= self.stakes[uid] * risk
        if self.exits:
            total += self.exit_score(table, rows, phases_left(table, self.side, 1), alive)
        return total
