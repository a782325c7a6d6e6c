"""``hexfire serve``, ``host`` and ``join`` (issue 40): the links printed, and bad input in one
line (exit 2), never a traceback."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def hexfire(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "game", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "disk"},
    )


def test_serve_then_host_prints_one_link_per_seat_and_none_for_the_computer(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "game", "serve", "--port", "0", "--data", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
    )
    try:
        line = proc.stdout.readline()
        url = re.search(r"ws://127\.0\.0\.1:\d+", line)
        assert url, line
        two = hexfire("host", "tutorial-duel", "--server", url[0], "--side", "russian")
        assert two.returncode == 0, two.stderr
        links = re.findall(
            r"^(\w+)( \(you\)| \(send it to your opponent\))?: (ws://\S+)$", two.stdout, re.M
        )
        assert {(s, who.strip()) for s, who, _ in links} == {
            ("russian", "(you)"),
            ("german", "(send it to your opponent)"),
        }
        assert all(re.search(r"/game/[0-9a-f]{16}#[A-Za-z0-9_-]{43}$", link) for *_, link in links)
        one = hexfire("host", "road-ambush", "--server", url[0], "--ai", "russian", "--level", "1")
        assert one.returncode == 0, one.stderr
        assert "russian: the computer (level 1)" in one.stdout
        assert len(re.findall(r"ws://\S+#", one.stdout)) == 1
        assert re.search(r"seed commitment \(SHA-256\): [0-9a-f]{64}", one.stdout)
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=20)
    assert proc.returncode == 0 and "stopped" in out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("host", "tutorial-duel", "--server", "http://x"), "ws://"),
        (("host", "tutorial-duel", "--server", "ws://127.0.0.1:1"), "cannot connect"),
        (("host", "tutorial-duel", "--server", "ws://127.0.0.1:1", "--ai", "martian"), "--ai"),
        (("host", "tutorial-duel", "--server", "ws://127.0.0.1:1", "--level", "1"), "--ai"),
        (("join", "not a link"), "link"),
        (("join", "ws://127.0.0.1:1/game/0123456789abcdef#" + "a" * 43), "cannot connect"),
        (
            ("join", "ws://127.0.0.1:1/game/0123456789abcdef#" + "a" * 43, "--away", "kill:0"),
            "--away",
        ),
        (
            ("join", "ws://127.0.0.1:1/game/0123456789abcdef#" + "a" * 43, "--away", "always"),
            "--away",
        ),
        (("serve", "--port", "70000"), "--port"),
        (("serve", "--keyfile", "k.pem"), "--certfile"),
        (("serve", "--certfile", "/nonexistent.pem"), "--certfile"),
    ],
)
def test_online_commands_refuse_bad_input_in_one_line(args, words):
    out = hexfire(*args)
    assert out.returncode == 2, (out.stdout, out.stderr)
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in out.stderr


def test_away_orders_read_as_the_server_keeps_them():
    from game.cli.online import away_order
    from game.net.wire import DffOrder

    assert away_order(None) is None
    assert away_order("ask") == DffOrder()
    assert away_order("pass") == DffOrder(policy="pass")
    assert away_order("kill:35") == DffOrder(policy="kill", percent=35)
    assert away_order("j1") == DffOrder(policy="case_j1")
