"""Random legal play never breaks the engine: only IllegalAction for illegal actions, and every
invariant holds (MP never past the unit's allowance, removed units never act, phase order)."""

import random

import pytest
from engine_helpers import check_invariants
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine import IllegalAction
from game.engine.actions import EndMove, Fire, Move, Turn
from game.engine.randomplay import policy, random_game
from game.engine.vocabulary import REMOVED

ORDER = [
    "setup",
    "setup_attacker",
    "rally",
    "prep_fire",
    "movement",
    "defensive_fire",
    "advancing_fire",
]


def _actor(action) -> str | None:
    return getattr(action, "unit", None)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.lists(st.integers(0, 10**6), min_size=30, max_size=160))
def test_random_legal_sequences_keep_every_invariant(seed, picks):
    game = random_game(12, 7, seed, per_side=4, turns=3)
    rng = random.Random(seed)
    last = ORDER.index(game.phase)
    for pick in picks:
        if game.over:
            assert game.legal_actions() == []
            break
        acts = game.legal_actions()
        assert acts, "a game that is not over always has a legal action"
        action = acts[pick % len(acts)] if pick % 3 else policy(game, rng)
        uid = _actor(action)
        if uid:
            assert game.units[uid].status not in REMOVED
        before_turn = game.turn
        game.apply(action)
        check_invariants(game)
        now = ORDER.index(game.phase)
        assert now == last or now == last + 1 or (now == 2 and last == 6)
        assert game.turn in (before_turn, before_turn + 1)
        last = now


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 10_000),
    st.lists(
        st.tuples(st.integers(0, 4), st.integers(0, 50), st.integers(0, 50)),
        min_size=20,
        max_size=80,
    ),
)
def test_random_illegal_actions_raise_illegal_action_and_change_nothing(seed, tries):
    game = random_game(12, 7, seed, per_side=4, turns=3)
    rng = random.Random(seed)
    ids = sorted(game.units)
    for kind, a, b in tries:
        if game.over:
            break
        uid = ids[a % len(ids)]
        other = ids[b % len(ids)]
        hexes = [f"{chr(65 + (b % 14))}{1 + a % 9}", "ZZ99", "A0"]
        action = [
            Move(uid, hexes[b % 3]),
            Turn(uid, b % 8),
            EndMove(uid, bool(a % 2)),
            Fire(uid, other, ["AP", "HE", "XX", None][a % 4]),
            Fire(uid, other, None, float(b % 7)),
        ][kind]
        before = game.state_hash()
        try:
            game.apply(action)
        except IllegalAction as e:
            assert e.reason and game.state_hash() == before
        else:
            check_invariants(game)
        if rng.random() < 0.3 and not game.over:
            game.apply(policy(game, rng))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000))
def test_a_copied_game_plays_on_apart_and_the_same(seed):
    """``Game.copy`` (a search's copy): a copy has the state hash of its game; the same
    actions applied to both keep them equal; actions applied to the copy alone (wrecks and
    all, whose LOS arrays the two share until then) leave the game's hash and LOS as they
    were."""
    game = random_game(12, 7, seed, per_side=4, turns=3)
    rng = random.Random(seed)
    checked = 0
    while not game.over and checked < 6:
        for _ in range(rng.randint(5, 40)):
            if game.over:
                break
            game.apply(policy(game, rng))
        twin = game.copy()
        assert twin.state_hash() == game.state_hash()
        before = game.state_hash()
        los = game.state.visibility.seen_from(0)[0].copy()
        side = random.Random(seed + checked)
        for _ in range(60):  # the copy alone
            if twin.over:
                break
            twin.apply(policy(twin, side, fire_p=1.0))
        assert game.state_hash() == before
        assert (game.state.visibility.seen_from(0)[0] == los).all()
        again = game.copy()
        for _ in range(20):  # both alike
            if game.over:
                break
            action = policy(game, rng)
            game.apply(action)
            again.apply(action)
            assert again.state_hash() == game.state_hash()
        checked += 1
    assert checked >= 1


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000))
def test_the_pruned_legal_actions_are_every_candidate_the_handlers_accept(seed):
    """``legal_actions`` tries only the candidates its handlers' first checks do not refuse
    (asked once a unit); at every step of a random game it is exactly the unpruned reference:
    every candidate that :meth:`Game.check` accepts, in the same order."""
    from game.engine.legal import candidates

    steps = 0
    for k in range(20):  # games until 150 steps were compared (a game may end in a few)
        game = random_game(12, 7, seed + k, per_side=5, turns=3)
        rng = random.Random(seed + k)
        while not game.over and steps < 150:
            reference = [a for a in candidates(game.state, prune=False) if game.check(a) is None]
            assert game.legal_actions() == list(dict.fromkeys(reference))
            game.apply(policy(game, rng))
            steps += 1
        if steps >= 150:
            break
    assert steps >= 150


@pytest.mark.parametrize("name", ["bagration-4-boards", "road-ambush", "hedgerow-chart"])
def test_the_legal_lists_of_a_shipped_scenario_are_the_unpruned_reference(name):
    """On a shipped scenario (set-up areas, Bore Sighting, AT SWs with a range, 002): the
    pruned list, with a set-up's placements and Bore Sightings and a unit's moves asked once
    a unit (legal.Checked), is exactly every candidate :meth:`Game.check` accepts, in order,
    at every step of a random game, its set-up included."""
    from game.engine import Game
    from game.engine.legal import candidates
    from game.files.scenario import load_scenario
    from game.files.shipped import scenarios_dir

    setup = load_scenario(str(scenarios_dir() / f"{name}.toml")).setup
    game = Game(setup, 7)
    rng = random.Random(7)
    kinds = set()
    for _ in range(260):
        if game.over:
            break
        reference = [a for a in candidates(game.state, prune=False) if game.check(a) is None]
        listed = game.legal_actions()
        assert listed == list(dict.fromkeys(reference))
        kinds.update(a.type for a in listed)
        game.apply(policy(game, rng))
    assert {"place", "move", "fire"} <= kinds


def test_hx15_nothing_to_do_stops_at_the_first_legal_candidate(monkeypatch):
    """HX-15's question (may the side to act do anything but end its phase?) ends at the first
    legal candidate: after each set-up click on the 200 x 200 map it had listed every
    placement of every unit (2.4-5.1 s, then about 0.3 s a click). Its answer is the one the
    whole list gives, at every step of random games."""
    import game.engine.legal as legal
    from game.engine import Game
    from game.engine.actions import ButtonUp, CrewExposed, EndPhase, Pass
    from game.files.scenario import load_scenario
    from game.files.shipped import scenarios_dir

    game = Game(load_scenario(scenarios_dir() / "steppe-200.toml").setup, 3)
    assert game.phase == "setup" and len(game.placeable()) > 1
    listed: list[str] = []
    real = legal.setup_hexes

    def counted(state, unit):
        listed.append(unit.id)
        return real(state, unit)

    monkeypatch.setattr(legal, "setup_hexes", counted)
    assert not game.nothing_to_do()
    assert len(listed) <= 1  # the first unit's area at most, not every unit's
    monkeypatch.undo()

    idle = (EndPhase, ButtonUp, CrewExposed, Pass)
    for seed in range(3):
        game = random_game(12, 7, seed, per_side=5, turns=3)
        rng = random.Random(seed)
        for _ in range(80):
            if game.over:
                break
            whole = not game.state.dff_pending and not any(
                not isinstance(a, idle) for a in game.legal_actions()
            )
            assert game.nothing_to_do() == whole
            game.apply(policy(game, rng))


@pytest.mark.parametrize("name", ["tutorial-duel", "road-ambush", "hedgerow-chart"])
def test_hx12_setup_choices_are_the_units_with_a_legal_set_up_action(name):
    """Tab in the set-up cycles through ``Game.setup_choices`` (placements are not listed):
    at every set-up step of random games it is the units the legal actions name, in unit
    order (HX-12 placements, C6.42 Bore Sighting, RD-11 concealment)."""
    from game.engine import Game
    from game.files.scenario import load_scenario
    from game.files.shipped import scenarios_dir

    setup = load_scenario(scenarios_dir() / f"{name}.toml").setup
    steps = 0
    for seed in range(8):
        game = Game(setup, seed)
        rng = random.Random(seed)
        while game.phase in ("setup", "setup_attacker") and steps < 80:
            named = {getattr(a, "unit", None) for a in game.legal_actions()}
            assert game.setup_choices() == [u for u in game.units if u in named]
            game.apply(policy(game, rng))
            steps += 1
        assert game.setup_choices() == []
    assert steps >= 12
