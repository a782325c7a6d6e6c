"""One registry of action types: every action the engine accepts saves, loads and replays."""

from __future__ import annotations

import random
from dataclasses import asdict, fields

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine import Game
from game.engine.actions import ACTION_TYPES, Action, action_from_json
from game.engine.game import HANDLERS, check_registry
from game.engine.phases import DFF_ACTIONS, PHASES
from game.engine.randomplay import policy
from game.files.replay import replay
from game.files.scenario import load_scenario
from game.files.session import new_game, resume
from game.files.shipped import shipped_scenarios

SAMPLE = {"str": "A1", "int": 3, "bool": True, "str | None": "AP", "float | None": 1.5}


def test_registry_handlers_and_phase_table_name_the_same_action_types():
    in_phases = set().union(*(p.actions for p in PHASES.values())) | DFF_ACTIONS
    assert set(ACTION_TYPES) == set(HANDLERS) == in_phases
    assert "conceal" in ACTION_TYPES  # the set-up concealment choice (RD-11) saves and loads
    check_registry()


def test_registry_check_refuses_a_handler_the_parser_does_not_know(monkeypatch):
    monkeypatch.setitem(HANDLERS, "smoke", HANDLERS["pass"])
    with pytest.raises(RuntimeError, match="registry out of step"):
        check_registry()


@pytest.mark.parametrize("kind", sorted(ACTION_TYPES))
def test_every_action_type_round_trips_through_json(kind):
    cls = ACTION_TYPES[kind]
    action: Action = cls(**{f.name: SAMPLE[str(f.type)] for f in fields(cls)})
    d = action.to_json()
    assert d["type"] == kind
    assert action_from_json(d) == action


@pytest.mark.parametrize("kind", sorted(ACTION_TYPES))
def test_every_action_types_json_form_is_its_fields_in_order_without_the_nones(kind):
    """The JSON form made without ``asdict`` (issue 43) is the one the saves hold: the type,
    then each field not None, in field order; each field a scalar (SAMPLE names them all)."""
    cls = ACTION_TYPES[kind]
    full = cls(**{f.name: SAMPLE[str(f.type)] for f in fields(cls)})
    bare = cls(
        **{f.name: None if "None" in str(f.type) else SAMPLE[str(f.type)] for f in fields(cls)}
    )
    for action in (full, bare):
        want = {"type": kind, **{k: v for k, v in asdict(action).items() if v is not None}}
        assert list(action.to_json().items()) == list(want.items())


def _play(path, seed: int, n: int, save_path) -> Game:
    ag = new_game(load_scenario(path), seed, save_path)
    rng = random.Random(seed)
    for _ in range(n):
        if ag.game.over:
            break
        ag.apply(policy(ag.game, rng))
    return ag.game


@pytest.mark.parametrize("path", shipped_scenarios(), ids=lambda p: p.stem)
@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 120))
def test_random_legal_games_save_resume_and_replay_to_the_same_hash(path, seed, n, tmp_path):
    """Set-up choices included (the random policy bore-sights and conceals where it may)."""
    save_path = tmp_path / f"{path.stem}-{seed}.json"
    game = _play(path, seed, n, save_path)
    again = resume(save_path)
    assert again.game.state_hash() == game.state_hash()
    assert replay(again.saved).state_hash() == game.state_hash()


def test_a_game_with_set_up_concealment_and_bore_sighting_resumes(tmp_path):
    path = next(p for p in shipped_scenarios() if p.stem == "road-ambush")
    save_path = tmp_path / "ambush.json"
    ag = new_game(load_scenario(path), 3, save_path)
    kinds = set()
    for a in ag.game.legal_actions():
        if a.type in ("conceal", "bore_sight") and a.type not in kinds:
            ag.apply(a)
            kinds.add(a.type)
    assert kinds == {"conceal", "bore_sight"}
    assert resume(save_path).game.state_hash() == ag.game.state_hash()


@pytest.mark.parametrize(
    "form, expected",
    [
        (
            {"type": "turn", "unit": "t", "facing": True},
            "turn.facing: expected an integer, got True",
        ),
        ({"type": "turn", "unit": "t", "facing": "3"}, "turn.facing: expected an integer"),
        (
            {"type": "fire", "unit": "a", "target": "b", "mp": float("nan")},
            "fire.mp: expected a finite number",
        ),
        ({"type": "move", "unit": "t"}, "move.to: missing"),
        ({"type": "move", "unit": "t", "to": "A1", "x": 1}, "move.x: unknown key"),
        ({"type": "x" * 10_000}, "unknown action type 'xxxx"),
    ],
)
def test_an_action_is_read_by_its_strict_schema(form, expected):
    """The action registry's schemas (pydantic, derived from each dataclass): one line."""
    from game.engine.actions import ActionError, action_from_json

    with pytest.raises(ActionError) as e:
        action_from_json(form)
    assert expected in str(e.value) and len(str(e.value)) < 300


def test_parsed_actions_are_kept_but_strictness_is_not_lost():
    """A save repeats the same few actions, so parsed ones are kept (a 200,000-action save
    parsed each twice); ``true`` is still no facing although True == 1 in Python."""
    import pytest

    from game.engine.actions import ActionError, Turn, action_from_json

    one = action_from_json({"type": "turn", "unit": "x", "facing": 1})
    assert (
        one == Turn("x", 1) and action_from_json({"type": "turn", "unit": "x", "facing": 1}) is one
    )
    with pytest.raises(ActionError):
        action_from_json({"type": "turn", "unit": "x", "facing": True})
    with pytest.raises(ActionError):
        action_from_json({"type": "turn", "unit": "x", "facing": 1.0})


def test_rd19_every_action_type_declares_its_undo_where_it_is_registered():
    from game.engine.actions import ACTION_TYPES, Undo
    from game.engine.undo import why_not_undo

    for kind, cls in ACTION_TYPES.items():
        assert isinstance(cls.__dict__.get("undo"), Undo), kind
    fire = ACTION_TYPES["fire"]("ger-pz4-1", "rus-t34-1", "AP")
    assert "die" in (why_not_undo(fire, False, "german", "german", []) or "")
    move = ACTION_TYPES["move"]("ger-pz4-1", "B2")
    assert why_not_undo(move, False, "german", "german", []) is None
    assert why_not_undo(move, True, "german", "german", []) is not None
    assert "russian acts now" in (why_not_undo(move, False, "german", "russian", []) or "")
