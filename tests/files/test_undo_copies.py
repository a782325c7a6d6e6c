"""Undo from the copies the autosave keeps (issue 44): taking back one of the last actions
restores the game kept before it instead of replaying the whole save (0.5-1 s on the four-board
map under load), and what it gives is exactly what the replay gave: the dice, the log, the
save's actions and file, every later event and hash. Which actions may be taken back is RD-19's,
unchanged."""

import random
from collections import deque

from game.engine.actions import Action
from game.engine.randomplay import pick
from game.files import session as session_module
from game.files.replay import replay
from game.files.scenario import load_scenario
from game.files.session import UNDO_COPIES, Autosave, new_game, resume
from game.files.shipped import scenarios_dir


def _count_replays(monkeypatch) -> list[int]:
    calls: list[int] = []
    real = session_module.replay

    def counted(saved, to=None, **kw):
        calls.append(len(saved.actions) if to is None else to)
        return real(saved, to=to, **kw)

    monkeypatch.setattr(session_module, "replay", counted)
    return calls


def _placements(s: Autosave, n: int) -> list[Action]:
    """``n`` set-up placements (undoable, no die: RD-19), each the first one legal."""
    done = []
    for _ in range(n):
        action = next(a for a in s.game.legal_actions() if a.type == "place")
        s.apply(action)
        done.append(action)
    return done


def test_rd19_the_last_actions_are_taken_back_without_replaying_the_save(tmp_path, monkeypatch):
    """Each undo replayed the whole game from its scenario: now the last UNDO_COPIES actions
    come back from the copies kept, and only an undo beyond them replays."""
    scenario = load_scenario(scenarios_dir() / "bagration-4-boards.toml")
    s = new_game(scenario, 5, tmp_path / "g.json")
    n = UNDO_COPIES + 2
    _placements(s, n)
    hashes = [a["hash"] for a in s.saved.actions]
    calls = _count_replays(monkeypatch)
    for i in range(UNDO_COPIES):
        assert s.undo() is None
        assert s.game.state_hash() == hashes[n - 2 - i]
    assert calls == []  # not one replay for the last UNDO_COPIES
    assert s.undo() is None  # beyond the copies: the save replayed
    assert calls == [1] and s.game.state_hash() == hashes[0]
    assert s.undo() is None and len(s.saved.actions) == 0
    assert s.undo() == "nothing to undo"


def test_rd19_no_copy_is_kept_before_an_action_never_taken_back(tmp_path):
    """A copy is kept only before an action whose type may be taken back (RD-19: a shot never
    is), each labelled with the actions before it."""
    s = new_game(load_scenario(scenarios_dir() / "road-ambush.toml"), 5, tmp_path / "g.json")
    rng = random.Random(5)
    seen = {True: 0, False: 0}
    while not s.game.over and len(s.saved.actions) < 200:
        action = pick(s.game.legal_actions(), rng)
        newest = s.before[-1] if s.before else None
        s.apply(action)
        may = type(action).undo.never is None
        seen[may] += 1
        if may:
            assert s.before[-1][0] == len(s.saved.actions) - 1
        else:
            assert (s.before[-1] if s.before else None) is newest
    assert seen[True] > 20 and seen[False] > 5


def _same(a: Autosave, b: Autosave) -> None:
    """Everything a later action or a reader could tell apart."""
    ga, gb = a.game, b.game
    assert ga.state_hash() == gb.state_hash()
    assert (ga.dice.draws, ga.dice.trail) == (gb.dice.draws, gb.dice.trail)
    assert ga.dice.copy().roll() == gb.dice.copy().roll()  # the same faces next
    assert ga.history == gb.history  # the log
    assert ga.actions_applied == gb.actions_applied
    assert a.saved.actions == b.saved.actions
    assert a.path is not None and b.path is not None
    assert a.path.read_bytes() == b.path.read_bytes()
    assert ga.legal_actions() == gb.legal_actions()


def _lockstep(tmp_path, scenario_name: str, seed: int, steps: int) -> tuple[int, int, int]:
    """One game played twice, the same actions and undos: ``a`` undoes from its copies (and
    replays when it has none: resumed now and then), ``b`` always by replaying the save; after
    every step they agree in everything, and the actions after an undo make the same events in
    both. Returns how many undos came from a
    copy, how many replayed, and how many were refused (RD-19)."""
    scenario = load_scenario(scenarios_dir() / scenario_name)
    a = new_game(scenario, seed, tmp_path / "a.json")
    b = new_game(scenario, seed, tmp_path / "b.json")
    b.before = deque(maxlen=0)  # no copies: every undo replays
    rng, resumes = random.Random(seed), random.Random(-seed)
    copied = replayed = refused = 0
    run = 0  # undos in a row still to take: runs go beyond the copies kept
    for _ in range(steps):
        if resumes.random() < 0.04:  # the window closed and the game resumed: no copies kept
            a.close()
            a = resume(a.path)
        if run == 0 and rng.random() < 0.12:
            run = rng.choice((1, 1, 2, 3, UNDO_COPIES + 3))
        if run > 0 and a.saved.actions:
            run -= 1
            kept = bool(a.before) and a.before[-1][0] == len(a.saved.actions) - 1
            why = a.undo()
            assert why == b.undo()
            if why is None:
                copied += kept
                replayed += not kept
                assert a.game.state_hash() == replay(a.saved).state_hash()  # every check
            else:
                refused += 1
                run = 0
        elif a.game.over:
            break
        else:
            run = 0
            action = pick(a.game.legal_actions(), rng, fire_p=0.3)
            assert a.apply(action) == b.apply(action)  # every event after an undo too
        _same(a, b)
    a.close()
    b.close()
    return copied, replayed, refused


def test_rd19_undo_from_a_copy_is_the_replayed_game_exactly(tmp_path):
    """Undos at many points of a played game (one, a few, and more than the copies kept in a
    row; then play on): the game, its dice, its log, the save's actions and file, and every
    later event are those of the undo that replays the save."""
    for name, seed in (("tutorial-duel.toml", 5), ("road-ambush.toml", 5)):
        (tmp_path / name).mkdir()
        copied, replayed, refused = _lockstep(tmp_path / name, name, seed, 300)
        assert copied >= 15 and replayed >= 3 and refused >= 5  # at many points, both ways
