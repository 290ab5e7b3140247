"""Alembic's environment for the web server's database: runs the migrations on the
connection :func:`lifearena.web.database.upgrade` hands over (in its transaction), or, for a
maintainer's ``alembic`` command, on the database its ``sqlalchemy.url`` option names."""

from __future__ import annotations

from alembic import context

from lifearena.web.database import database_url, open_engine
from lifearena.web.tables import metadata

config = context.config
connection = config.attributes.get("connection")
if connection is None:
    engine = open_engine(database_url(config.get_main_option("sqlalchemy.url") or ""))
    with engine.begin() as connection:
        context.configure(connection=connection, target_metadata=metadata,
                          render_as_batch=connection.dialect.name == "sqlite")
        context.run_migrations()
    engine.dispose()
else:
    # SQLite alters tables by copying them: autogenerate must write batch operations
    context.configure(connection=connection, target_metadata=metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()
