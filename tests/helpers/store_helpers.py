"""The game stores the server's tests run against: SQLite in a temporary folder, and
PostgreSQL in a schema of its own at ``HEXFIRE_TEST_PG`` (a libpq URL; ``.ci/run`` starts a
throwaway server for it with tools/ci/pg.sh). Without one reachable the PostgreSQL cases are
skipped, saying why."""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from game.server.store import SqliteStore, SqlStore

KINDS = ("sqlite", "postgresql")
PG_ENV = "HEXFIRE_TEST_PG"


def pg_url() -> str:
    """The test PostgreSQL's URL, or the test is skipped with the reason."""
    url = os.environ.get(PG_ENV, "")
    if not url:
        pytest.skip(
            f"no PostgreSQL to test against: set {PG_ENV}=postgresql://... (tools/ci/pg.sh)"
        )
    import psycopg

    try:
        with psycopg.connect(url, connect_timeout=3) as db:
            db.execute("SELECT 1")
    except psycopg.Error as e:
        pytest.skip(f"{PG_ENV}: PostgreSQL not reachable: {str(e).splitlines()[0]}")
    return url


@contextlib.contextmanager
def pg_schema() -> Iterator[str]:
    """A fresh PostgreSQL schema (a URL whose ``search_path`` is it), dropped afterwards."""
    import psycopg
    from psycopg.conninfo import make_conninfo

    url = pg_url()
    name = f"t_{secrets.token_hex(6)}"
    with psycopg.connect(url, autocommit=True) as db:
        db.execute(f"CREATE SCHEMA {name}")
    try:
        yield make_conninfo(url, options=f"-c search_path={name}")
    finally:
        with psycopg.connect(url, autocommit=True) as db:
            db.execute(f"DROP SCHEMA {name} CASCADE")


@contextlib.contextmanager
def where(kind: str, folder: Path) -> Iterator[str]:
    """Where a store of ``kind`` is kept for one test: a file, or a PostgreSQL URL."""
    if kind == "sqlite":
        yield str(folder / "games.sqlite")
    else:
        with pg_schema() as url:
            yield url


def open_store(kind: str, at: str) -> SqlStore:
    if kind == "sqlite":
        return SqliteStore(at)
    from game.server.pgstore import PgStore

    return PgStore(at)


@contextlib.contextmanager
def a_store(kind: str, folder: Path) -> Iterator[SqlStore]:
    """A store of ``kind``, empty, closed afterwards."""
    with where(kind, folder) as at:
        store = open_store(kind, at)
        try:
            yield store
        finally:
            store.close()
