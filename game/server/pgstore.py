"""The game store in PostgreSQL (``hexfire serve --db postgresql://...``; psycopg 3): the same
statements on the same schema as SQLite (:class:`~.store.SqlStore`, :mod:`.schema`), so that
several server processes, on one machine or many, can share one store.

Every write is one transaction, committed (PostgreSQL's ``synchronous_commit``: the WAL is on
disk) before the call returns, so the server acknowledges an action only once it is durable; the
server's group commit makes the writes that came meanwhile one transaction. A read of a game
(its facts, state and actions) is one snapshot. A broken connection (the database restarted, a
network cut) fails the call in hand with one line and is made again on the next call.

Opening a store migrates it under an advisory lock (two servers starting together migrate it
once); a store of a newer schema is refused (:mod:`.schema`).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import threading
from collections.abc import Callable

import psycopg

from . import schema
from .pgquery import one_query
from .store import Guard, SqlStore, StoreError, guard_failed

SYNCS = {"full": "on", "normal": "off"}
"""``--sync`` in PostgreSQL's terms (``synchronous_commit``): "full" (the default), a commit
returns once its WAL is synced to disk; "normal", once it is written: a killed server process
loses nothing (PostgreSQL holds it), a crash of PostgreSQL or a power cut may lose the last
commits (never half of one)."""
MIGRATE_LOCK = 0x68657866  # "hexf": the advisory lock held while a server migrates the store
CHANNEL = "hexfire_games"
"""The NOTIFY channel: a write of a game tells every server process "GAME ORIGIN"."""
_KEY = "hashtextextended(id, 0)"
"""A game's advisory lock key (64 bits of its id's hash; a clash only makes two games share
an owner)."""


def _sql(statement: str) -> str:
    """A statement of :mod:`.schema` (``?`` arguments) in psycopg's form (``%s``)."""
    return statement.replace("%", "%%").replace("?", "%s")


def _one_line(url: str, e: Exception) -> str:
    first = (str(e).strip().splitlines() or [type(e).__name__])[0]
    return f"{_safe(url)}: {first}"


def _safe(url: str) -> str:
    """The URL without its password (it is said in errors and logs)."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.Error:
        return "the PostgreSQL store"
    host, port, db = info.get("host", ""), info.get("port", ""), info.get("dbname", "")
    return f"postgresql://{host}{':' if port else ''}{port}/{db}"


class PgStore(SqlStore):
    """A :class:`~.store.GameStore` in a PostgreSQL database at ``url`` (a libpq URL or
    key=value string). Safe to call from any thread (one call at a time)."""

    def __init__(self, url: str, connect_timeout: float = 5.0, sync: str = "full"):
        super().__init__()
        if sync not in SYNCS:
            raise StoreError(f"sync: expected one of {', '.join(SYNCS)}, got {sync!r}")
        self.url = url
        self.sync = sync
        self.where = _safe(url)
        self._timeout = connect_timeout
        self._lock = threading.Lock()
        self._db: psycopg.Connection | None = None
        self.origin = f"{os.getpid()}-{secrets.token_hex(4)}"
        """This store's name in its notifications (its own are not told back to it)."""
        self._claimed: set[str] = set()
        self._held: psycopg.Connection | None = None
        self._held_lock = threading.Lock()
        self._name = ""
        """The holder connection's application_name: this process's relay (:meth:`advertise`)."""
        self._local = threading.local()
        self._readers: list[psycopg.Connection] = []
        self.listening = threading.Event()
        try:
            with self._lock:
                db = self._connection()
                db.execute("SELECT pg_advisory_lock(%s)", (MIGRATE_LOCK,))
            try:
                schema.migrate(self._version, self._commit, self.where)
            finally:
                with self._lock:
                    self._connection().execute("SELECT pg_advisory_unlock(%s)", (MIGRATE_LOCK,))
        except schema.SchemaError as e:
            self.close()
            raise StoreError(str(e)) from None
        except psycopg.Error as e:
            self.close()
            raise StoreError(f"cannot open the game store: {_one_line(url, e)}") from None
        except StoreError:
            self.close()
            raise

    def _connection(self) -> psycopg.Connection:
        if self._db is None or self._db.closed:
            try:
                self._db = psycopg.connect(
                    self.url, autocommit=True, connect_timeout=max(1, round(self._timeout))
                )
                self._db.execute(f"SET synchronous_commit = {SYNCS[self.sync]}")
            except psycopg.Error as e:
                raise StoreError(_one_line(self.url, e)) from None
        return self._db

    def _version(self) -> int:
        self._commit([(schema.VERSION_TABLE, ())])
        found = self.schema_version()
        if not found and self._query("SELECT to_regclass('games') IS NOT NULL", ())[0][0]:
            return 1  # the tables of version 1 without their version: made by hand
        return found

    def _commit(self, statements: list[tuple[str, tuple]]) -> None:
        """The statements in one transaction, sent as one query (:func:`~.pgquery.one_query`: one
        round trip and one call of the driver for a whole group commit; issue 43: one
        statement at a time, or in libpq's pipeline, took 160-400 us of the server's CPU
        for each action stored, most of it the driver's work per statement). A guard that
        finds no row fails it (division by zero) and PostgreSQL undoes all of it."""
        if not statements:
            return
        with self._lock:
            db = self._connection()
            try:
                query = one_query(statements, psycopg.pq.Escaping(db.pgconn).escape_literal)
                db.execute(query.encode("utf-8"), prepare=False)
            except psycopg.errors.DivisionByZero:
                guard = next(sql for sql, _ in statements if isinstance(sql, Guard))
                raise guard_failed(self.where, guard) from None
            except psycopg.Error as e:
                self._drop_if_broken()
                raise StoreError(_one_line(self.url, e)) from None

    readers = 4
    """Reads are made in parallel, each thread on a connection of its own (a server's store
    thread pool has this many threads): a catch-up or a game opened never waits for a commit
    syncing, nor for another read (issue 43: 250 games reconnecting at once after a kill)."""

    def _reader(self) -> psycopg.Connection:
        """This thread's connection for reads (made on first use, again after it broke)."""
        db = getattr(self._local, "db", None)
        if db is None or db.closed or db.broken:
            try:
                db = psycopg.connect(
                    self.url, autocommit=True, connect_timeout=max(1, round(self._timeout))
                )
                db.execute(f"SET synchronous_commit = {SYNCS[self.sync]}")
            except psycopg.Error as e:
                raise StoreError(_one_line(self.url, e)) from None
            self._local.db = db
            with self._lock:
                self._readers.append(db)
        return db

    def _queries(self, statements: list[tuple[str, tuple]]) -> list[list[tuple]]:
        db = self._reader()
        try:
            with db.transaction(), db.cursor() as cur:
                if len(statements) > 1:
                    cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                out = []
                for sql, args in statements:
                    cur.execute(_sql(sql), args)
                    out.append(cur.fetchall())
                return out
        except psycopg.Error as e:
            raise StoreError(_one_line(self.url, e)) from None

    def _drop_if_broken(self) -> None:
        if self._db is not None and (self._db.closed or self._db.broken):
            self._db = None

    def _holder(self) -> psycopg.Connection:
        """The connection that holds this process's advisory locks (the games it owns, the
        seats connected here), apart from the one that writes: a claim or a seat's arrival
        never waits behind a commit syncing. Call with ``_held_lock`` held."""
        db = self._held
        if db is None or db.closed or db.broken:
            self._claimed.clear()  # a session's advisory locks end with it
            try:
                db = psycopg.connect(
                    self.url, autocommit=True, connect_timeout=max(1, round(self._timeout))
                )
                if self._name:
                    db.execute("SELECT set_config('application_name', %s, false)", (self._name,))
                    db.execute(f"SELECT pg_advisory_lock_shared({self._STORE_KEY})")
            except psycopg.Error as e:
                raise StoreError(_one_line(self.url, e)) from None
            self._held = db
        return db

    def advertise(self, address: str) -> None:
        """Where the other server processes reach this one (``ws://HOST:PORT``, its relay:
        game.server.relay), named by the connection that holds its locks, so that it goes
        with them."""
        self._name = f"hexfire {address}"[:63]
        with self._held_lock:
            db = self._holder()
            try:
                db.execute("SELECT set_config('application_name', %s, false)", (self._name,))
                db.execute(f"SELECT pg_advisory_lock_shared({self._STORE_KEY})")
            except psycopg.Error as e:
                raise StoreError(_one_line(self.url, e)) from None

    _STORE_KEY = (
        "hashtextextended('hexfire store ' || current_database() || ' ' || current_schema(), 2)"
    )
    """The lock every server process serving this store holds shared from :meth:`advertise`
    on (its peers, :meth:`seat_counts`; a game's key has seed 0, a seat's seed 1)."""

    def seat_counts(self) -> tuple[int, list[int]]:
        """How many seats are connected on this process, and on each live process serving
        this store (this one among them; :meth:`advertise` names a process): each seat's
        presence is a shared lock of its process (:meth:`arrive`)."""
        sql = (
            "WITH p AS (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted "
            "AND objsubid = 1 AND mode = 'ShareLock' "
            f"AND ((classid::bigint << 32) | objid::bigint) = {self._STORE_KEY}) "
            "SELECT p.pid, (SELECT count(*) FROM pg_locks l WHERE l.pid = p.pid "
            "AND l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 "
            "AND l.mode = 'ShareLock') - 1 FROM p"
        )
        mine = self._holder_pid()
        db = self._reader()
        try:
            rows = db.execute(sql).fetchall()
        except psycopg.Error as e:
            raise StoreError(_one_line(self.url, e)) from None
        counts = {int(pid): int(n) for pid, n in rows}
        return counts.get(mine, 0), list(counts.values())

    def owner_with_seats(self, game_id: str, sides: list[str]) -> str | None:
        """The address (:meth:`advertise`) of the other live process that owns ``game_id``
        and holds one of its seats ``sides`` connected there; None when there is none."""
        return self.owners_with_seats([game_id], sides).get(game_id)

    def _holder_pid(self) -> int:
        """The backend pid of this process's lock connection (0 when it has none)."""
        with self._held_lock:
            held = self._held
            return held.info.backend_pid if held is not None and not held.closed else 0

    def owners_with_seats(self, game_ids: list[str], sides: list[str]) -> dict[str, str]:
        """:meth:`owner_with_seats` of each of ``game_ids`` in one statement (the lock table
        read once), for those that have one."""
        if not game_ids:
            return {}
        mine = self._holder_pid()
        sql = (
            "WITH l AS MATERIALIZED (SELECT pid, (classid::bigint << 32) | objid::bigint AS key "
            "FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1 "
            "AND pid <> %s) "
            "SELECT g.id, a.application_name FROM unnest(%s::text[]) AS g(id) "
            "JOIN l ON l.key = hashtextextended(g.id, 0) "
            "JOIN pg_stat_activity a ON a.pid = l.pid AND a.application_name LIKE 'hexfire %%' "
            "WHERE EXISTS (SELECT 1 FROM l AS s, unnest(%s::text[]) AS x WHERE s.pid = l.pid "
            "AND s.key = hashtextextended(g.id || ' ' || x, 1))"
        )
        db = self._reader()
        try:
            rows = db.execute(sql, (mine, game_ids, sides)).fetchall()
        except psycopg.Error as e:
            raise StoreError(_one_line(self.url, e)) from None
        return {g: str(name).removeprefix("hexfire ") for g, name in rows}

    # --- several server processes ------------------------------------------------------------

    shared = True
    """Several server processes may serve this store's games at once."""

    def _changed(self, game_id: str) -> list[tuple[str, tuple]]:
        return [("SELECT pg_notify(?, ?)", (CHANNEL, f"{game_id} {self.origin}"))]

    def claim(self, game_id: str) -> bool:
        """Whether this process owns ``game_id`` (it plays the server's part of the game: the
        computer, the phases passed by themselves, the standing orders): an advisory lock of
        the store's connection, taken if free. It is PostgreSQL's to free when the process
        dies: its connection ends, and another process's claim succeeds."""
        return game_id in self.claim_many([game_id])

    def claim_many(self, game_ids: list[str]) -> set[str]:
        """Of ``game_ids``, those this process owns now (:meth:`claim`): every one not owned
        here yet tried in one statement (a dead process's games are taken over at once, not
        one lock after another)."""
        sql = f"SELECT id FROM unnest(%s::text[]) AS id WHERE pg_try_advisory_lock({_KEY})"
        with self._held_lock:
            db = self._holder()  # the locks are this connection's: it must be the same
            owned = {g for g in game_ids if g in self._claimed}
            wanted = [g for g in dict.fromkeys(game_ids) if g not in owned]
            if not wanted:
                return owned
            try:
                got = {r[0] for r in db.execute(sql, (wanted,)).fetchall()}
            except psycopg.Error as e:
                raise StoreError(_one_line(self.url, e)) from None
            self._claimed |= got
        return owned | got

    def release(self, game_id: str) -> None:
        """This process no longer owns ``game_id`` (its advisory lock freed) and every other
        process is told ("free", :meth:`listen`): the one its seats are connected to claims it
        (a game whose every seat is on another process is played there, not across two)."""
        self.release_many([game_id])

    def release_many(self, game_ids: list[str]) -> None:
        """:meth:`release` of each of ``game_ids`` in one statement."""
        sql = (
            f"SELECT pg_advisory_unlock({_KEY}), pg_notify(%s, id || ' ' || %s || ' free') "
            "FROM unnest(%s::text[]) AS id"
        )
        with self._held_lock:
            db = self._held
            mine = [g for g in dict.fromkeys(game_ids) if g in self._claimed]
            if not mine or db is None or db.closed or db.broken:
                return
            self._claimed.difference_update(mine)
            try:
                db.execute(sql, (CHANNEL, self.origin, mine))
            except psycopg.Error as e:
                raise StoreError(_one_line(self.url, e)) from None

    # --- a seat's presence ---------------------------------------------------------------------

    _SEAT_KEY = "hashtextextended(%s || ' ' || %s, 1)"
    """A seat's presence lock key (a game's own key is its id's hash with seed 0)."""

    def arrive(self, game_id: str, side: str) -> float:
        """A seat of ``game_id`` connected here: this process holds its presence (a shared
        advisory lock: a seat connected on several processes at once, each holds one; all go
        with the process) and every other process is told, with the store's time of it
        (:meth:`listen`: "seat SIDE TIME": a window of that seat opened before that time on
        another process is taken over). Returns that time."""
        sql = (
            f"SELECT pg_advisory_lock_shared({self._SEAT_KEY}), "
            "pg_notify(%s, %s || ' ' || %s || ' seat ' || %s || ' ' || "
            "extract(epoch from clock_timestamp())), extract(epoch from clock_timestamp())"
        )
        with self._held_lock:
            db = self._holder()
            try:
                row = db.execute(
                    sql, (game_id, side, CHANNEL, game_id, self.origin, side)
                ).fetchone()
            except psycopg.Error as e:
                raise StoreError(_one_line(self.url, e)) from None
        return float(row[2]) if row else 0.0

    def leave(self, game_id: str, side: str) -> None:
        """The seat's connection here ended: its presence here ends (:meth:`arrive`)."""
        with self._held_lock:
            db = self._held
            if db is None or db.closed or db.broken:
                return  # the locks went with the connection
            with contextlib.suppress(psycopg.Error):
                db.execute(f"SELECT pg_advisory_unlock_shared({self._SEAT_KEY})", (game_id, side))

    def present_elsewhere(self, seats: list[tuple[str, str]]) -> set[tuple[str, str]]:
        """Of ``seats`` (game, side), those connected on another live process now."""
        if not seats:
            return set()
        mine = self._holder_pid()
        sql = (
            "SELECT s.game, s.side FROM unnest(%s::text[], %s::text[]) AS s(game, side) "
            "WHERE EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' "
            "AND l.granted AND l.objsubid = 1 AND l.pid <> %s "
            "AND ((l.classid::bigint << 32) | l.objid::bigint) = "
            "hashtextextended(s.game || ' ' || s.side, 1))"
        )
        db = self._reader()
        try:
            rows = db.execute(sql, ([g for g, _ in seats], [s for _, s in seats], mine))
            return {(g, s) for g, s in rows.fetchall()}
        except psycopg.Error as e:
            raise StoreError(_one_line(self.url, e)) from None

    def listen(self, told: Callable[[str | None, str], None]) -> Callable[[], None]:
        """Tell ``told`` the id of each game another process wrote, with what else it said
        ("" for a write; "seat SIDE TIME": a seat arrived there, :meth:`arrive`; "free": it
        no longer owns the game, :meth:`release`) (None: the
        connection that listens was made again, so notifications may have been missed: every
        game may have changed), from a thread of its own. Returns the function that stops
        it."""
        stop = threading.Event()

        def run() -> None:
            first = True
            while not stop.is_set():
                try:
                    with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as db:
                        db.execute(f"LISTEN {CHANNEL}")
                        self.listening.set()
                        if not first:
                            told(None, "")
                        first = False
                        while not stop.is_set():
                            for note in db.notifies(timeout=0.5):
                                game, _, rest = note.payload.partition(" ")
                                origin, _, said = rest.partition(" ")
                                if origin != self.origin:
                                    told(game, said)
                except psycopg.Error:
                    stop.wait(0.5)

        thread = threading.Thread(target=run, daemon=True, name="hexfire-listen")
        thread.start()

        def stopping() -> None:
            stop.set()
            thread.join(5)

        return stopping

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None
            for db in self._readers:
                db.close()
            self._readers.clear()
        with self._held_lock:
            if self._held is not None:
                self._held.close()
                self._held = None
            self._claimed.clear()
