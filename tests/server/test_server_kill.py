"""The server killed with SIGKILL mid-game and started again (issue 40): no acknowledged action
is lost, the client reconnects by itself, the game goes on to its end and its save verifies
(every die, every state hash, the seed commitment, the hash chain)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
from pathlib import Path

from net_helpers import BOUND, new_game, pick

from game.net.client import Backoff, Client, Disconnected, Refusal, invitation

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """``hexfire serve`` in a process of its own on a fixed port and data folder."""

    def __init__(self, data: Path, port: int):
        self.data, self.port = data, port
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        env = dict(os.environ)
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "game",
                "serve",
                "--port",
                str(self.port),
                "--data",
                str(self.data),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd=ROOT,
            text=True,
        )
        line = self.proc.stdout.readline()  # "hexfire serve: ws://...": listening
        assert "hexfire serve: ws://127.0.0.1" in line, line

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


KILL_AT = (3, 10, 18, 27)
"""The client's actions in flight when the server is killed (a game has more of them)."""


def test_sigkill_mid_game_and_a_restart_lose_no_acknowledged_action(tmp_path):
    port = free_port()
    server = ServerProcess(tmp_path / "data", port)
    server.start()
    url = f"ws://127.0.0.1:{port}"
    rng = random.Random(20)

    async def main() -> dict:
        created = await new_game(url, "road-ambush", computer="russian", level=1)
        client = Client(
            invitation(url, created.game, created.tokens["german"]),
            backoff=Backoff(first=0.05, most=0.3),
            timeout=20,
        )
        await client.connect()
        acked: list[dict] = []
        kills = 0
        sent = 0
        while client.end is None:
            try:
                await client.until(
                    lambda: (
                        client.end is not None
                        or (
                            client.status == "connected"
                            and client.ready
                            and client.view.acting == "german"
                        )
                    ),
                    BOUND,
                )
            except Disconnected:
                continue
            if client.end is not None:
                break
            view = client.view
            action = pick(rng, list(view.legal))
            sent += 1
            kill_now = sent in KILL_AT
            if kill_now:  # the action in flight when the server dies (stored or not)
                await client._ws.send(
                    json.dumps(
                        {
                            "t": "act",
                            "seq": 10**9 + kills,
                            "version": view.version,
                            "action": action,
                        }
                    )
                )
                await asyncio.sleep(rng.choice([0, 0.001, 0.005]))
                await asyncio.to_thread(server.kill)
                kills += 1
                await asyncio.to_thread(server.start)
                done = client.reconnects
                await client.until(lambda n=done: client.reconnects > n and client.ready, 30)
                record = (await client.record()).record
                mine = [a["action"] for a in record["actions"] if a["by"] == "seat"]
                assert mine[: len(acked)] == acked, "an acknowledged action was lost"
                assert len(mine) - len(acked) <= 1  # at most the one in flight
                acked = list(mine)
                continue
            try:
                await client.act(action, view.version)
            except Refusal as e:
                raise AssertionError(f"{action}: {e.code}: {e.reason}") from None
            acked.append(action)
        assert kills == len(KILL_AT)
        full = (await client.record()).record
        await client.close()
        return full

    try:
        full = asyncio.run(asyncio.wait_for(main(), 240))
    finally:
        server.stop()
    save = tmp_path / "online.json"
    save.write_text(json.dumps(full))
    done = subprocess.run(
        [sys.executable, "-m", "game", "replay", "--verify", str(save)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "seed commitment" in done.stdout and "hash chain" in done.stdout
