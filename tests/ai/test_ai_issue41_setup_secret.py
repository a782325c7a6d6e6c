"""Issue 41 item 5, a predictable set-up: on the hedgerow the German set up the same way in
every game (the Panzer IV in B3, the PaK 40 in B2, the StuG on the scenario file's own C8),
since each unit's draw (``[set_up] spread`` below its best hex) held one hex alone. A set-up
with a single answer is no secret (RD-11, HX-12): where one hex alone is within ``spread`` of
the best, a unit that may set up concealed now draws among the hexes within ``[set_up]
hidden_spread`` of the best where it may be concealed (``game.ai.candidates.setup.spot``)."""

from __future__ import annotations

from ai_helpers import situation
from engine_helpers import make_setup

from game.ai.candidates.setup import spot
from game.ai.selfplay import make_player
from game.ai.tuning import tuning
from game.ai.valuation.approach import enemy_way
from game.ai.valuation.setup import SpotScore, options
from game.engine import Game, UnitSetup, Victory
from game.engine.setup import SetupArea
from game.engine.table import Snapshot
from game.files.scenario import load_scenario
from game.files.shipped import find_scenario

ROWS = [  # woods in C2 and A5 out of the T-34's sight behind the woods of column G
    "o o o o o o w o o",
    "o o w o o o w o o",
    "o o o o o o w o o",
    "o o o o o o w o o",
    "w o o o o o w o o",
]


def hidden_tank(seed: int) -> tuple:
    """A German Panzer IV (the scenario defender) sets up in columns A-E to hold C3 against a
    T-34 in I3 that must knock it out, a Panzerfaust squad in A4 (no set-up area): C2 is its
    best hex (woods next to C3), A5 (woods, but next to the squad: ``[set_up] crowd``) more
    than ``spread`` below it and within ``hidden_spread``; the situation of its first
    placement, its spot's inputs."""
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "A5", facing=0, area=SetupArea((0, 4))),
        UnitSetup("ger-pf-1", "ger_pf", "german", "A4"),
        UnitSetup("rus-t34-1", "t34m43", "russian", "I3", facing=3),
    ]
    setup = make_setup(
        units,
        rows=ROWS,
        victory=[Victory("russian", "eliminate", count=1), Victory("german", "hold", hexes=("C3",))],
        turns=4,
        first="russian",
        defender="german",
        year=1943,
    )
    game = Game(setup, 3)
    assert game.phase == "setup" and game.to_act == "german"
    s = situation(game, "german", seed=seed)
    seen = s.table.units()
    tank = next(u for u in seen if u["id"] == "ger-pz-1")
    way = enemy_way(s.table, "german", seen)
    eyes = [s.table.viewshed(u["hex"])[0] for u in seen if u["side"] != "german"]
    return s, tank, seen, way, eyes


def test_issue41_rd11_hx12_one_best_hex_alone_draws_among_the_hidden_hexes_near_it():
    s, tank, seen, way, eyes = hidden_tank(0)
    score = SpotScore(s, tank, seen, way, eyes, options(s.table, "german", tank, seen))
    scores = {h: score(h) for h in options(s.table, "german", tank, seen)}
    top = max(scores.values())
    t = tuning().set_up
    assert sum(v >= top - t.spread for v in scores.values()) == 1  # one best hex alone
    peers = {h for h, v in scores.items() if v >= top - t.hidden_spread and score.hides(h)}
    assert len(peers) >= 2
    drawn = set()
    for seed in range(12):
        found = spot(*hidden_tank(seed))
        assert found is not None and found == spot(*hidden_tank(seed))  # the seed decides
        drawn.add(found[0])
    assert drawn == peers  # each hidden peer drawn, nothing seen by the enemy (RD-11)
    assert all(score.hides(h) for h in drawn)


def german_set_up(seed: int) -> dict[str, str]:
    """The hedgerow's German set-up at level 2, game seed ``seed`` (as ``match.py`` seats
    it): each unit's hex."""
    setup = load_scenario(find_scenario("hedgerow-chart")).setup
    game = Game(setup, seed)
    seats = Snapshot(game)
    player = make_player("german", 2, seed=seed * 7)
    while game.phase == "setup" and game.to_act == "german":
        table = seats.table("german")
        game.apply(table.engine_action(player.choose(table).action))
    return {u["id"]: u["hex"] for u in seats.table("german").units() if u["side"] == "german"}


def test_issue41_rd11_hx12_the_hedgerows_german_sets_up_more_than_one_way_all_in_woods():
    woods = {"B2", "B3", "C2", "C3", "C8"}  # the woods of its set-up area, columns A-G
    set_ups = set()
    for seed in range(100, 106):
        hexes = german_set_up(seed)
        for uid in ("ger-pz4-1", "ger-stug-1", "ger-pak-1"):
            assert hexes[uid] in woods, (seed, uid, hexes[uid])  # concealed, out of sight
        set_ups.add(tuple(sorted(hexes.items())))
    assert len(set_ups) >= 2
