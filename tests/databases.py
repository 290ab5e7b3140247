"""PostgreSQL for the tests: each test that asks gets a database of its own, made on the
server ``LIFEARENA_TEST_POSTGRES`` names (a URL of a server where the tests may create
databases, such as ``postgresql://postgres@127.0.0.1:5432/postgres``) and dropped after it.

Without that variable the PostgreSQL cases skip and say why, unless
``LIFEARENA_REQUIRE_POSTGRES=1`` (set by CI, which starts a server of its own: .ci/postgres),
where they fail.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator

import pytest

SERVER = "LIFEARENA_TEST_POSTGRES"
REQUIRE = "LIFEARENA_REQUIRE_POSTGRES"


@contextlib.contextmanager
def fresh_postgres() -> Iterator[str]:
    """The URL of a new, empty PostgreSQL database, dropped on leaving (with any connection
    a test left open to it)."""
    server = os.environ.get(SERVER)
    if not server:
        if os.environ.get(REQUIRE) == "1":
            pytest.fail(f"{REQUIRE}=1 but {SERVER} is not set; expected the URL of a "
                        "PostgreSQL server where the tests may create databases")
        pytest.skip(f"PostgreSQL: set {SERVER} to the URL of a server where the tests may "
                    "create databases")
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url
    from sqlalchemy.pool import NullPool

    from lifearena.web.database import database_url

    name = f"lifearena_test_{secrets.token_hex(6)}"
    admin = create_engine(database_url(server), isolation_level="AUTOCOMMIT",
                          poolclass=NullPool)
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        yield make_url(database_url(server)).set(database=name).render_as_string(
            hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
