"""The scenario document an editor keeps (issue 42): the file's bytes kept, named edits with
undo and redo, each validated through the code path of hexfire validate."""

import os
import re
from pathlib import Path

import pytest

from game.files.savegame import SaveError
from game.files.scenario import ScenarioError, load_scenario
from game.files.scenario_doc import ScenarioDoc
from game.files.scenario_edits import (
    AddUnit,
    EditError,
    MoveUnit,
    RemoveUnit,
    ResizeMap,
    SetHexes,
    SetRules,
    SetSetupArea,
    SetSideFlag,
    SetTop,
    SetUnit,
    SetVictory,
)
from game.files.shipped import shipped_scenarios

ROOT = Path(__file__).resolve().parents[2]
LESSON7 = ROOT / "scenarios" / "lesson-7-duel.toml"


def copy(tmp_path: Path, src: Path = LESSON7) -> Path:
    p = tmp_path / src.name
    p.write_bytes(src.read_bytes())
    return p


def test_every_shipped_scenario_loads_and_saves_byte_identical(tmp_path):
    for src in shipped_scenarios():
        doc = ScenarioDoc.load(src)
        assert not doc.changed and doc.check().errors == (), src.name
        out = doc.save(tmp_path / src.name)
        assert out.read_bytes() == src.read_bytes(), src.name


def test_a_hex_edit_keeps_comments_alignment_and_every_other_byte(tmp_path):
    path = copy(tmp_path)
    doc = ScenarioDoc.load(path)
    checked = doc.apply(SetHexes(("H1", "C2"), terrain="w", level=2))
    assert checked.errors == () and checked.scenario is not None
    board = checked.scenario.setup.board
    assert board.to_map_table()["hexes"][0].split()[7] == "w2"
    before, after = path.read_text().splitlines(), doc.text.splitlines()
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    assert changed == [
        (
            '  "o  o  o  w  w  o  o  o   o   gr  gr  o",',
            '  "o  o  o  w  w  o  o  w2  o   gr  gr  o",',
        ),
        (
            '  "o  o  o  w  w  o  o1 o1  o   gr  gr  o",',
            '  "o  o  w2 w  w  o  o1 o1  o   gr  gr  o",',
        ),
    ]
    doc.apply(SetHexes(("H1",), level=0))
    assert doc.text.splitlines()[24] == '  "o  o  o  w  w  o  o  w   o   gr  gr  o",'
    assert doc.changed and doc.undo_title == "level 0 in H1"


def test_an_edit_gives_the_errors_hexfire_validate_gives_for_the_saved_file(tmp_path):
    path = copy(tmp_path)
    doc = ScenarioDoc.load(path)
    checked = doc.apply(SetUnit("ger-pz4-1", "facing", 7))
    assert checked.scenario is None
    line = doc.text.splitlines().index("facing = 7") + 1
    assert checked.errors == (f"{path}:{line}: units[0].facing: expected 0-5, got 7",)
    doc.save()
    with pytest.raises(ScenarioError) as e:
        load_scenario(path)
    assert tuple(e.value.errors) == checked.errors
    checked = doc.apply(MoveUnit("ger-pz4-1", "A5"))  # a later edit: the error stands
    assert any("units[0].facing" in x for x in checked.errors)


def test_undo_and_redo_give_back_the_bytes_and_a_new_edit_clears_redo(tmp_path):
    doc = ScenarioDoc.load(copy(tmp_path))
    texts = [doc.text]
    for edit in (
        MoveUnit("ger-pz4-1", "D4"),
        SetUnit("ger-pz4-1", "concealed", True),
        SetTop("turns", 7),
        SetSideFlag("german", "moves_first"),
    ):
        assert doc.apply(edit).errors == ()
        texts.append(doc.text)
    assert doc.undo_title == "german moves first" and doc.redo_title is None
    for i in range(4, 0, -1):
        assert doc.undo() is not None and doc.text == texts[i - 1]
    assert doc.undo() is None and not doc.changed
    assert doc.redo() is not None and doc.text == texts[1]
    assert doc.redo_title == "ger-pz4-1: concealed True"
    doc.apply(SetTop("turns", 3))
    assert doc.redo() is None and doc.redo_title is None


def test_units_added_set_given_areas_and_removed(tmp_path):
    doc = ScenarioDoc.load(copy(tmp_path))
    checked = doc.apply(AddUnit("ger-pak-1", "pak40", "german", "B8", facing=1, concealed=True))
    assert checked.errors == ()
    assert (
        'id = "ger-pak-1"\ntype = "pak40"\nside = "german"\nhex = "B8"\nfacing = 1\n'
        "concealed = true" in doc.text
    )
    checked = doc.apply(SetSetupArea(("ger-pak-1",), columns="A-C"))
    assert checked.errors == () and 'setup_area = {columns = "A-C"}' in doc.text
    checked = doc.apply(SetSetupArea(("ger-pak-1",), columns="E-F"))
    assert (
        checked.errors and "setup_area: the unit's hex B8 is outside its area" in checked.errors[0]
    )
    checked = doc.apply(RemoveUnit("ger-pak-1"))
    assert checked.errors == () and "ger-pak-1" not in doc.text
    with pytest.raises(EditError, match="a unit 'ger-pz4-1' exists already"):
        doc.apply(AddUnit("ger-pz4-1", "pz4h", "german", "A1"))
    with pytest.raises(EditError, match="units: no unit 'nobody'"):
        doc.apply(MoveUnit("nobody", "A1"))
    with pytest.raises(EditError, match="'hex' is not set so"):
        doc.apply(SetUnit("ger-pz4-1", "hex", 1))


def test_refused_edits_leave_the_document_as_it_was(tmp_path):
    doc = ScenarioDoc.load(copy(tmp_path))
    before = doc.text
    for edit, words in (
        (SetHexes(("A1", "Z99"), terrain="w"), "hex Z99 is off the 12 x 8 map"),
        (SetHexes(("a1",), terrain="w"), "map.hexes"),
        (SetHexes(("A1",), terrain="w 2"), "expected a code"),
        (SetHexes(("A1",), level=12), "expected a ground level"),
        (ResizeMap(201, 8), "map.columns: expected 1-200, got 201"),
        (SetTop("map", 1), "map: not a key set so"),
        (SetSideFlag("prussian"), "sides: no side 'prussian'"),
        (SetVictory(9), "victory[9]: no such condition"),
    ):
        with pytest.raises(EditError, match=re.escape(words)):
            doc.apply(edit)
        assert doc.text == before and doc.undo_title is None


def test_resize_grows_and_shrinks_aligned_and_units_off_the_map_are_located(tmp_path):
    doc = ScenarioDoc.load(copy(tmp_path))
    checked = doc.apply(ResizeMap(14, 9))
    assert checked.errors == ()
    rows = checked.scenario.setup.board.to_map_table()["hexes"]
    assert len(rows) == 9 and rows[0].endswith("o o") and rows[8] == " ".join(["o"] * 14)
    assert '  "o  o  o  w  w  o  o  o   o   gr  gr  o   o   o",' in doc.text
    checked = doc.apply(ResizeMap(6, 8))
    assert any(": units[1].hex: " in e and "off the" in e for e in checked.errors), checked.errors
    assert checked.errors[0].startswith(f"{doc.name}:")


def test_briefing_turns_first_mover_rules_and_victory(tmp_path):
    doc = ScenarioDoc.load(copy(tmp_path))
    doc.apply(SetTop("briefing", "Two lines\nof briefing.\n"))
    doc.apply(SetTop("title", "A new title"))
    doc.apply(SetSideFlag("german", "moves_first"))
    doc.apply(SetSideFlag("russian", "defender"))
    doc.apply(SetRules("chart"))
    checked = doc.apply(SetVictory(None, (("side", "russian"), ("kind", "points"), ("count", 3))))
    assert checked.errors == (), checked.errors
    sc = checked.scenario
    assert sc.briefing == "Two lines\nof briefing.\n" and sc.title == "A new title"
    assert sc.setup.first == "german" and sc.setup.defender == "russian"
    assert sc.setup.to_kill == "chart" and sc.setup.victory[-1].kind == "points"
    assert 'briefing = """\nTwo lines\nof briefing.\n"""' in doc.text
    n = len(sc.setup.victory)
    checked = doc.apply(SetVictory(n - 1, (("side", "russian"), ("kind", "hold"))))
    assert checked.errors and "hold condition names the hexes" in checked.errors[0]
    checked = doc.apply(SetVictory(n - 1))
    assert checked.errors == () and len(checked.scenario.setup.victory) == n - 1
    checked = doc.apply(SetRules("dice"))
    assert checked.errors and "rules.to_kill" in checked.errors[0]


def test_a_file_that_is_not_toml_and_a_save_that_fails_are_one_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('id = "x"\nturns = \n')
    with pytest.raises(ScenarioError, match=r"bad.toml:2: not valid TOML"):
        ScenarioDoc.load(bad)
    doc = ScenarioDoc.load(copy(tmp_path))
    folder = tmp_path / "ro"
    folder.mkdir()
    os.chmod(folder, 0o500)
    try:
        if os.access(folder, os.W_OK):  # root writes anyway: a missing folder instead
            folder = tmp_path / "missing"
        with pytest.raises(SaveError, match="cannot save"):
            doc.save(folder / "x.toml")
    finally:
        os.chmod(tmp_path / "ro", 0o700)
    assert doc.name == str(tmp_path / LESSON7.name)
