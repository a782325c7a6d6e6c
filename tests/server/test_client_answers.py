"""A client's request and its answer (game.net.client.Client.request, issue 43): the request
goes on as soon as its answer is read, not a turn of the event loop later (in a process
holding many clients, as the bench's 500, each turn is every other client's work too)."""

from __future__ import annotations

import asyncio
import json

import pytest

from game.net.client import Client, Disconnected, invitation


class Socket:
    """A client's websocket that keeps what is sent."""

    def __init__(self) -> None:
        self.sent: list[dict] = []

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


def connected(timeout: float = 30.0) -> Client:
    client = Client(invitation("ws://127.0.0.1:1", "g", "t"), timeout=timeout)
    client._ws = Socket()  # type: ignore[assignment]
    client.status = "connected"
    return client


def test_a_request_goes_on_in_the_turn_after_its_answer_is_read():
    """Issue 43: ``asyncio.wait_for`` woke its own waiter first, then the request: two turns
    of the loop between the answer read and the request going on."""

    async def main():
        client = connected()
        task = asyncio.ensure_future(client.ask("digest"))
        await asyncio.sleep(0)  # sent: it waits for the answer
        seq = client._ws.sent[-1]["seq"]  # type: ignore[union-attr]
        client._dispatch(json.dumps({"t": "answer", "seq": seq, "value": "abc"}))
        await asyncio.sleep(0)  # one turn of the loop
        assert task.done() and task.result() == "abc"

    asyncio.run(main())


def test_a_request_not_answered_in_time_says_so_and_is_forgotten():
    async def main():
        client = connected(timeout=0.05)
        with pytest.raises(Disconnected, match="no answer in time"):
            await client.ask("digest")
        assert client._waiting == {}

    asyncio.run(main())
