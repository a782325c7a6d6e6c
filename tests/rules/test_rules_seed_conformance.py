"""Where play departed from the seeds: each test failed before its fix."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from engine_helpers import make_setup, script, to_phase

from game.cli import main
from game.engine import Game, UnitSetup
from game.engine.actions import EndMove, Fire, Move, Pass
from game.rules.attack import Attack, plan, resolve
from game.rules.dice import FixedDice
from game.rules.drm import RuleError
from game.rules.odds import odds
from game.rules.rule_index import rule_ids_in, rule_index
from game.rules.to_hit import Situation
from game.rules.to_kill import final_tk

FLAT = ["o o o o o o", "o o o o o o", "o o o o o o"]
GAME = Path(__file__).resolve().parents[2] / "game"


def _cases(events) -> dict[str, int]:
    """Case -> DRM of the fire event's To Hit DRM, read from its text."""
    fire = next(e for e in events if e.kind == "fire")
    return {m[1]: int(m[0]) for m in re.findall(r"([+-]\d+) Case (\w+) \(", fire.text)}


def _duel(tank_hex: str) -> Game:
    units = [
        UnitSetup("ger-tank-1", "pz4h", "german", "A2", facing=1),
        UnitSetup("rus-tank-1", "kv1e", "russian", tank_hex, facing=3),
    ]
    return Game(make_setup(units, rows=FLAT, turns=4), 1)


# --- Case L (C6.1, C6.3) -------------------------------------------------------------------


def test_c6_3_case_l_applies_to_a_target_stopped_after_motion_earlier_this_player_turn():
    g = _duel("D2")
    to_phase(g, "movement", "russian")
    g.apply(Move("rus-tank-1", "C2"))
    while g.dff_pending:  # the start MP's chance in D2 (HX-5), then C2's
        g.apply(Pass())
    g.apply(EndMove("rus-tank-1", motion=True))
    to_phase(g, "movement", "russian", fresh=True)  # the German player turn, then its own
    tank = g.units["rus-tank-1"]
    assert tank.motion and tank.was_motion
    g.apply(Move("rus-tank-1", "B1"))
    if g.dff_pending:
        g.apply(Pass())
    g.apply(EndMove("rus-tank-1", motion=False))
    to_phase(g, "defensive_fire")
    script(g, 6, 6)
    cases = _cases(g.apply(Fire("ger-tank-1", "rus-tank-1")))
    assert cases["J"] == 2 and cases["L"] == -2


def test_c6_3_case_j_text_says_was_in_motion():
    found = plan(
        Attack(gun="75L", range=1, af_hull=11, af_turret=11, situation=Situation(was_motion=True))
    )
    assert [(d.case, d.value) for d in found.drms] == [("J", 2), ("L", -2)]
    assert "was in Motion" in found.drms[0].why


def test_c6_3_dff_after_the_stop_mp_gets_case_l():
    g = _duel("C2")
    to_phase(g, "movement", "russian")
    g.apply(Move("rus-tank-1", "B1"))
    g.apply(Pass())  # the start MP's chance in C2 (HX-5)
    assert g.dff_pending == ("ger-tank-1",)
    moving = g.preview_fire("ger-tank-1", "rus-tank-1")
    assert "L" not in {d.case for d in moving.plan.drms}  # non-stopped: no Point Blank
    g.apply(Pass())
    g.apply(EndMove("rus-tank-1", motion=False))
    assert g.dff_pending == ("ger-tank-1",)
    script(g, 6, 6)
    cases = _cases(g.apply(Fire("ger-tank-1", "rus-tank-1")))
    assert cases["L"] == -2 and cases["J"] == 2


def test_c6_3_dff_at_a_vehicle_that_stays_in_motion_gets_no_case_l():
    g = _duel("C2")
    to_phase(g, "movement", "russian")
    g.apply(Move("rus-tank-1", "B1"))
    g.apply(Pass())  # the start MP's chance in C2 (HX-5)
    g.apply(Pass())
    g.apply(EndMove("rus-tank-1", motion=True))
    if g.dff_pending:
        p = g.preview_fire("ger-tank-1", "rus-tank-1")
        assert "L" not in {d.case for d in p.plan.drms}


# --- DC Position DRM (C7.346) --------------------------------------------------------------


def _dc(**situation) -> set[str]:
    p = plan(
        Attack(
            firer="sw",
            weapon="DC",
            range=1,
            af_hull=8,
            af_turret=8,
            worst_af=8,
            ammo=None,
            situation=Situation(**situation),
        )
    )
    return {d.why for d in p.drms}


def test_c7_346_no_non_stopped_drm_for_a_vehicle_that_moved_and_stopped():
    assert "non-stopped/Motion/concealed AFV" not in _dc(moving=True)
    assert "non-stopped/Motion/concealed AFV" not in _dc(was_motion=True)


@pytest.mark.parametrize("kw", [{"non_stopped": True}, {"motion": True}, {"concealed": True}])
def test_c7_346_non_stopped_motion_or_concealed_adds_2(kw):
    assert "non-stopped/Motion/concealed AFV" in _dc(**kw)


def test_c7_346_hexfire_odds_moving_dc_has_no_non_stopped_drm(capsys):
    code = main(
        [
            "odds",
            "--firer",
            "sw",
            "--weapon",
            "DC",
            "--range",
            "1",
            "--af",
            "8",
            "--moving",
            "--json",
        ]
    )
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert all("non-stopped" not in d["why"] for d in report["to_hit"]["drms"])


def test_c7_346_a_dc_with_ch_is_refused_cleanly(capsys):
    code = main(["odds", "--firer", "sw", "--weapon", "DC", "--range", "1", "--af", "8", "--ch"])
    _, err = capsys.readouterr()
    assert code == 2 and "C7.346" in err and "Traceback" not in err and len(err.splitlines()) == 1


# --- Critical Hits under the chart (RD-3) ---------------------------------------------------


def _chart(**kw) -> Attack:
    return Attack(rules="chart", firer="gun", gun="75L", atfp="D", armor="D", range=3, **kw)


def test_rd_3_no_critical_hit_under_the_chart():
    assert odds(_chart()).p_critical == 0.0
    result = resolve(_chart(), FixedDice([1, 1, 3, 3]))
    assert result.hit and not result.critical_hit
    assert all("Critical" not in s.what for s in result.steps)
    with pytest.raises(RuleError, match="RD-3"):
        plan(_chart(critical_hit=True))


def test_rd_3_asl_still_has_critical_hits():
    a = Attack(gun="75L", range=3, af_hull=8, af_turret=8)
    assert odds(a).p_critical == pytest.approx(1 / 36)


# --- FT at Long Range (C7.344) ----------------------------------------------------------------


def test_c7_344_ft_is_halved_at_long_range_against_an_unarmored_target_too():
    near = final_tk("FT", weapon="FT", range_hexes=1, armored=False)
    far = final_tk("FT", weapon="FT", range_hexes=2, armored=False)
    assert far.final == near.final // 2
    assert any(m.rule == "C7.344" for m in far.modifications)
    armored_far = final_tk("FT", weapon="FT", range_hexes=2, af=8)
    assert armored_far.final == far.final


# --- ammunition a gun does not have (C7.32, C7.33) -------------------------------------------


@pytest.mark.parametrize(
    ("gun", "ammo", "rule"),
    [("50", "HEAT", "C7.33"), ("75", "APDS", "C7.32"), ("57", "APCR", "C7.32")],
)
def test_c7_32_33_ammunition_the_gun_has_not_is_refused_against_any_target(gun, ammo, rule):
    for armored in (True, False):
        with pytest.raises(RuleError) as e:
            final_tk(ammo, gun=gun, af=8 if armored else None, armored=armored)
        assert e.value.rule.startswith(rule)


def test_c7_33_heat_a_gun_has_still_works_against_an_unarmored_target():
    assert final_tk("HEAT", gun="75", armored=False).final == 11


# --- fire arc (HX-2) ----------------------------------------------------------------------


def _gun_at(target_hex: str, facing: int) -> str | None:
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=facing),
        UnitSetup("rus-tank-1", "kv1e", "russian", target_hex, facing=3),
    ]
    g = Game(make_setup(units, rows=FLAT), 1)
    to_phase(g, "defensive_fire", "russian")
    return g.check(Fire("ger-gun-1", "rus-tank-1"))


def test_hx_2_a_gun_fires_into_the_60_degree_wedge_of_its_front_hexside_only():
    assert _gun_at("B1", facing=1) is None  # straight ahead
    why = _gun_at("B1", facing=0)  # 60 degrees off: outside (was allowed before)
    assert why is not None and "Covered Arc" in why and "HX-2" in why


def test_hx_2_a_target_exactly_on_a_hexspine_is_inside_the_covered_arc():
    assert _gun_at("E2", facing=0) is None  # 30 degrees off: on the hexspine
    assert _gun_at("E2", facing=1) is None


# --- the chart's SW firer (HX-10) ---------------------------------------------------------


def test_hx_10_the_chart_usage_line_of_docs_commands_md_runs(capsys):
    code = main(
        [
            "odds",
            "--rules",
            "chart",
            "--firer",
            "sw",
            "--atfp",
            "D",
            "--armor",
            "E",
            "--range",
            "1",
            "--json",
        ]
    )
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["to_kill"]["elimination_number"] == 5
    assert report["to_hit"]["number"] == 8
    assert any(n["rule"] == "HX-10" for n in report["to_hit"]["notes"])


# --- citations ----------------------------------------------------------------------------


def test_every_rule_id_quoted_in_game_is_in_the_rule_index():
    index = rule_index()
    unknown = {
        (str(p.relative_to(GAME)), i)
        for p in GAME.rglob("*")
        if p.suffix in (".py", ".toml") and "scenarios" not in p.parts
        for i in rule_ids_in(p.read_text(encoding="utf-8"))
        if i not in index
    }
    assert not unknown


def test_every_decision_the_code_cites_is_stated_in_docs_rules_md():
    import re

    rules = (GAME.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    stated = set(re.findall(r"^### ((?:RD|HX)-\d+): ", rules, flags=re.M))
    cited = {
        i
        for p in GAME.rglob("*")
        if p.suffix in (".py", ".toml") and "scenarios" not in p.parts
        for i in rule_ids_in(p.read_text(encoding="utf-8"))
        if i.startswith(("RD-", "HX-"))
    }
    assert cited and cited <= stated, sorted(cited - stated)
    assert stated <= set(rule_index()), sorted(stated - set(rule_index()))


def test_the_house_rules_table_lists_every_hx_decision_the_code_cites():
    """docs/house-rules.md (the README links it) has one line for each of hexfire's own
    decisions; docs/rules.md states each in full (the test above)."""
    import re

    doc = (GAME.parent / "docs" / "house-rules.md").read_text(encoding="utf-8")
    table = set(re.findall(r"^\| (HX-\d+) \|", doc, flags=re.M))
    cited = {
        i
        for p in GAME.rglob("*")
        if p.suffix in (".py", ".toml") and "scenarios" not in p.parts
        for i in rule_ids_in(p.read_text(encoding="utf-8"))
        if i.startswith("HX-")
    }
    assert cited and cited <= table, sorted(cited - table)


def test_citations_point_at_the_right_rule():
    with pytest.raises(RuleError) as e:
        plan(Attack(rules="dice"))
    assert e.value.rule == "HX-1"
    unarmored = final_tk("HEAT", gun="75", armored=False)
    assert {n.rule for n in unarmored.notes} == {"C7.11"}
    from game.rules.destruction import destruction

    assert destruction(8, 8, armored=False) == ("immobilized", "HX-6")


def test_docs_glossary_md_is_made_from_the_games_glossary():
    from game.rules.glossary import glossary, glossary_markdown

    doc = (GAME.parent / "docs" / "glossary.md").read_text(encoding="utf-8")
    assert doc == glossary_markdown()  # python3 tools/docs/glossary.py writes it
    index = rule_index()
    for term, text in glossary().items():
        assert text.strip(), term
        assert rule_ids_in(text) <= set(index), term


def test_every_rule_id_has_a_plain_line_for_a_newcomer():
    """The rule index carries each id's title and one plain line (shown beside the id on
    hover); every id the code can quote is in the index (the test above), so each has both."""
    from game.rules.rule_index import rule_plain

    index, plain = rule_index(), rule_plain()
    assert set(plain) == set(index), sorted(set(plain) ^ set(index))
    assert all(line.strip() and len(line) <= 160 for line in plain.values())
