"""Issue 41, thirteenth session (second try): level 3's weighed destinations, stricter. A
vehicle whose side's exit victory is still open (RD-13) weighs no hex that stays or ends
farther from that edge than the usual one, another hex is kept only if it beats the usual
one by ``[vehicle] margin`` (larger than ``[search] margin``), and a vehicle safe in its usual
hex (under ``[vehicle] danger``) is not weighed."""

from __future__ import annotations

from dataclasses import replace

from ai_helpers import situation
from engine_helpers import make_setup, table_of

from game.ai import ComputerPlayer, opponent
from game.ai.lookahead import STEADY, ChanceResult, SearchResult
from game.ai.tuning import tuning
from game.ai.valuation.hexes import alternatives, weigh_hexes
from game.ai.valuation.reach import to_edge
from game.engine import Game, UnitSetup, Victory
from game.engine.actions import EndPhase

ROWS = ["o o o o o o o o", "o o o o o o o o", "o o o o o o o o", "o o o w o o o o"]


def duel(victory: Victory, seed: int = 4) -> Game:
    """Two Panzers (C4, C2) against two "?" (G2, H4), the German's Movement Phase of turn 1."""
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "C4", facing=0),
        UnitSetup("ger-pz-2", "pz4h", "german", "C2", facing=0),
        UnitSetup("rus-gun-1", "zis3", "russian", "G2", facing=3, concealed=True),
        UnitSetup("rus-gun-2", "t34m43", "russian", "H4", facing=3, concealed=True),
    ]
    setup = make_setup(units, rows=ROWS, victory=[victory], first="german", defender="russian")
    game = Game(setup, seed)
    while not (game.phase == "movement" and game.phasing == "german"):
        game.apply(EndPhase())
    return game


def edge_and_alternatives(victory: Victory, uid: str) -> tuple[int, list[int | None]]:
    """The usual hex's distance to ``victory``'s edge (west) and each alternative's (None:
    staying)."""
    s = situation(duel(victory), "german", level=3)
    unit = s.mine()[uid]
    weighed = weigh_hexes(s, unit, STEADY)
    board = s.table.board
    usual = to_edge(board, board.parse(weighed.best[1] or unit["hex"]), "west")
    others = alternatives(s.table, "german", unit, weighed)
    return usual, [None if h is None else to_edge(board, board.parse(h), "west") for h in others]


def test_issue41_rd13_with_an_exit_open_no_alternative_stays_or_falls_back():
    """RD-13: a vehicle that may still leave by its side's exit edge (west) weighs no
    alternative that stays or ends farther from that edge than the usual hex; with an
    elimination victory the same vehicles weigh one that does."""
    plain = Victory("german", "eliminate", units=("rus-gun-1",))
    exit_west = Victory("german", "exit", count=1, edge="west")
    back = 0
    for uid in ("ger-pz-1", "ger-pz-2"):
        usual, others = edge_and_alternatives(plain, uid)
        back += sum(d is None or d > usual for d in others)
        usual, others = edge_and_alternatives(exit_west, uid)
        assert all(d is not None and d <= usual for d in others), (uid, usual, others)
    assert back, "without the exit, an alternative that stays or falls back is weighed"


def test_issue41_the_vehicle_margin_is_its_own_and_wider_than_the_plans():
    """Issue 41: a destination other than the usual one must beat it by ``[vehicle] margin``
    (wider than ``[search] margin``), checked on ``[vehicle] confirm`` fresh rounds."""
    t = tuning()
    assert t.vehicle.margin > t.search.margin
    assert t.vehicle.confirm >= 2


def destine_calls(monkeypatch, danger: float) -> list[tuple]:
    """``weigh_options``' figures each time level 3's Panzer in C4 begins its move with
    ``[vehicle] danger`` set to ``danger`` (the weighing keeps the usual hex)."""
    monkeypatch.setattr(
        ComputerPlayer, "_search", lambda self, table, budget: SearchResult(STEADY, (), 0, 0, 0)
    )
    seen: list[tuple] = []

    def weigh(table, seed, count, take, finish, players, value, rounds, work, margin, sure, *rest):
        seen.append((rounds, work, margin, rest[-1]))
        return ChanceResult(0, tuple(0.0 for _ in range(count)), 2, 0)

    monkeypatch.setattr(opponent, "weigh_options", weigh)
    t = tuning()
    mine = replace(t, vehicle=replace(t.vehicle, danger=danger))
    monkeypatch.setattr(opponent, "tuning", lambda: mine)
    game = duel(Victory("german", "eliminate", units=("rus-gun-1",)))
    player = ComputerPlayer("german", 3, seed=3)
    table = table_of(game, "german")
    s = situation(game, "german", level=3)
    unit = s.mine()["ger-pz-1"]
    assert player._destine(table, unit, weigh_hexes(s, unit, STEADY), STEADY) is None
    return seen


def test_issue41_destine_weighs_with_the_vehicle_margin(monkeypatch):
    """Issue 41: ``ComputerPlayer._destine`` hands ``weigh_options`` ``[vehicle] margin``
    and ``[vehicle] confirm``, not the plan search's."""
    t = tuning().vehicle
    assert destine_calls(monkeypatch, 0.0) == [(t.rounds, t.work, t.margin, t.confirm)]


def test_issue41_a_vehicle_safe_in_its_usual_hex_is_not_weighed(monkeypatch):
    """Issue 41 (RD-18 risk): a vehicle whose P(knocked out) in the usual hex is under
    ``[vehicle] danger`` is not weighed by playouts (the usual hex, at no cost)."""
    s = situation(duel(Victory("german", "eliminate", units=("rus-gun-1",))), "german", level=3)
    unit = s.mine()["ger-pz-1"]
    weighed = weigh_hexes(s, unit, STEADY)
    risk = weighed.score.risk_at(weighed.best[1] or unit["hex"])
    assert 0.0 < risk < 1.0
    assert destine_calls(monkeypatch, risk + 0.01) == []
    assert len(destine_calls(monkeypatch, risk)) == 1
