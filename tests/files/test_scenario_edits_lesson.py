"""The editor's edits of a lesson (issue 42): a scenario's [lesson] table and its steps added,
removed, reordered and set, validated as hexfire validate does, undone and redone, the rest of
the file kept byte for byte."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.files.scenario_doc import ScenarioDoc
from game.files.scenario_edits import EditError
from game.files.scenario_edits_lesson import AddStep, MoveStep, RemoveStep, SetLesson, SetStep

ROOT = Path(__file__).resolve().parents[2]
LESSON2 = ROOT / "scenarios" / "lesson-2-sight.toml"
AMBUSH = ROOT / "scenarios" / "road-ambush.toml"


def says(doc: ScenarioDoc) -> list[str]:
    checked = doc.check()
    assert checked.errors == () and checked.scenario is not None
    lesson = checked.scenario.lesson
    assert lesson is not None
    return [s.say[:12] for s in lesson.steps]


def test_move_a_step_and_back_gives_the_same_bytes():
    doc = ScenarioDoc.load(LESSON2)
    first = says(doc)
    assert doc.apply(MoveStep(6, 2)).errors == ()
    assert says(doc) == first[:2] + [first[6]] + first[2:6]
    assert "\n\n\n" not in doc.text and doc.text.count("[[lesson.steps]]") == 7
    doc.apply(MoveStep(2, 6))
    assert doc.text == LESSON2.read_text()


def test_add_then_remove_gives_the_same_bytes_and_undo_redo():
    doc = ScenarioDoc.load(LESSON2)
    step = (("why", "w"), ("say", "Trace it."), ("look", ("A1", "B2")))
    checked = doc.apply(AddStep(step, 0))
    assert checked.errors == ()
    added = doc.text
    assert '[[lesson.steps]]\nsay = "Trace it."\nlook = ["A1", "B2"]\nwhy = "w"\n\n' in added
    assert checked.scenario and checked.scenario.lesson
    assert checked.scenario.lesson.steps[0].look == ("A1", "B2")
    doc.apply(AddStep((("say", "Last."), ("do", {"type": "end_phase"}))))
    assert doc.text.endswith('\n\n[[lesson.steps]]\nsay = "Last."\ndo = {type = "end_phase"}\n')
    doc.apply(RemoveStep(8))
    assert doc.text == added
    doc.apply(RemoveStep(0))
    assert doc.text == LESSON2.read_text() and not doc.changed
    assert doc.undo() is not None and doc.text == added
    assert doc.redo() is not None and doc.text == LESSON2.read_text()
    assert doc.undo_title == "remove lesson step 1"


def test_set_step_keys_keeps_the_rest_and_validates():
    doc = ScenarioDoc.load(LESSON2)
    checked = doc.apply(SetStep(1, (("point", None), ("select", "rus-t34-1"))))
    assert checked.errors == ()
    assert checked.scenario and checked.scenario.lesson
    assert checked.scenario.lesson.steps[1].select == "rus-t34-1"
    assert checked.scenario.lesson.steps[1].point is None
    before, after = LESSON2.read_text().splitlines(), doc.text.splitlines()
    assert [(a, b) for a, b in zip(before, after, strict=True) if a != b] == [
        ('point = "B3"', 'select = "rus-t34-1"')
    ]
    bad = doc.apply(SetStep(1, (("select", "no-such-unit"),)))
    assert bad.scenario is None and any("lesson.steps[1]" in e for e in bad.errors)
    assert all(e.startswith(f"{LESSON2}:") for e in bad.errors)
    doc.undo()
    two = doc.apply(SetStep(2, (("select", "rus-t34-1"),)))  # look and select: one thing only
    assert two.scenario is None and any("waits for one thing" in e for e in two.errors)


def test_make_a_scenario_a_lesson_and_take_it_back():
    doc = ScenarioDoc.load(AMBUSH)
    missing = doc.apply(SetLesson(3))
    assert any("lesson.steps: missing" in e for e in missing.errors)
    doc.apply(AddStep((("say", "One."),)))
    doc.apply(AddStep((("say", "Two."), ("point", "end_phase"))))
    assert doc.text.endswith(
        '\n\n[lesson]\nnumber = 3\n\n[[lesson.steps]]\nsay = "One."\n\n'
        '[[lesson.steps]]\nsay = "Two."\npoint = "end_phase"\n'
    )
    assert says(doc) == ["One.", "Two."]
    doc.apply(SetLesson(None))
    assert doc.text == AMBUSH.read_text()


@pytest.mark.parametrize(
    ("edit", "reason"),
    [
        (RemoveStep(7), "lesson.steps[7]: no such step (the lesson has 7)"),
        (MoveStep(0, 9), "lesson.steps[9]: no such step"),
        (AddStep((("say", "x"),), 8), "lesson.steps[8]: no such step"),
        (AddStep((("sing", "x"),)), "'sing' is not a step's key"),
        (AddStep((("say", "x"), ("look", "A1"))), "look: expected two hexes"),
        (SetStep(0, (("do", {"type": 1.5}),)), "do: 'type': expected text"),
        (SetLesson("2"), "lesson.number"),  # type: ignore[arg-type]
    ],
)
def test_edits_that_cannot_be_written_leave_the_document(edit, reason):
    doc = ScenarioDoc.load(LESSON2)
    with pytest.raises(EditError, match=re.escape(reason)):
        doc.apply(edit)
    assert doc.text == LESSON2.read_text() and doc.undo_title is None


def test_a_scenario_without_a_lesson_refuses_steps():
    doc = ScenarioDoc.load(AMBUSH)
    with pytest.raises(EditError, match="lesson: missing"):
        doc.apply(AddStep((("say", "x"),)))
    with pytest.raises(EditError, match="lesson: missing"):
        doc.apply(SetLesson(None))
