"""Issue 41: on the Orel road (road-ambush) the careful Russian beat the German column 17 games
of 20. Traced, the column lost no vehicle in turn 1 and gained no ground either: its Panzers
drove a hex or two into the woods by their start (N7, N8), out of the sight of the five "?" in
the western woods, and crossed the ground those "?" see in turns 3 and 4, under their fire with
no time left, one unit of three off the west edge in most games. The "?" prior (``[risk]
unknown``, RD-11: what a "?" is is secret) counted every "?" in LOS as a fair chance of a
hidden Gun's kill, and compounded over five of them read every open hex within 12 hexes as
50-75% deadly. Now the prior is a small one, and the column that must act drives on for its
exit edge (RD-13) in turn 1."""

from __future__ import annotations

from engine_helpers import make_setup, table_of, to_phase

from game.ai import ComputerPlayer
from game.ai.valuation.danger import unknown_risk
from game.board.hexes import label, to_offset
from game.engine import Game, UnitSetup, Victory
from game.engine.actions import Pass

ROAD = [  # the Orel road's map (scenarios/road-ambush.toml)
    "o  o  o  w  w  w  o  o  gr gr o  o  o  w  w  o  o  o",
    "o  o  w  w  w  w  o  o  gr gr o  o  w  w  w  w  o  o",
    "o  o  w  w  o  o  o  o  o  o  o  o  o  w  w  o  o  o",
    "wb o  o  o  o  o  br o  o  o  o  br o  o  o  o  o  o",
    "r  r  r  r  r  r  r  r  r  r  r  r  r  r  r  r  r  r",
    "sb wb o  o  o  o  o  o  br o  o  o  o  o  o  o  o  o",
    "o  o  o  w  w  o  o  o  o  o  o  o  w  w  w  o  o  o",
    "o  o  w  w  w  w  o  o  or or o  o  w  w  w  w  o  o",
    "o  o  o  w  w  o  o  o  or or o  o  o  w  w  o  o  o",
]


def column_game(
    vehicles: dict[str, tuple[str, str]], exits: int = 1, kills: int = 1, turns: int = 4
) -> Game:
    """The German column (``vehicles``: id -> (type, hex)) at its first Movement Phase, to
    drive ``exits`` units off the west edge (RD-13; the Russian wins at ``kills``); the careful
    Russian's set-up in the western woods, every unit a "?" (RD-11): the ZiS-3 in E2, the 45 mm
    Guns in C8 and D7, the ATR and Molotov squads by the village (B4, A4)."""
    units = [UnitSetup(uid, kind, "german", hx, facing=3) for uid, (kind, hx) in vehicles.items()]
    units += [
        UnitSetup("rus-gun-1", "zis3", "russian", "E2", facing=5, concealed=True),
        UnitSetup("rus-gun-2", "m1937", "russian", "C8", facing=2, concealed=True),
        UnitSetup("rus-gun-3", "m1937", "russian", "D7", facing=2, concealed=True),
        UnitSetup("rus-atr-1", "rus_atr", "russian", "B4", concealed=True),
        UnitSetup("rus-mol-1", "rus_mol", "russian", "A4", concealed=True),
    ]
    setup = make_setup(
        units,
        rows=ROAD,
        victory=[
            Victory("german", "exit", count=exits, edge="west"),
            Victory("russian", "eliminate", count=kills),
        ],
        turns=turns,
        first="german",
        defender="russian",
        year=1943,
    )
    game = Game(setup, 3)
    to_phase(game, "movement", "german")
    return game


def the_column(hx: str) -> Game:
    """A Panzer IV of the column in ``hx`` (turn 1 of 4), to leave by the west edge."""
    return column_game({"ger-pz4-1": ("pz4h", hx)})


def german_movement(game: Game, player: ComputerPlayer, steps: int = 200) -> None:
    """The German's Movement Phase played by ``player``, the Russian passing every Defensive
    First Fire chance, until it ends (or the game does: an exit that meets the victory)."""
    for _ in range(steps):
        if game.over or game.phase != "movement" or game.phasing != "german":
            break
        if game.to_act != "german":
            game.apply(Pass())
            continue
        table = table_of(game, "german")
        game.apply(table.engine_action(player.choose(table).action))


def drive(game: Game) -> str:
    """The German's Movement Phase at level 2; the hex its Panzer ends in."""
    german_movement(game, ComputerPlayer("german", 2, seed=1), 60)
    return label(game.units["ger-pz4-1"].hex)


def test_issue41_rd11_five_question_marks_far_off_do_not_make_the_open_ground_deadly():
    """Nine hexes east of the "?" (J5, on the road), the prior of all five together is a small
    one: before, 1 - 0.85^k with every "?" at 7-12 hexes counting 15%."""
    table = table_of(the_column("P7"), "german")
    risk = unknown_risk(table, "german")
    assert risk("J5") < 0.15
    assert risk("J5") > risk("P7") >= 0.0


def test_issue41_rd13_the_column_drives_on_for_its_exit_edge_in_turn_1():
    """The Panzer in P7 drives west past the middle of the map (column I or beyond) in its
    first Movement Phase: before, it drove two hexes into the woods of N7, out of the "?"'s
    sight, and was left with the whole way to cross in turns 3-4."""
    end = drive(the_column("P7"))
    col, _ = to_offset(the_column("P7").board.parse(end))
    assert col <= 8, f"it stopped in {end}"
