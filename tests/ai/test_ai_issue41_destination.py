"""Issue 41, thirteenth session: level 3 weighs each vehicle's destination by playouts as it
begins its move (portfolio greedy search, a unit at a time: ``ComputerPlayer._destine``,
``lookahead.weigh_options``): the usual hex and a few that differ, the usual one kept unless
another beats it round by round; the hex kept driven to its end, saved with the plan; level 3
on small maps alone; what its side may not know changes nothing (RD-11)."""

from __future__ import annotations

from dataclasses import replace
from importlib import resources

import pytest
from ai_helpers import situation
from engine_helpers import decide, make_setup, table_of

from game.ai import ComputerPlayer, opponent
from game.ai.lookahead import STEADY, ChanceResult, SearchResult, weigh_options
from game.ai.tuning import TuningError, parse, tuning
from game.ai.valuation.exits import in_enemy_sight
from game.ai.valuation.hexes import alternatives, weigh_hexes
from game.board.hexes import label
from game.engine import Game, UnitSetup, Victory
from game.engine.actions import EndPhase, Pass, action_from_json
from game.engine.table import Table

ROWS = ["o o o o o o o o", "o o o o o o o o", "o o o o o o o o", "o o o w o o o o"]


def duel(seed: int = 4, hidden: tuple[str, str] = ("zis3", "t34m43")) -> Game:
    """Two Panzers (A4, A2) against two "?" (G2, H4: ``hidden``'s kinds), the German's
    Movement Phase of turn 1; the German wins by knocking out rus-gun-1."""
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "A4", facing=0),
        UnitSetup("ger-pz-2", "pz4h", "german", "A2", facing=0),
        UnitSetup("rus-gun-1", hidden[0], "russian", "G2", facing=3, concealed=True),
        UnitSetup("rus-gun-2", hidden[1], "russian", "H4", facing=3, concealed=True),
    ]
    setup = make_setup(
        units,
        rows=ROWS,
        victory=[Victory("german", "eliminate", units=("rus-gun-1",))],
        first="german",
        defender="russian",
    )
    game = Game(setup, seed)
    while not (game.phase == "movement" and game.phasing == "german"):
        game.apply(EndPhase())
    return game


@pytest.fixture(autouse=True)
def _weigh_every_vehicle(monkeypatch) -> None:
    """Every vehicle weighed, safe or not (``[vehicle] danger`` 0: the gate is tested in
    test_ai_issue41_vehicle_exit.py); these duels' Panzers start out of the "?"'s reach."""
    t = tuning()
    every = replace(t, vehicle=replace(t.vehicle, danger=0.0))
    monkeypatch.setattr(opponent, "tuning", lambda: every)


def steady_search(monkeypatch) -> None:
    """Level 3's phase search keeps level 2's own plan (the destination weighing is tested
    alone)."""
    monkeypatch.setattr(
        ComputerPlayer, "_search", lambda self, table, budget: SearchResult(STEADY, (), 0, 0, 0)
    )


def forced(monkeypatch, calls: list[int]) -> None:
    """The weighing keeps its last option (the far hex, or whichever comes last) at once."""

    def weigh(table, seed, count, take, finish, players, value, *rest):
        calls.append(count)
        return ChanceResult(count - 1, tuple(float(i) for i in range(count)), 2, 0)

    monkeypatch.setattr(opponent, "weigh_options", weigh)


def german_phase(game: Game, player: ComputerPlayer) -> list:
    """The German's decisions until its Movement Phase ends (the Russian holds its fire)."""
    done = []
    for _ in range(80):
        if game.over or game.phase != "movement" or game.phasing != "german":
            break
        if game.to_act != "german":
            game.apply(Pass())
            continue
        d = decide(player, game)
        game.apply(d.action)
        done.append(d)
    return done


def test_issue41_weigh_options_keeps_the_first_unless_another_beats_it_round_by_round():
    """The usual option (index 0) is kept unless another beats it on the same rounds by more
    than ``margin`` (``lookahead._kept``), and a lead is checked on fresh confirm rounds; two
    rounds in which every option is worth the same end the weighing."""
    table = table_of(duel(), "german")
    taken: list[int] = []

    def players(r):
        return ComputerPlayer("german", 2, seed=r), ComputerPlayer("russian", 2, seed=r)

    def weigh(worth, confirm=4):
        def take(copy, i, me):
            taken.append(i)

        def value(_table):
            return worth(taken[-1])

        return weigh_options(
            table,
            7,
            3,
            take,
            lambda *a: None,
            players,
            value,
            4,
            10**6,
            5.0,
            1.0,
            (0, frozenset()),
            confirm,
        )

    flat = weigh(lambda i: 10.0)
    assert flat.kept == 0 and flat.rounds == 2  # nothing to tell them apart: two rounds
    close = weigh(lambda i: 10.0 + 4.0 * i)  # the last beats the usual one by 8, over the margin 5
    assert close.kept == 2 and close.means == (10.0, 14.0, 18.0)
    small = weigh(lambda i: 10.0 + i)  # by 2 at most: under the margin
    assert small.kept == 0 and small.rounds == 4
    taken.clear()
    far = weigh(lambda i: 50.0 * (i == 1))
    assert far.kept == 1
    assert taken.count(1) == 4 + 4 and taken.count(2) == 4  # the leader's confirm rounds


def test_issue41_rd9_the_alternatives_differ_from_the_usual_hex_materially():
    """The alternatives (``[vehicle] alternatives`` at most, never the usual hex): staying
    (None) when the usual choice drives, the best out of every enemy's sight (RD-9) when the
    usual hex is seen, the best at least ``[vehicle] apart`` hexes from the usual one."""
    game = duel()
    s = situation(game, "german", level=3)
    unit = s.mine()["ger-pz-1"]
    weighed = weigh_hexes(s, unit, STEADY)
    usual = weighed.best[1]
    others = alternatives(s.table, "german", unit, weighed)
    t = tuning().vehicle
    assert others and len(others) <= t.alternatives and usual not in others
    assert len(set(others)) == len(others)
    board = s.table.board
    if usual is not None:
        assert others[0] is None  # staying first
    seen = in_enemy_sight(s.table, "german")
    here = board.parse(usual or unit["hex"])
    hexes = [h for h in others if h is not None]
    assert all(h in weighed.values for h in hexes)
    far = [h for h in hexes if here.distance(board.parse(h)) >= t.apart]
    assert far, "one at least apart hexes from the usual one"
    hidden = [h for h in weighed.values if not seen[board.index(board.parse(h))]]
    if hidden and (usual is None or seen[board.index(board.parse(usual))]):
        assert any(h in hidden for h in hexes)


def test_issue41_level_3_alone_weighs_destinations_in_its_movement_on_small_maps():
    """Level 2 never weighs a destination; level 3 does in its own Movement Phase, on a map
    of at most ``[search] max_hexes`` hexes (larger: level 2's choice)."""
    table = table_of(duel(), "german")
    assert ComputerPlayer("german", 3, seed=1)._destines(table)
    assert not ComputerPlayer("german", 2, seed=1)._destines(table)
    small = ComputerPlayer("german", 3, seed=1)
    small.budget = replace(small.budget, max_hexes=table.board.size - 1)
    assert not small._destines(table)
    game = duel()
    game.apply(EndPhase())  # the Advancing Fire Phase: none
    assert not ComputerPlayer("german", 3, seed=1)._destines(table_of(game, "german"))


def test_issue41_the_hex_kept_is_driven_to_its_end_and_weighed_once_a_vehicle(monkeypatch):
    """The hex the weighing kept (here forced: the last option) is driven to, step by step,
    without the scorer weighing it again, and each vehicle is weighed once a phase; its words
    name the hex and the usual one."""
    steady_search(monkeypatch)
    calls: list[int] = []
    forced(monkeypatch, calls)
    game = duel()
    player = ComputerPlayer("german", 3, seed=3)
    done = german_phase(game, player)
    kept = [d for d in done if "drives to " in d.plan or "stays where it stands" in d.plan]
    assert len(calls) == 2 and len(kept) == 2  # one weighing each Panzer, each kept the last
    ends = {label(game.state.units[u].hex) for u in ("ger-pz-1", "ger-pz-2")}
    for d in kept:
        words = d.plan.split("; ")[-1]
        assert "the usual hex (" in words
        if words.startswith("drives to "):
            hx = words.removeprefix("drives to ").split(":")[0]
            assert hx in ends, (hx, ends)


def test_issue41_a_game_saved_in_the_middle_of_a_kept_drive_resumes_the_same(monkeypatch):
    """A save in the middle of a vehicle's drive to the hex its weighing kept keeps that hex
    with the plan (``plan_record`` "vehicles"), and the resumed game (``resume_plan``) drives
    on to it: the same actions to the end of the game, the same hash."""
    steady_search(monkeypatch)
    forced(monkeypatch, [])
    game = duel()
    players = {
        "german": ComputerPlayer("german", 3, seed=3),
        "russian": ComputerPlayer("russian", 2, 4),
    }
    actions, record, cut = [], None, None
    while not game.over:
        mine = players["german"].destinations
        routes = [r for d in mine.values() for r in d.routes.values()]
        if cut is None and game.moving_unit and game.to_act == "german" and any(routes):
            cut, record = len(actions), players["german"].plan_record(table_of(game, "german"))
        d = decide(players[game.to_act], game)
        game.apply(d.action)
        actions.append(d.action.to_json())
    assert record is not None and cut is not None
    assert record["vehicles"]["weighed"] and any(record["vehicles"]["routes"].values())
    resumed = duel()
    for a in actions[:cut]:
        resumed.apply(action_from_json(a))
    fresh = {
        "german": ComputerPlayer("german", 3, seed=3),
        "russian": ComputerPlayer("russian", 2, 4),
    }
    fresh["german"].resume_plan(record)
    rest = []
    while not resumed.over:
        d = decide(fresh[resumed.to_act], resumed)
        resumed.apply(d.action)
        rest.append(d.action.to_json())
    assert rest == actions[cut:] and resumed.state_hash() == game.state_hash()


def test_issue41_rd11_twin_games_the_german_cannot_tell_apart_weigh_the_same():
    """Two games whose "?" differ (a Gun and a T-34, or an AT rifle team and a Gun): level 3
    weighs its Panzers' destinations on what it may know alone, so the weighing (its means,
    the hex kept) and every decision are the same."""
    a, b = duel(hidden=("zis3", "t34m43")), duel(hidden=("rus_atr", "zis3"))
    players = (ComputerPlayer("german", 3, seed=9), ComputerPlayer("german", 3, seed=9))
    weighed = 0
    for _ in range(60):
        ta, tb = (Table(g, "german", g.actions_applied) for g in (a, b))
        if a.over or ta.view != tb.view or ta.phase != "movement" or ta.phasing != "german":
            break
        if ta.to_act != "german":
            a.apply(Pass())
            b.apply(Pass())
            continue
        da, db = players[0].choose(ta), players[1].choose(tb)
        assert da == db, (da, db)
        la, lb = players[0].last_destination, players[1].last_destination
        assert la == lb
        weighed += la is not None
        a.apply(ta.engine_action(da.action))
        b.apply(tb.engine_action(db.action))
    assert weighed, "level 3 weighed a destination"


def test_issue41_vehicle_confirm_of_one_is_refused():
    """``[vehicle] confirm`` is 0 (no check) or at least 2, as ``[chance] confirm``."""
    text = resources.files("game.ai").joinpath("data/tuning.toml").read_text("utf-8")
    head, _, tail = text.partition("\n[vehicle]\n")
    with pytest.raises(TuningError, match=r"^vehicle\.confirm: expected 0"):
        parse(head + "\n[vehicle]\n" + tail.replace("confirm = 8\n", "confirm = 1\n", 1))
    with pytest.raises(TuningError, match=r"^vehicle\.rounds: expected a figure of at least 1"):
        parse(head + "\n[vehicle]\n" + tail.replace("rounds = 4 ", "rounds = 0 ", 1))
