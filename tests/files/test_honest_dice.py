"""Honest dice (issue 40): the seed's commitment, the hash chain from the scenario's SHA-256,
and ``hexfire replay --verify`` checking both; the luck report's exact figures."""

from __future__ import annotations

import hashlib
import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.files.honest import (
    chain_head,
    chain_link,
    check_commitment,
    check_published,
    check_save,
    commitment,
)
from game.files.luck import at_least, luck_of_save
from game.files.savegame import read_save, save
from game.files.shipped import shipped_saves

ROOT = Path(__file__).resolve().parents[2]
SALT = "0123456789abcdef" * 2


def test_the_commitment_is_sha256_of_the_scheme_the_seed_and_the_salt():
    expected = hashlib.sha256(f"hexfire-seed-v1:42:{SALT}".encode()).hexdigest()
    assert commitment(42, SALT) == expected
    record = {"scheme": "hexfire-seed-v1", "sha256": expected, "salt": SALT}
    assert check_commitment(42, record) is None
    assert "differs" in check_commitment(43, record)
    assert "differs" in check_commitment(42, {**record, "salt": "f" * 32})
    assert "salt" in check_commitment(42, {**record, "salt": "short"})
    assert "scheme" in check_commitment(42, {**record, "scheme": "v0"})


def test_the_chain_starts_from_the_scenarios_sha256_and_binds_every_action_in_order():
    saved = read_save(shipped_saves()[0])
    root = saved.scenario_sha256
    head = chain_head(root, saved.actions)
    step = root
    for entry in saved.actions:
        step = chain_link(step, entry)
    assert step == head
    assert chain_head("0" * 64, saved.actions) != head  # another scenario
    swapped = [saved.actions[1], saved.actions[0], *saved.actions[2:]]
    assert chain_head(root, swapped) != head
    assert chain_head(root, saved.actions[:-1]) != head


def _server_save(tmp_path: Path) -> Path:
    """A shipped save as a server reveals it at the end: commitment and chain."""
    saved = read_save(shipped_saves()[0])
    saved.commitment = {
        "scheme": "hexfire-seed-v1",
        "sha256": commitment(saved.seed, SALT),
        "salt": SALT,
    }
    saved.chain = chain_head(saved.scenario_sha256, saved.actions)
    path = tmp_path / "online.json"
    save(saved, path)
    return path


def _verify(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "game", "replay", "--verify", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def test_replay_verify_checks_the_commitment_and_the_chain(tmp_path):
    path = _server_save(tmp_path)
    ok = _verify(path)
    assert ok.returncode == 0, ok.stderr
    assert "seed commitment, hash chain of" in ok.stdout
    doc = json.loads(path.read_text())
    for edit, words in (
        (lambda d: d["commitment"].update(salt="f" * 32), "commitment"),
        (lambda d: d.update(chain="0" * 64), "chain"),
    ):
        bad = json.loads(json.dumps(doc))
        edit(bad)
        path.write_text(json.dumps(bad))
        out = _verify(path)
        assert out.returncode == 1 and words in out.stderr and "Traceback" not in out.stderr


def test_check_save_names_what_it_checked_and_a_save_without_them_checks_nothing():
    saved = read_save(shipped_saves()[0])
    assert check_save(saved.seed, saved.scenario_sha256, saved.actions, None, None) == ([], None)


def test_a_revealed_save_must_be_the_game_published_at_creation():
    c, s = commitment(1, SALT), "a" * 64
    assert check_published(c, s, {"sha256": c}, s) is None
    assert "commitment" in check_published(c, s, {"sha256": "b" * 64}, s)
    assert "scenario" in check_published(c, s, {"sha256": c}, "b" * 64)
    assert "no seed" in check_published(c, s, None, s)


@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_at_least_is_the_exact_poisson_binomial_tail(n):
    ps = [0.1, 0.35, 0.5, 0.72, 0.9][:n]
    for k in range(n + 2):
        brute = sum(
            _prob(ps, outcome)
            for outcome in itertools.product((0, 1), repeat=n)
            if sum(outcome) >= k
        )
        assert at_least(ps, k) == pytest.approx(brute, abs=1e-12)


def _prob(ps, outcome):
    p = 1.0
    for q, o in zip(ps, outcome, strict=True):
        p *= q if o else 1 - q
    return p


def test_the_luck_report_counts_every_shot_of_a_save_by_its_side():
    for path in shipped_saves():
        saved = read_save(path)
        fires = sum(1 for a in saved.actions if a["action"]["type"] == "fire")
        luck = luck_of_save(saved, str(path))
        assert sum(s.shots for s in luck) == fires
        for s in luck:
            assert 0 <= s.kills <= s.hits <= s.shots
            assert 0 <= s.kills_expected <= s.hits_expected <= s.shots
            assert 0 < s.p_kills_at_least <= 1 and 0 < s.p_hits_at_least <= 1


def test_replay_luck_prints_each_sides_line_and_json(tmp_path):
    path = shipped_saves()[0]
    out = subprocess.run(
        [sys.executable, "-m", "game", "replay", "--luck", str(path), "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert {s["side"] for s in doc["luck"]} == set(read_save(path).scenario().setup.sides)
    text = subprocess.run(
        [sys.executable, "-m", "game", "replay", "--luck", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    ).stdout
    assert "expected" in text and "P of at least" in text
