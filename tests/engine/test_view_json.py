"""A view's JSON form is made from its events' JSON kept by side (game/engine/view.py): views of
many games made in turn (a server's hundreds) each read the same as a view made afresh, and a
shorter history (an undo's) does not take the longer one's events."""

from __future__ import annotations

import random
from collections.abc import Iterator

from game.engine import Game
from game.engine import view as view_module
from game.engine.view import Seer, View
from game.files.scenario import load_scenario
from game.files.shipped import scenarios_dir


def fresh(view: View) -> str:
    """The view's JSON with nothing kept (a copy of its own: no identity shared)."""
    joined, made = dict(view_module._JOINED), list(view_module._MADE)
    view_module._JOINED.clear()
    view_module._MADE.clear()
    try:
        events = tuple(e.model_copy() for e in view.events)
        return view.model_copy(update={"events": events}).to_json()
    finally:
        view_module._JOINED.clear()
        view_module._JOINED.update(joined)
        view_module._MADE[:] = made


def test_views_of_many_games_made_in_turn_read_as_views_made_afresh(monkeypatch):
    monkeypatch.setattr(view_module, "JOINED_KEPT", 3)  # fewer kept than the sides: evicted
    setup = load_scenario(scenarios_dir() / "tutorial-duel.toml").setup
    games = [(Game(setup, seed), Seer(), random.Random(seed)) for seed in range(4)]
    checked = 0
    for change in range(60):
        for game, seer, rng in games:
            if game.over:
                continue
            for side in setup.sides:
                view = game.side_view(side, change, seer)
                assert view.to_json() == fresh(view)
                # a shorter history of the same events: its own JSON, the longer one kept
                if len(view.events) > 2:
                    short = view.model_copy(update={"events": view.events[:-2]})
                    assert short.to_json() == fresh(short)
                    assert view.model_copy(update={"version": 9}).to_json() == fresh(
                        view.model_copy(update={"version": 9})
                    )
                checked += 1
            game.apply(rng.choice(game.legal_actions()))
    assert checked > 200
    assert len(view_module._JOINED) <= 3


def test_a_views_unchanged_units_are_the_last_views_values_and_read_as_made_afresh():
    """A seer makes a unit's view value again only when its record or the side's aliases
    changed (issue 43: making every unit's value anew was a large part of a server's view);
    through whole random games each side's view equals one made by no seer, "?" included."""
    reused = changed = 0
    for _side, view, alone, last in _seers_views(3, 80):
        assert view.units == alone.units
        assert view.model_copy(update={"version": 0}) == alone
        before = {u.id: u for u in last.units} if last is not None else {}
        for u in view.units:
            if u.id in before:
                same = before[u.id] is u
                reused += same
                changed += not same and before[u.id] != u
    assert reused > 500 and changed > 20


def _seers_views(games: int, changes: int) -> Iterator[tuple[str, View, View, View | None]]:
    """Through seeded random road-ambush games, each side's view made by the game's one seer,
    the same made by none, and the side's last view by that seer (None at a game's start)."""
    seer, last = Seer(), {}
    for game, change in _random_road_ambush_games(games, changes, end=0):
        if change == 0:
            seer, last = Seer(), {}
        for side in game.state.setup.sides:
            view = game.side_view(side, change, seer)
            yield side, view, game.side_view(side, change, None), last.get(side)
            last[side] = view


def test_hx15_nothing_to_do_is_read_from_the_sides_view_once_made(monkeypatch):
    """HX-15 asked of a table whose view is made reads the view's legal actions (issue 43: a
    server made the view and then tried the candidates again), and answers as the game does,
    through whole random games; in a set-up phase (no placement listed) it asks the game."""
    from game.engine.table import Table

    asked = []
    real = Game.nothing_to_do
    monkeypatch.setattr(Game, "nothing_to_do", lambda g: asked.append(1) or real(g))
    answers = set()
    for game, change in _random_road_ambush_games(4):
        expected = real(game)
        table = Table(game, game.to_act, change)
        table.view  # noqa: B018 (made, as a server makes it to send it)
        asked.clear()
        assert table.nothing_to_do() == expected
        assert asked == ([1] if game.state.phase in ("setup", "setup_attacker") else [])
        answers.add((game.state.phase in ("setup", "setup_attacker"), expected))
    assert (False, True) in answers and (False, False) in answers


def _random_road_ambush_games(
    games: int, changes: int = 150, end: float = 0.3
) -> Iterator[tuple[Game, int]]:
    """Seeded random games of road-ambush, each state in turn with its change count (the
    phase ended a share ``end`` of the times it may be, else any legal action at random); the
    next action is applied on resuming."""
    setup = load_scenario(scenarios_dir() / "road-ambush.toml").setup
    for seed in range(games):
        game, rng = Game(setup, seed), random.Random(seed)
        for change in range(changes):
            if game.over:
                break
            yield game, change
            legal = game.legal_actions()
            ends = [a for a in legal if a.type == "end_phase"]
            game.apply(ends[0] if ends and end and rng.random() < end else rng.choice(legal))


def test_hx15_nothing_to_do_is_read_from_the_legal_actions_made_without_the_view(monkeypatch):
    """A server asks HX-15 of the seat's legal actions made apart (Table.shown_legal: issue 43,
    the view is made only when it is sent); the view made after holds those very actions, and
    is the view made afresh; a table of the next change never holds the last one's."""
    from game.engine.table import Table

    asked = []
    real = Game.nothing_to_do
    monkeypatch.setattr(Game, "nothing_to_do", lambda g: asked.append(1) or real(g))
    answers = set()
    for game, change in _random_road_ambush_games(3):
        side = game.to_act
        other = next(s for s in game.state.setup.sides if s != side)
        expected = real(game)
        table = Table(game, side, change, Seer())
        legal = table.shown_legal()
        asked.clear()
        assert table.nothing_to_do() == expected
        setting_up = game.state.phase in ("setup", "setup_attacker")
        assert asked == ([1] if setting_up else [])
        answers.add((setting_up, expected))
        view = table.view
        assert view.legal is legal[0] and view.placeable is legal[1]
        assert view.model_copy(update={"version": 0}) == game.side_view(side, change, None)
        assert Table(game, other, change).shown_legal() == ((), ())  # not to act: none
    assert (False, True) in answers and (False, False) in answers


def test_a_view_made_without_pydantics_checks_is_the_one_model_construct_makes():
    """The view's values are made without pydantic's look at each field (issue 43): the same
    fields in the same order (the JSON's), the same set fields, a mutable default not shared."""
    from game.engine.view import EventView, UnitView, constructor

    setup = load_scenario(scenarios_dir() / "road-ambush.toml").setup
    game, rng = Game(setup, 2), random.Random(2)
    for _ in range(40):
        game.apply(rng.choice(game.legal_actions()))
    view = game.side_view("german", 3, Seer())
    values = dict(view.__dict__)
    cases = [(View, values), (View, {**values, "dff": None})]
    cases += [(UnitView, dict(u.__dict__)) for u in view.units]
    cases += [(UnitView, {"id": "?E3", "side": "russian", "hex": "E3", "concealed": True})]
    shot = {"kind": "fire", "text": "t", "rules": ("C6.1",), "dice": (3, 4), "data": {"a": 1}}
    cases += [(EventView, {"kind": "k", "text": "t"}), (EventView, shot)]
    for model, given in cases:
        ours, theirs = constructor(model)(dict(given)), model.model_construct(**given)
        assert list(ours.__dict__) == list(theirs.__dict__) and ours == theirs
        assert ours.model_dump_json() == theirs.model_dump_json()
        assert ours.model_fields_set == theirs.model_fields_set
    one, two = (constructor(EventView)({"kind": "k", "text": "t"}) for _ in range(2))
    assert one.data == {} and one.data is not two.data


def test_a_seers_unchanged_view_is_its_sides_last_one_never_an_older_or_the_other_sides():
    """A side's view that shows what its last one showed is that one (issue 43: kept, its JSON
    and digest made once), with its version; through random games each side's view is its own
    and equals the one made afresh at that change, never an older state's."""
    kept = 0
    for side, view, alone, last in _seers_views(3, 120):
        assert view.side == side
        assert view.model_copy(update={"version": 0}) == alone
        if last is not None:
            same = last.model_copy(update={"version": 0}) == alone
            assert (view is last) == same
            assert view.version == last.version + (not same)
            kept += same
    assert kept > 20
