"""A seat's table on a server (game.net.remote, issue 40): its answers, asked of the server
over the loopback, are the ones the seat's own table gives on the server (the same numbers a
local screen shows), and it acts through the server."""

from __future__ import annotations

import pytest
from net_helpers import ServerThread

from game.engine import IllegalAction
from game.engine.actions import EndPhase, Move
from game.net.client import Link, LinkError, invitation
from game.net.remote import RemoteSession, ThreadedClient


@pytest.fixture
def online(tmp_path):
    thread = ServerThread(tmp_path)
    yield thread
    thread.stop()


def _seat(online: ServerThread, name: str, computer: str, side: str):
    created = online.create(name, computer)
    client = ThreadedClient(invitation(online.url, created.game, created.tokens[side]))
    session = RemoteSession(client)
    local = online.server.games[created.game].session
    return session, local


def test_the_remote_tables_answers_are_the_seats_own_tables(online):
    session, local = _seat(online, "road-ambush", "russian", "german")
    try:
        session.settle()
        remote = session.table()
        mine = local.table("german")
        assert remote.view == mine.view
        for _ in range(6):  # the German's set-up ends; the game goes on to its fire phases
            if remote.phase not in ("setup", "setup_attacker"):
                break
            remote.submit(EndPhase())
            session.settle()
            remote = session.table()
            mine = local.table("german")
        assert remote.view == mine.view
        own = [u for u in remote.units() if u.side == "german"]
        enemies = [u.id for u in remote.units() if u.side != "german"]
        assert own and enemies
        asked = 0
        for u in own:
            for e in enemies:
                for ammo in u.ammo or (None,):
                    try:
                        theirs = mine.odds(u.id, e, ammo)
                    except IllegalAction as x:
                        with pytest.raises(IllegalAction) as got:
                            remote.odds(u.id, e, ammo)
                        assert got.value.reason == x.reason
                        continue
                    ours = remote.odds(u.id, e, ammo)
                    assert ours.report == theirs.report and ours.p_kill == theirs.p_kill
                    asked += 1
            assert remote.move_costs(u.id) == mine.move_costs(u.id)
            assert remote.name(u.id) == mine.name(u.id)
            if u.has_gun:
                assert remote.fire_map(u.id) == mine.fire_map(u.id)
            if u.is_vehicle:
                assert remote.threat_map(u.id) == mine.threat_map(u.id)
                assert remote.reachable(u.id) == mine.reachable(u.id)
        for e in enemies:
            assert remote.name(e) == mine.name(e) and remote.where(e) == mine.where(e)
        assert remote.can_act() == mine.can_act()
        assert remote.losses() == mine.losses()
        clear, hindrance = remote.viewshed("E5")
        theirs = mine.viewshed("E5")
        assert clear.tolist() == theirs[0].tolist() and hindrance.tolist() == theirs[1].tolist()
        assert asked > 0
    finally:
        session.close()


def test_the_remote_seat_acts_through_the_server_and_is_refused_in_its_words(online):
    session, local = _seat(online, "tutorial-duel", "german", "russian")
    try:
        session.settle()
        table = session.table()
        assert table.to_act == "russian"
        with pytest.raises(IllegalAction) as e:
            table.submit(Move("nobody", "A1"))
        assert e.value.code == "illegal" and e.value.reason
        before = local.version
        table.submit(EndPhase())
        assert local.version > before
        session.settle()
        assert session.table().view == local.table("russian").view
    finally:
        session.close()


def test_a_link_that_is_not_one_is_refused_in_one_line():
    for text in (
        "http://x/game/0123456789abcdef#" + "a" * 43,
        "ws://x/0123#abc",
        "ws://x/game/0123456789abcdef",
        "ws://x/game/0123456789abcdef#short",
    ):
        with pytest.raises(LinkError):
            Link.parse(text)
    link = Link.parse("wss://example.org/hexfire/game/0123456789abcdef#" + "a" * 43)
    assert link.url == "wss://example.org/hexfire/game/0123456789abcdef"
    assert Link.parse(link.text()) == link
