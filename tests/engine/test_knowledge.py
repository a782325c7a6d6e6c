"""What a side may know (RD-11, C6.42, RD-18, RD-19): the engine's one door, ``Game.knowledge``.

The test of it: two games that differ only in what one side may not know (a concealed unit's
type, a Bore Sighted Location, a concealed unit's exact facing) look identical to that side
everywhere: the units, the events, the odds of every shot, the fire maps, the threat maps and
its legal actions; and stay so while both are played with the same actions and dice."""

import copy

import pytest
from engine_helpers import make_setup, script, to_phase

from game.board.hexes import label
from game.engine import Game, IllegalAction, UnitSetup
from game.engine.actions import BoreSight, EndMove, EndPhase, Fire, Move, Pass, Turn
from game.engine.play.shot import ammo_choices
from game.files.scenario import load_scenario
from game.files.session import new_game
from game.files.shipped import scenarios_dir

ROWS = ["o o o o o o o o", "o o o o o o o o", "o o o o o o o o", "o o o w o o o o"]


def everything_shown(game: Game, side: str) -> dict:
    """Everything ``side`` is shown, through the engine's knowledge (and its legal actions)."""
    k = game.knowledge(side)
    units = k.units()
    shown: dict = {
        "units": units,
        "events": [(e.kind, e.text, repr(e.data)) for e in k.events()],
    }
    own = [u for u in game.units.values() if u.active and u.side == side]
    enemies = [u["id"] for u in units if u["side"] != side]
    odds = {}
    for firer in own:
        for target in enemies:
            for ammo in ammo_choices(game.state, firer) if firer.type.has_at_weapon else []:
                try:
                    odds[(firer.id, target, ammo)] = k.odds(firer.id, target, ammo).report
                except IllegalAction as e:
                    odds[(firer.id, target, ammo)] = e.reason
        if firer.type.has_at_weapon:
            shown[f"fire map {firer.id}"] = k.fire_map(firer.id)
        if firer.type.is_vehicle:
            shown[f"threat map {firer.id}"] = {
                hx: (t.p_kill, t.p_immobilized, t.threats)
                for hx, t in k.threat_map(firer.id).items()
            }
    shown["odds"] = odds
    shown["tracking"] = k.tracking()  # the MP in each firer's LOS the map shows
    shown["losses"] = k.losses()
    if game.to_act == side:
        shown["legal"] = sorted(repr(a) for a in game.legal_actions())
        shown["can act"] = game.can_act()  # the green dots
        shown["nothing to do"] = game.nothing_to_do()  # HX-15: the phase passes by itself
    return shown


def assert_same_to(side: str, a: Game, b: Game) -> None:
    sa, sb = everything_shown(a, side), everything_shown(b, side)
    assert sa.keys() == sb.keys()
    for key in sa:
        assert sa[key] == sb[key], key


def pair(one: UnitSetup, other: UnitSetup, first="german") -> tuple[Game, Game]:
    """Two games alike but for the Russian unit ``one`` / ``other``."""
    common = [
        UnitSetup("ger-pz-1", "pz4h", "german", "A4", facing=0),
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0),
    ]
    games = []
    for unit in (one, other):
        setup = make_setup([*common, unit], rows=ROWS, first=first, defender="russian")
        games.append(Game(setup, 7))
    return games[0], games[1]


def play_both(a: Game, b: Game, *actions, dice=()) -> None:
    for g in (a, b):
        if dice:
            script(g, *dice)
        for action in actions:
            g.apply(action)


@pytest.mark.parametrize(
    "one, other",
    [
        (  # a concealed unit's type: a Gun or an Infantry squad (RD-11, HX-13)
            UnitSetup("rus-1", "zis3", "russian", "F2", facing=3, concealed=True),
            UnitSetup("rus-1", "rus_atr", "russian", "F2", concealed=True),
        ),
        (  # two Guns of other sizes (Case P) and calibres
            UnitSetup("rus-1", "zis3", "russian", "F2", facing=3, concealed=True),
            UnitSetup("rus-1", "m1937", "russian", "F2", facing=3, concealed=True),
        ),
        (  # a concealed unit's exact facing
            UnitSetup("rus-1", "zis3", "russian", "F2", facing=3, concealed=True),
            UnitSetup("rus-1", "zis3", "russian", "F2", facing=0, concealed=True),
        ),
    ],
)
def test_rd11_two_games_differing_only_in_a_concealed_unit_look_the_same_to_the_other_side(
    one, other
):
    a, b = pair(one, other)
    assert_same_to("german", a, b)
    play_both(a, b, EndPhase())  # the Russian (scenario defender) set-up ends
    assert_same_to("german", a, b)
    to_phase(a, "prep_fire", "german")
    to_phase(b, "prep_fire", "german")
    assert_same_to("german", a, b)
    # the PaK fires at the "?" and misses: the German log reads the same in both games
    play_both(a, b, Fire("ger-gun-1", "rus-1", "AP"), dice=(6, 6))
    assert_same_to("german", a, b)
    fired = [e for e in a.knowledge("german").events() if e.kind == "fire"][-1]
    assert "a concealed unit in F2" in fired.text and "ZiS" not in fired.text
    assert all(d["case"] != "P" for d in fired.data["to_hit"]["drms"])
    # ... while the Russian side, whose unit it is, reads the shot whole
    own = [e for e in a.knowledge("russian").events() if e.kind == "fire"][-1]
    assert a.units["rus-1"].name in own.text
    to_phase(a, "movement", "german", fresh=True)
    to_phase(b, "movement", "german", fresh=True)
    play_both(a, b, Turn("ger-pz-1", 1))
    for g in (a, b):
        if g.dff_pending:
            g.apply(Pass())
    assert_same_to("german", a, b)


def test_rd11_the_odds_at_a_concealed_unit_are_its_to_hit_with_case_k_and_no_to_kill():
    a, _ = pair(
        UnitSetup("rus-1", "zis3", "russian", "F2", facing=3, concealed=True),
        UnitSetup("rus-1", "zis3", "russian", "F2", facing=3),
    )
    shot = a.knowledge("german").odds("ger-pz-1", "rus-1")
    cases = {d["case"] for d in shot.report["to_hit"]["drms"]}
    assert "K" in cases and "P" not in cases
    assert shot.odds is None and shot.p_kill is None
    assert "unknown until it is revealed" in shot.report["to_kill"]["gun"]
    assert set(shot.report["p"]) == {"miss", "hit"}
    # the Russian side, whose Gun it is, may see the whole of it (the replay's both sides too)
    full = a.knowledge(None).odds("ger-pz-1", "rus-1")
    assert full.odds is not None and "P" in {d.case for d in full.odds.plan.drms}


def test_c6_42_two_games_differing_only_in_a_bore_sight_look_the_same_to_the_other_side():
    gun = UnitSetup("rus-1", "zis3", "russian", "F2", facing=3)
    a, b = pair(gun, gun)
    a.apply(BoreSight("rus-1", "C2"))  # only game a's Gun bore sights (C6.42: in secret)
    assert_same_to("german", a, b)
    play_both(a, b, EndPhase())
    to_phase(a, "movement", "german")
    to_phase(b, "movement", "german")
    assert_same_to("german", a, b)
    threats = a.knowledge("german").threat_map("ger-pz-1")
    assert threats and threats == b.knowledge("german").threat_map("ger-pz-1")


def test_c6_42_road_ambush_the_german_threat_map_does_not_find_the_bore_sighted_hex():
    """The issue's case: on road-ambush the Russian Gun bore sighting E5 raised E5's figure on
    the German threat map (24.7% against 23.1% without), so the German could find the hex."""
    scenario = load_scenario(scenarios_dir() / "road-ambush.toml")
    a, b = Game(scenario.setup, 3), Game(scenario.setup, 3)
    a.apply(BoreSight("rus-gun-1", "E5"))
    for g in (a, b):  # the Russian set-up done: its units are shown (HX-12)
        g.apply(EndPhase())
    maps = [g.knowledge("german").threat_map("ger-pz4-1") for g in (a, b)]
    assert "E5" in maps[0] and maps[0] == maps[1]
    assert_same_to("german", a, b)


def test_rd18_a_shocked_enemy_and_an_occupied_hex_do_not_count_on_the_threat_map():
    a, _ = pair(
        UnitSetup("rus-1", "t34m43", "russian", "F2", facing=3),
        UnitSetup("rus-1", "t34m43", "russian", "F2", facing=3),
    )
    threats = a.knowledge("german").threat_map("ger-pz-1")
    assert threats and "A2" not in threats and "F2" not in threats  # a Gun's and the T-34's hexes
    a.state.units["rus-1"].shock = "shock"
    assert a.knowledge("german").threat_map("ger-pz-1") == {}


def test_rd11_a_concealed_vehicles_moves_read_as_a_concealed_unit_moving():
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A1", facing=0),
        UnitSetup("rus-1", "t34m43", "russian", "H4", facing=3, concealed=True),
    ]
    rows = ["o o o o o o o o", "o o w w w o o o", "o o w w w o o o", "o o o o o o o o"]
    g = Game(make_setup(units, rows=rows, first="russian"), 3)
    to_phase(g, "movement", "russian")
    to = label_ahead(g, "rus-1")
    g.apply(Move("rus-1", to))
    if g.dff_pending:
        g.apply(Pass())
    g.apply(EndMove("rus-1", True))
    seen = [e.text for e in g.knowledge("german").events() if e.kind in ("move", "end_move")]
    assert g.units["rus-1"].concealed  # the woods hide it from the Gun (RD-11)
    assert seen == [f"a concealed unit moves H4 -> {to} (RD-11)"]
    own = [e.text for e in g.knowledge("russian").events() if e.kind == "move"]
    assert own and "T-34" in own[0]


def label_ahead(game: Game, uid: str) -> str:
    from game.board.hexes import label

    u = game.units[uid]
    return label(u.hex.neighbor(u.facing))


# --- RD-19: undo never returns information ------------------------------------------------


def test_rd19_no_undo_of_a_move_that_lost_concealment():
    """RD-19: the concealed ATR squad moves into German view and loses concealment (no die is
    rolled, nobody is asked): its owner has learned that it is seen, so no undo."""
    session = new_game(load_scenario(scenarios_dir() / "road-ambush.toml"), 5)
    game = session.game
    while not (game.phase == "movement" and game.phasing == "russian"):
        session.apply(Pass() if game.dff_pending else EndPhase())
        game = session.game
    chosen = None
    for action in game.legal_actions():
        if isinstance(action, Move) and action.unit == "rus-atr-1":
            probe = copy.deepcopy(game)
            probe.apply(action)
            if not probe.units["rus-atr-1"].concealed:
                chosen = action
                break
    assert chosen is not None
    draws = game.dice.draws
    session.apply(chosen)
    assert session.game.dice.draws == draws and session.game.to_act == "russian"
    why = session.undo()
    assert why is not None and "RD-19" in why
    assert not session.game.units["rus-atr-1"].concealed


def test_rd19_an_undo_that_reveals_nothing_is_still_allowed():
    session = new_game(load_scenario(scenarios_dir() / "road-ambush.toml"), 5)
    game = session.game
    while not (game.phase == "movement" and game.phasing == "russian"):
        session.apply(Pass() if game.dff_pending else EndPhase())
        game = session.game
    session.apply(Move("rus-mol-1", "A3"))  # A4 -> A3, behind the village, out of German view
    assert session.game.units["rus-mol-1"].concealed
    assert session.undo() is None
    assert session.game.units["rus-mol-1"].label == "A4"


def test_rd8_the_odds_at_a_concealed_target_on_the_charts_90_degree_line_need_no_die():
    """A "?" exactly on the chart's 90-degree line: its odds (the To Hit alone, RD-11) are
    shown, not an error asking for RD-8's die (the aspect does not matter to the To Hit)."""
    from game.engine.play.shot import build_attack
    from game.rules.drm import RuleError

    found = 0
    spots = [(f"{c}{r}", facing) for c in "CDEFG" for r in "1234" for facing in range(6)]
    for hx, facing in spots:
        if found >= 2:
            break
        setup = make_setup(
            [
                UnitSetup("ger-pz-1", "pz4h", "german", "A2", facing=0),
                UnitSetup("rus-t34-1", "t34m43", "russian", hx, facing=facing, concealed=True),
            ],
            rows=ROWS,
            to_kill="chart",
        )
        game = Game(setup, 1)
        state = game.state
        firer, target = state.units["ger-pz-1"], state.units["rus-t34-1"]
        try:
            build_attack(state, firer, target, "AP", False, None)
        except RuleError:
            found += 1
            shot = game.knowledge("german").odds("ger-pz-1", "rus-t34-1")
            assert shot.p_kill is None and 0 < shot.p_hit < 1
        except IllegalAction:
            continue
    assert found, "no hex on the 90-degree line tried"


def test_rd18_the_attack_map_names_only_known_enemies_and_matches_the_odds_of_a_stopped_shot():
    """The threat map turned round: from each hex the Panzer could stand in, the chance its
    best shot removes each enemy it knows. A "?" (RD-11) and Infantry (002) are never on it;
    from its own hex, stopped and facing the T-34, it is the odds panel's chance of removing
    it with its best ammunition."""
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "A2", facing=0),
        UnitSetup("rus-t34-1", "t34m43", "russian", "E4", facing=3),  # along direction 0
        UnitSetup("rus-q-1", "t34m43", "russian", "E2", facing=3, concealed=True),
        UnitSetup("rus-atr-1", "rus_atr", "russian", "D1"),
    ]
    rows = ["o o o o o o o o"] * 5
    g = Game(make_setup(units, rows=rows, first="german", defender="russian"), 1)
    k = g.knowledge("german")
    attacks = k.attack_map("ger-pz-1")
    assert {t for shots in attacks.values() for t, _ in shots} == {"rus-t34-1"}
    removed = max(
        sum(
            k.odds("ger-pz-1", "rus-t34-1", ammo).odds.p[x]  # type: ignore[union-attr]
            for x in ("burn", "eliminated", "abandoned")
        )
        for ammo in ammo_choices(g.state, g.units["ger-pz-1"])
    )
    assert dict(attacks["A2"])["rus-t34-1"] == pytest.approx(removed)
    assert 0 < removed < 1


@pytest.mark.parametrize("name", ["tutorial-duel", "road-ambush"])
def test_rd18_the_shot_memo_never_changes_a_threat_or_attack_map(name):
    """The state's shot memo (shared by a game's copies) gives the same maps as a fresh
    reckoning at every step of a game, the threat to a vehicle where it stands is the
    threat map's figure for its hex, and a map over some hexes alone (the computer's: the
    hexes it weighs) has the whole map's figures for them."""
    from game.ai.selfplay import play_game

    sc = load_scenario(scenarios_dir() / f"{name}.toml")
    checked = 0

    def check(game, action):
        nonlocal checked
        if game.actions_applied % 7 or game.over:
            return
        for side in sc.setup.sides:
            knows = game.knowledge(side)
            for u in knows.units():
                if u["side"] != side or not u.get("is_vehicle"):
                    continue
                warm = (knows.threat_map(u["id"]), knows.attack_map(u["id"]))
                here = knows.threat_here(u["id"])
                game.state.shots.clear()
                assert (knows.threat_map(u["id"]), knows.attack_map(u["id"])) == warm
                figure = warm[0].get(u["hex"])
                assert here.p_kill == pytest.approx(figure.p_kill if figure else 0.0)
                some = sorted({*warm[0], *warm[1], "A1"})[::3]
                assert knows.threat_map(u["id"], some) == {
                    h: t for h, t in warm[0].items() if h in some
                }
                assert knows.attack_map(u["id"], some) == {
                    h: s for h, s in warm[1].items() if h in some
                }
                checked += 1

    play_game(sc.setup, 12, {s: 2 for s in sc.setup.sides}, on_action=check)
    assert checked > 10


def test_rd11_a_concealed_vehicles_recovery_roll_is_its_own_sides_secret():
    """A Shocked AFV that regained concealment rolls for recovery (C7.42): the other side
    sees a "?", so it reads neither the roll nor the state it tells of (RD-11)."""
    from game.engine.play.outcomes import recovery

    a, _ = pair(
        UnitSetup("rus-1", "t34m43", "russian", "F2", facing=3, concealed=True),
        UnitSetup("rus-1", "t34m43", "russian", "F2", facing=3, concealed=True),
        first="russian",
    )
    while a.phasing != "russian" or a.phase == "setup":
        a.apply(EndPhase())
    tank = a.state.units["rus-1"]
    tank.shock = "shock"
    events = recovery(a.state)
    rolled = [e for e in events if e.kind == "recovery"]
    assert rolled and rolled[0].seen_by("russian") is rolled[0]
    assert rolled[0].seen_by("german") is None


def test_rd11_where_a_question_mark_stands_in_a_stack_tells_nothing_of_its_id():
    """The map draws a hex's counters in the order the side's knowledge lists them: two games
    whose "?" beside a known Russian squad differ only in the "?"'s id list the hex alike."""
    orders = []
    for qid in ("rus-0", "rus-9"):
        units = [
            UnitSetup("ger-pz-1", "pz4h", "german", "A4", facing=0),
            UnitSetup("rus-5", "rus_atr", "russian", "F2"),
            UnitSetup(qid, "zis3", "russian", "F2", facing=3, concealed=True),
        ]
        game = Game(make_setup(units, rows=ROWS, first="german", defender="russian"), 7)
        orders.append([u["type"] for u in game.knowledge("german").units() if u["hex"] == "F2"])
    assert orders[0] == orders[1] == ["rus_atr", "?"]


def test_rd8_rd11_a_missed_shot_at_a_question_mark_on_its_90_degree_line_tells_no_aspect(
    monkeypatch,
):
    """Under the chart (RD-8) a firer exactly on a target's 90-degree line rolls a dr for the
    aspect it hits; at a "?" that misses, the firer's side reads no such roll, which would name
    it and tell an AFV from the rest (RD-11); the "?"'s own side reads it."""
    import game.engine.play.fire as fire

    monkeypatch.setattr(fire, "on_the_90_degree_line", lambda state, firer, target: True)
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "A4", facing=0),
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0),
        UnitSetup("rus-1", "t34m43", "russian", "F2", facing=3, concealed=True),
    ]
    game = Game(make_setup(units, rows=ROWS, to_kill="chart", defender="russian"), 7)
    game.apply(EndPhase())
    to_phase(game, "prep_fire", "german")
    script(game, 3, 6, 6)  # the aspect dr, then a missing To Hit DR
    game.apply(Fire("ger-gun-1", "rus-1", "AP"))
    assert game.units["rus-1"].concealed
    assert not [e for e in game.knowledge("german").events() if e.kind == "facing"]
    assert [e for e in game.knowledge("russian").events() if e.kind == "facing"]


def test_rd11_a_concealed_vehicles_motion_is_secret_in_its_odds_and_in_a_missed_shots_log():
    """A "?" in Motion (C6.1 Case J, +2) and the same "?" stopped look alike to the other
    side (RD-11: its Motion counter lies under the "?"): the odds shown at it leave Case J
    from Motion out, and so does the log of a missed shot at it; the dice count it."""
    a, b = pair(
        UnitSetup("rus-1", "t34m43", "russian", "F2", facing=3, concealed=True),
        UnitSetup("rus-1", "t34m43", "russian", "F2", facing=3, concealed=True),
    )
    for g in (a, b):
        to_phase(g, "prep_fire", "german")
    b.units["rus-1"].motion = True  # it ended its last move in Motion, out of sight
    assert_same_to("german", a, b)
    shown = b.knowledge("german").odds("ger-gun-1", "rus-1", "AP").report["to_hit"]
    assert "J" not in {d["case"] for d in shown["drms"]}
    assert any("Motion not known" in n["text"] for n in shown["notes"])
    # the Russian side, whose tank it is, sees its own Motion's +2
    whole = b.knowledge(None).odds("ger-gun-1", "rus-1", "AP").report["to_hit"]
    assert "J" in {d["case"] for d in whole["drms"]}
    play_both(a, b, Fire("ger-gun-1", "rus-1", "AP"), dice=(6, 6))
    assert_same_to("german", a, b)
    fired = [e for e in b.knowledge(None).events() if e.kind == "fire"][-1]
    assert "J" in {d["case"] for d in fired.data["to_hit"]["drms"]}  # the roll counted it


# --- RD-20: what a "?" lets the other side learn --------------------------------------------

LONG_ROWS = [" ".join(["o"] * 70)] * 3


def long_pair(kind_one: str, kind_other: str, range_hexes: int) -> tuple[Game, Game, str]:
    """Two games alike but for what the German "?" ``range_hexes`` hexes from a Russian 45L AT
    Gun (M1937, AP and APCR in 1943) is; the Russian's Prep Fire Phase. (the games, its hex)"""
    from game.board.hexes import label

    games = []
    where = ""
    for kind in (kind_one, kind_other):
        probe = make_setup([], rows=LONG_ROWS)
        gun_hex = probe.board.parse("A2")
        where = next(
            label(h)
            for h in (probe.board.hex_at(i) for i in range(70 * 3))
            if h.distance(gun_hex) == range_hexes and label(h).endswith("2")
        )
        units = [
            UnitSetup("rus-gun-1", "m1937", "russian", "A2", facing=0),
            UnitSetup("ger-1", kind, "german", where, facing=4, concealed=True),
        ]
        setup = make_setup(units, rows=LONG_ROWS, first="russian", defender="german", year=1943)
        game = Game(setup, 7)
        to_phase(game, "prep_fire", "russian")
        games.append(game)
    return games[0], games[1], where


@pytest.mark.parametrize("range_hexes", [65, 35])
def test_rd20_hx13_a_shot_at_a_question_mark_is_legal_and_shown_alike_whatever_it_is(
    range_hexes,
):
    """A 45L has no AP nor APCR To Kill number against an armored target at 65 hexes, and no
    APCR at 35 (Case D's NA, C7.24), while a Gun is hit whatever the range: the legal actions,
    the odds and everything else the Russian side is shown of a "?" PaK 40 and a "?" PzKpfw IV
    in the same hex are the same (RD-20, HX-13), every ammunition it carries may be fired."""
    a, b, _ = long_pair("pak40", "pz4h", range_hexes)
    assert_same_to("russian", a, b)
    for g in (a, b):
        fired = {x.ammo for x in g.legal_actions() if isinstance(x, Fire) and x.target == "ger-1"}
        assert fired == {"AP", "HE", "APCR"}
        for ammo in ("AP", "APCR"):
            g.check(Fire("rus-gun-1", "ger-1", ammo))  # no IllegalAction
            shot = g.knowledge("russian").odds("rus-gun-1", "ger-1", ammo)
            assert shot.p_kill is None and 0 < shot.p_hit < 1
    play_both(a, b, Fire("rus-gun-1", "ger-1", "AP"), dice=(6, 6))  # a miss reveals nothing
    assert_same_to("russian", a, b)


def test_rd20_a_hit_on_a_question_mark_with_no_to_kill_number_reveals_it_and_has_no_effect():
    """The real target decides the outcome: AP from a 45L hitting a "?" that is a PzKpfw IV
    65 hexes away has no To Kill number (Case D: NA, C7.24), so the hit reveals it (HX-9) and
    has no effect; the log says why with the rules. The same hit on a "?" PaK 40 eliminates it
    (002). The odds of the whole shot, shown to both sides in the replay, say so too."""
    a, b, where = long_pair("pz4h", "pak40", 65)
    whole = a.knowledge(None).odds("rus-gun-1", "ger-1", "AP")
    assert whole.odds is not None and whole.odds.p["no_effect"] == pytest.approx(whole.p_hit)
    assert whole.report["to_kill"]["rule"] == "RD-20"
    play_both(a, b, Fire("rus-gun-1", "ger-1", "AP"), dice=(1, 2))  # TH DR 3: a hit
    tank, gun = a.units["ger-1"], b.units["ger-1"]
    assert not tank.concealed and tank.active and tank.shock == "none"
    fired = [e for e in a.knowledge("russian").events() if e.kind == "fire"][-1]
    assert fired.data["hit"] and fired.data["outcome"] == "no_effect"
    assert {"C7.24", "RD-20"} <= set(fired.rules)
    assert "Case D: NA" in fired.text and tank.name in fired.text
    assert gun.status != "active"


def test_rd20_c6_17_a_question_mark_moving_in_view_opens_the_same_chance_whatever_it_is():
    """A "?" moving in the LOS of an enemy AT weapon more than 16 hexes away (so it stays a "?",
    RD-11) opens the same Defensive First Fire chances whether it is a T-34 or an Infantry
    squad (RD-20): the German is asked alike, its legal actions and odds are alike, and so is
    everything else it is shown, through a shot, a pass, another hex and the end of the move.
    The squad moves by its MF (RD-10); a hit on it reveals it and has no effect (HX-13)."""
    a, b = [
        Game(
            make_setup(
                [
                    UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0),
                    UnitSetup("rus-1", kind, "russian", "V2", facing=4, concealed=True),
                ],
                rows=LONG_ROWS,
                first="russian",
                defender="german",
            ),
            3,
        )
        for kind in ("t34m43", "rus_atr")
    ]
    for g in (a, b):
        to_phase(g, "movement", "russian")
    assert_same_to("german", a, b)
    play_both(a, b, Move("rus-1", "U3"))
    assert a.dff_pending == b.dff_pending == ("ger-gun-1",)
    assert a.units["rus-1"].concealed and b.units["rus-1"].concealed
    assert_same_to("german", a, b)
    play_both(a, b, Fire("ger-gun-1", "rus-1", "AP"), dice=(6, 1))  # a miss, its ROF kept
    assert a.dff_pending == b.dff_pending == ()  # 1 MP seen in the hex: one shot (C6.17)
    assert_same_to("german", a, b)
    ahead = label_ahead(a, "rus-1")
    play_both(a, b, Move("rus-1", ahead))
    assert a.dff_pending == b.dff_pending == ("ger-gun-1",)
    assert_same_to("german", a, b)
    hit = copy.deepcopy(b)  # the squad, fired at and hit, is revealed with no effect (HX-13)
    script(hit, 1, 1)  # TH DR 2 +2 Case J (it began in the LOS, C6.15) +2 Case K: a hit
    hit.apply(Fire("ger-gun-1", "rus-1", "AP"))
    squad = hit.units["rus-1"]
    assert not squad.concealed and squad.active
    fired = [e for e in hit.knowledge("german").events() if e.kind == "fire"][-1]
    assert fired.data["hit"] and fired.data["outcome"] == "no_effect"
    assert hit.dff_pending == ()  # a known squad is no target for AT fire (002)
    play_both(a, b, Pass())
    play_both(a, b, EndMove("rus-1", False))  # the T-34 stops; no chance after a "?"'s stop
    assert a.dff_pending == b.dff_pending == ()
    assert_same_to("german", a, b)
    assert b.units["rus-1"].mp_spent == 2  # two open hexes, 1 MF each (RD-10)


def test_c617_the_moving_vehicles_label_offers_no_shot_the_prompt_would_not():
    """Found in a newcomer's trial: after the Panzer had fired at the moving T-34, the label
    by the mover still said "PzKpfw IVH: a shot now ... Case J1", and no prompt came. A
    tracking row has a shot only for a firer the Defensive First Fire window would offer."""
    from game.engine.play.shot import fire_problem

    rows = ["o o o o o o o o"] * 7
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "A4", facing=0),
        UnitSetup("rus-t-1", "t34m43", "russian", "H4", facing=3),
    ]
    game = Game(make_setup(units, rows=rows), 1)
    to_phase(game, "movement", "russian")
    game.apply(Move("rus-t-1", label(game.units["rus-t-1"].hex.neighbor(3))))
    assert game.dff_pending == ("ger-pz-1",)
    script(game, 6, 6, 6, 6)  # a miss (and any other die it asks)
    game.apply(Fire("ger-pz-1", "rus-t-1"))
    mover = game.state.moving_target()
    assert mover is not None and mover.id == "rus-t-1"
    checked = 0
    for _ in range(3):  # it drives on: at each hex, the label and the window agree
        tracking = game.knowledge("russian").tracking()
        assert tracking is not None
        for name, _, _, shot, _ in tracking.rows:
            firer = game.units["ger-pz-1"]
            assert name == firer.name
            may = fire_problem(game.state, firer, mover, None, dff=True) is None
            assert (shot is not None) == may, (mover.label, shot, may)
            checked += 1
        game.apply(Move("rus-t-1", label(mover.hex.neighbor(mover.facing))))
        if game.dff_pending:
            game.apply(Pass())
    assert checked >= 3
