"""The lessons (scenarios with a ``[lesson]`` table, docs/scenario-format.md): each played to
its end on the screen by posted events only, step by step (the step's action found among the
legal ones and done with the mouse and keys), its progress kept; the lesson data validated."""

from __future__ import annotations

import pygame
import pytest
from ui_driver import (
    clear_overlays,
    click_hex,
    expressible,
    hex_pos,
    key,
    perform,
    post,
    select,
)

from game.engine.actions import EndPhase, Move, action_from_json
from game.files.lesson import Lesson, Step
from game.files.scenario import ScenarioError, load_scenario, parse_scenario
from game.files.session import new_game
from game.files.shipped import scenarios_dir, shipped_scenarios
from game.ui.overlays.scenes import DffPrompt
from game.ui.play.screen import PlayScene
from game.ui.start.screen import StartScene

LESSONS = [p for p in shipped_scenarios() if load_scenario(p).lesson is not None]


@pytest.fixture(autouse=True)
def _data_dir(data_dir):
    return data_dir


def drag(app, play, a: str, b: str) -> None:
    src, dst = hex_pos(play, a), hex_pos(play, b)
    post(
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=src, button=1),
        pygame.event.Event(pygame.MOUSEMOTION, pos=dst, rel=(1, 1), buttons=(1, 0, 0)),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=dst, button=1),
    )
    app.pump()


def do_step(app, play: PlayScene, step: Step) -> None:
    """What a learner does for ``step``, with the mouse and keys."""
    clear_overlays(app, play)
    if isinstance(app.scene, DffPrompt) and step.kind != "do":  # a second shot offered (ROF)
        key(app, pygame.K_SPACE, " ")
    if step.kind == "read" or play.lesson.reading:  # a phase come by itself, too
        key(app, pygame.K_SPACE, " ")
    elif step.kind == "select":
        click_hex(app, play, play.session.game.units[step.select].label)
    elif step.kind == "phase":  # End Phase (confirmed) until the step's phase comes
        perform(app, play, EndPhase())
    elif step.kind == "look":
        key(app, pygame.K_l, "l")
        drag(app, play, *step.look)
    elif step.kind == "show":
        if step.select is not None:
            select(app, play, step.select)
        key(app, getattr(pygame, f"K_{step.show[0]}"), step.show[0])
    else:
        game = play.session.game
        wanted = [a for a in game.legal_actions() if step.done_by(a) and expressible(play, a)]
        assert wanted, f"no legal action for the step {step.say[:60]!r} in {game.phase}"
        # a move the learner would pick: the cheapest hex first, a shot with the first ammo
        wanted.sort(key=lambda a: isinstance(a, Move) and a.to == "off")
        perform(app, play, wanted[0])


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
@pytest.mark.parametrize("seed", [3, 8])
def test_each_lesson_is_played_to_its_end_by_posted_events(app, path, seed):
    sc = load_scenario(path)
    lesson = sc.lesson
    assert lesson is not None
    session = new_game(sc, seed, app.save_dir / f"{path.stem}.json")
    play = PlayScene(session, sc.title)
    app.push(play)
    app.pump([])
    card = play.lesson
    assert card is not None and card.at == 0
    for _ in range(4 * len(lesson.steps)):
        if card.finished:
            break
        before = card.at
        do_step(app, play, card.step)
        clear_overlays(app, play)
        assert card.at > before, f"step {before + 1} of {path.stem} not done: {card.step.say}"
    assert card.finished
    assert app.prefs.lessons[lesson.id] == len(lesson.steps)  # the progress kept
    assert any("complete" in text for _, text in card.lines())
    for _ in range(3):  # Esc clears the LOS thread, then the selection, then leaves
        key(app, pygame.K_ESCAPE)
        if not isinstance(app.scene, PlayScene):
            break
    assert isinstance(app.scene, StartScene)
    assert f"{sc.title}  (done)" in app.scene.names()


def test_the_start_screen_lists_the_lessons_first_in_their_order(app):
    start = StartScene()
    app.push(start)
    app.pump([])
    numbers = [sc.lesson.number for _, sc, _ in start.scenarios if sc and sc.lesson]
    assert numbers == sorted(numbers) and len(numbers) == len(LESSONS) >= 6
    assert all(sc.lesson for _, sc, _ in start.scenarios[: len(numbers)])


def test_a_resumed_lesson_goes_on_at_the_step_its_actions_reached():
    """Lesson.reached: each action step matched in order; the steps that only explain, after
    the last one done, are shown again."""
    sc = load_scenario(scenarios_dir() / "lesson-1-move.toml")
    lesson = sc.lesson
    assert lesson is not None
    moves = [action_from_json({"type": "move", "unit": "rus-t34-1", "to": "B4"})]
    at = lesson.reached(moves)
    assert lesson.steps[at - 1].do and lesson.steps[at - 1].done_by(moves[0])
    assert lesson.reached([]) == 0


BAD_STEPS = [
    ('do = { type = "fly", unit = "rus-t34-1" }', "lesson.steps[0].do", "expected type = one of"),
    ('do = { type = "move", wings = 2 }', "lesson.steps[0].do", "no field 'wings'"),
    ('do = { type = "move", unit = "nobody" }', "lesson.steps[0].do.unit", "does not exist"),
    ('do = { type = "move", to = "Z99" }', "lesson.steps[0].do.to", "off the map"),
    ('select = "nobody"', "lesson.steps[0].select", "does not exist"),
    ('point = "nowhere"', "lesson.steps[0].point", "expected a hex or one of"),
    ('look = ["A1"]', "lesson.steps[0].look", "2"),
    ('select = "rus-t34-1"\nlook = ["A1", "B1"]', "lesson.steps[0]", "waits for one thing"),
]


@pytest.mark.parametrize(("bad", "where", "why"), BAD_STEPS)
def test_a_bad_lesson_step_is_a_located_error(bad, where, why):
    text = (scenarios_dir() / "lesson-1-move.toml").read_text()
    head = text[: text.index("\n[lesson]\n")]
    broken = head + f'[lesson]\nnumber = 1\n[[lesson.steps]]\nsay = "x"\n{bad}\n'
    with pytest.raises(ScenarioError) as e:
        parse_scenario(broken, "l.toml")
    message = str(e.value)
    assert f": {where}" in message and why in message, message
    line = message.split(":")[1]
    assert line.isdigit() and int(line) > head.count("\n")


def test_a_lesson_step_matches_the_action_on_its_json_form():
    step = Step("x", do=(("type", "move"), ("unit", "u1")))
    assert step.done_by(action_from_json({"type": "move", "unit": "u1", "to": "B2"}))
    assert not step.done_by(action_from_json({"type": "move", "unit": "u2", "to": "B2"}))
    assert not step.done_by(action_from_json({"type": "turn", "unit": "u1", "facing": 2}))
    assert Lesson("l", 1, (step,)).reached([]) == 0


def lesson_one(app):
    """Lesson 1 on the screen, past any handover: its play screen and session."""
    sc = load_scenario(scenarios_dir() / "lesson-1-move.toml")
    session = new_game(sc, 1, app.save_dir / "l1.json")
    play = PlayScene(session, sc.title)
    app.push(play)
    app.pump([])
    clear_overlays(app, play)
    return play, session


def test_hx15_phases_with_nothing_to_do_pass_by_themselves_with_a_log_line(app):
    """Lesson 1's German has no set-up choice, and no one can act before the Russian moves:
    the set-up phases and the Rally and Prep Fire Phases pass by themselves (HX-15), each with
    its log line, and the save holds each End Phase; with the preference off, none passes."""
    play, session = lesson_one(app)
    assert (play.session.game.phase, play.session.game.to_act) == ("movement", "russian")
    passed = [line for line in play.log if "passed by themselves (HX-15)" in line]
    assert len(passed) == 1, play.log  # one line names the four phases
    assert "Russian Rally Phase, Russian Prep Fire Phase<" in passed[0]
    assert [r["action"] for r in session.saved.actions] == [{"type": "end_phase"}] * 4


def test_hx15_the_preference_off_leaves_every_phase_to_the_player(app):
    app.prefs.auto_pass = False
    play, session = lesson_one(app)
    assert play.session.game.phase == "setup" and not session.saved.actions


def test_a_defensive_first_fire_step_is_done_by_either_choice(app):
    """Lesson 5 asks to hold fire; the learner fires instead: the card says so and goes on
    (it stayed on "hold fire" with no prompt left to answer)."""
    sc = load_scenario(scenarios_dir() / "lesson-5-dff.toml")
    play = PlayScene(new_game(sc, 5, app.save_dir / "l5.json"), sc.title)
    app.push(play)
    app.pump([])
    card = play.lesson
    assert card is not None
    while card.step is not None and dict(card.step.do).get("type") != "pass":
        do_step(app, play, card.step)
    at = card.at
    assert isinstance(app.scene, DffPrompt)
    key(app, pygame.K_1, "1")  # fire, not hold
    assert card.at > at
    # it says so (or, when the shot took the T-34 out, that the steps about it are skipped)
    assert "You fired instead" in card.said or "out of play" in card.said


def test_a_step_waiting_for_a_phase_is_skipped_when_the_game_ends_first(app, monkeypatch):
    """Lesson 7's hints wait for phases of the duel; the dice may end the game before one
    comes: the step is skipped (it would have waited for ever), and the lesson can end."""
    from game.engine.table import Table

    sc = load_scenario(scenarios_dir() / "lesson-7-duel.toml")
    play = PlayScene(new_game(sc, 3, app.save_dir / "l7.json"), sc.title)
    app.push(play)
    app.pump([])
    card = play.lesson
    assert card is not None
    card.at = next(i for i, s in enumerate(sc.lesson.steps) if s.kind == "phase")
    monkeypatch.setattr(Table, "over", property(lambda self: True))
    card.watch()
    assert card.step is None or card.step.kind != "phase"
    assert "game ended" in card.said
