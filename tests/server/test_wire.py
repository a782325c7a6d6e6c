"""The wire's messages (issue 40): versioned, with a JSON schema and stated size limits; a
message that is not one is refused in one line."""

from __future__ import annotations

import json

import pytest

from game.net.wire import (
    MAX_CREATE,
    MAX_MESSAGE,
    WIRE,
    WireError,
    read_client,
    wire_schema,
)


def test_the_wire_has_a_json_schema_both_ways_with_its_version_and_limits():
    schema = wire_schema()
    assert schema["version"] == WIRE
    assert schema["limits"] == {
        "message": MAX_MESSAGE,
        "create": MAX_CREATE,
        "frame": MAX_CREATE + 4096,
    }
    client = json.dumps(schema["client"])
    server = json.dumps(schema["server"])
    for kind in ("hello", "create", "act", "undo", "ask", "order", "record"):
        assert f'"{kind}"' in client
    for kind in ("welcome", "view", "ready", "refused", "error", "created", "answer", "end"):
        assert f'"{kind}"' in server


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "malformed"),
        ("{", "malformed"),
        ("[1]", "malformed"),
        ('{"t": 5}', "unknown"),
        ('{"t": "shout"}', "unknown"),
        ('{"t": "act", "seq": 1, "version": 0}', "malformed"),
        ('{"t": "act", "seq": -1, "version": 0, "action": {}}', "malformed"),
        ('{"t": "act", "seq": 1, "version": true, "action": {}}', "malformed"),
        ('{"t": "act", "seq": 1, "version": 0, "action": {}, "x": 1}', "malformed"),
        ('{"t": "hello", "wire": 1, "game": "0123456789abcdef", "token": "short"}', "malformed"),
        ("[" * 100_000, "malformed"),
        ('{"t": "act", "seq": 1' + "1" * 5000 + "}", "malformed"),
        ('{"t": "act", "pad": "' + "x" * MAX_MESSAGE + '"}', "oversized"),
        ('{"t": "create", "pad": "' + "x" * MAX_CREATE + '"}', "oversized"),
    ],
)
def test_a_message_that_is_not_one_is_refused_in_one_line(text, code):
    with pytest.raises(WireError) as e:
        read_client(text)
    assert e.value.code == code
    assert "\n" not in e.value.reason and len(e.value.reason) < 300
