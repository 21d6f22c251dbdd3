"""Rows of the hot path (a game move) read and written without compiling a query each time.

Django's ORM compiles SQL for every call: measured on this 2-core machine at 0.4 to 0.8 ms of
CPU per statement (a select with a join, an update of five fields), against 0.06 ms for
running the same SQL through the cursor. A move runs four statements, so the compiling was
about half the CPU of a move (``benchmarks/load.py``). These helpers build the SQL once per
model from ``_meta`` (columns, table, quoting: nothing is written out by hand), and load and
save instances as the ORM does: ``from_db`` with the fields' converters, and ``pre_save`` and
``get_db_prep_save`` for values (``auto_now``, JSON). Model ``save`` signals are not sent;
use this only for models that have no receivers (tests/games/test_rows.py checks that).

On PostgreSQL these statements bind their parameters on the server (``cursor``): the rest of
the site keeps Django's default client-side binding, which quotes every value into the SQL
text in Python, and a game's state runs to kilobytes. A move's update of the game row and
insert of its event go as one statement (``update_then_insert``): each round trip to the
database cost this machine about 0.1 ms of CPU in the web process (measured in-process:
0.86 ms of client CPU for the move's transaction as two statements, 0.71 as one).
"""

from contextlib import contextmanager
from functools import cache

from django.db import connections, router
from django.db.models import Model


@contextmanager
def cursor(connection):
    """A Django cursor of ``connection`` whose parameters are sent apart from the SQL.

    Django's wrapper is kept (error translation, health checks, query logging); only the
    psycopg cursor class under it changes, for this cursor (the connection belongs to this
    thread). Other backends get their usual cursor."""
    if connection.vendor != "postgresql":
        with connection.cursor() as wrapped:
            yield wrapped
        return
    from django.db.backends.postgresql.base import ServerBindingCursor

    connection.ensure_connection()
    raw = connection.connection
    usual = raw.cursor_factory
    raw.cursor_factory = ServerBindingCursor
    try:
        wrapped = connection.cursor()
    finally:
        raw.cursor_factory = usual
    with wrapped:
        yield wrapped


class Columns:
    """One model's concrete columns, for select lists, loading, inserts and updates."""

    def __init__(self, model: type[Model]):
        self.model = model
        self.fields = model._meta.concrete_fields
        self.attnames = [f.attname for f in self.fields]
        self.table = model._meta.db_table
        self.alias = router.db_for_write(model)
        self._converters = None

    def select(self, prefix: str) -> str:
        """``prefix."col", ...`` in ``_meta`` order: the order ``load`` expects."""
        quote = connections[self.alias].ops.quote_name
        return ", ".join(f"{prefix}.{quote(f.column)}" for f in self.fields)

    def load(self, values) -> Model:
        """An instance from a row of ``select``'s columns, as the ORM would build it."""
        connection = connections[self.alias]
        values = list(values)
        for index, converters in self._converters_for(connection):
            for converter in converters:
                values[index] = converter(values[index], self._cols[index], connection)
        return self.model.from_db(self.alias, self.attnames, values)

    def _converters_for(self, connection):
        if self._converters is None:
            self._cols = [f.get_col(self.table) for f in self.fields]
            found = []
            for index, (field, col) in enumerate(zip(self.fields, self._cols, strict=True)):
                converters = connection.ops.get_db_converters(col) + field.get_db_converters(
                    connection
                )
                if converters:
                    found.append((index, converters))
            self._converters = found
        return self._converters

    def insert(self, instance: Model) -> None:
        """INSERT ``instance`` (its primary key is set from the database)."""
        sql, values = self._insert(instance)
        with cursor(connections[self.alias]) as server_bound:
            server_bound.execute(sql, values)
            self._inserted(instance, server_bound.fetchone()[0])

    def update(self, instance: Model, names: tuple[str, ...]) -> None:
        """UPDATE the fields ``names`` of ``instance`` (``auto_now`` ones are refreshed)."""
        sql, values = self._update(instance, names)
        with cursor(connections[self.alias]) as server_bound:
            server_bound.execute(sql, values)

    def _insert(self, instance: Model) -> tuple[str, list]:
        connection = connections[self.alias]
        fields = [f for f in self.fields if not f.primary_key]
        values = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
        return self._insert_sql(tuple(f.column for f in fields)), values

    def _inserted(self, instance: Model, pk) -> None:
        instance.pk = pk
        instance._state.adding, instance._state.db = False, self.alias

    def _update(self, instance: Model, names: tuple[str, ...]) -> tuple[str, list]:
        connection = connections[self.alias]
        fields = [self.model._meta.get_field(name) for name in names]
        values = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in fields]
        return self._update_sql(tuple(f.column for f in fields)), [*values, instance.pk]

    @cache  # noqa: B019 - one Columns per model, for the life of the process
    def _insert_sql(self, columns: tuple[str, ...]) -> str:
        quote = connections[self.alias].ops.quote_name
        names = ", ".join(quote(c) for c in columns)
        marks = ", ".join(["%s"] * len(columns))
        pk = quote(self.model._meta.pk.column)
        return f"INSERT INTO {quote(self.table)} ({names}) VALUES ({marks}) RETURNING {pk}"

    @cache  # noqa: B019 - as above
    def _update_sql(self, columns: tuple[str, ...]) -> str:
        quote = connections[self.alias].ops.quote_name
        sets = ", ".join(f"{quote(c)} = %s" for c in columns)
        pk = quote(self.model._meta.pk.column)
        return f"UPDATE {quote(self.table)} SET {sets} WHERE {pk} = %s"


@cache
def columns(model: type[Model]) -> Columns:
    """The ``Columns`` of ``model`` (made once per process)."""
    return Columns(model)


def update_then_insert(
    updated: Model, names: tuple[str, ...], inserted: Model, *, where: dict | None = None
) -> bool:
    """``columns(...).update(updated, names)`` then ``.insert(inserted)``, in one statement
    on PostgreSQL (the update in a ``WITH``: one round trip and one cursor fewer per move).

    With ``where`` (column attnames and the values they must still hold) it is a
    compare-and-set: the row is updated only if it still holds them, the insert made only if
    it was, and the result says which. The check is the update's own ``WHERE``: a concurrent
    writer's lock is waited for and the check made again on the row it left (PostgreSQL's
    READ COMMITTED), so no lock has to be taken before. Without ``where`` it is always True.
    """
    target, new = columns(type(updated)), columns(type(inserted))
    connection = connections[new.alias]
    update_sql, update_values = target._update(updated, names)
    conditions = list((where or {}).items())
    quote = connection.ops.quote_name
    for attname, _value in conditions:
        column = target.model._meta.get_field(attname).column
        update_sql += f" AND {quote(column)} = %s"
    update_values += [value for _attname, value in conditions]
    insert_sql, insert_values = new._insert(inserted)
    if connection.vendor != "postgresql" or target.alias != new.alias:
        from django.db import transaction

        with transaction.atomic(using=new.alias, savepoint=False):
            with cursor(connections[target.alias]) as plain:
                plain.execute(update_sql, update_values)
                if plain.rowcount != 1 and conditions:
                    return False
            new.insert(inserted)
        return True
    head, _values = insert_sql.split(" VALUES ", 1)
    returning = insert_sql.rsplit(" RETURNING ", 1)[1]
    marks = ", ".join(["%s"] * len(insert_values))
    with cursor(connection) as server_bound:
        server_bound.execute(
            f"WITH updated AS ({update_sql} RETURNING 1) "
            f"{head} SELECT {marks} FROM updated RETURNING {returning}",
            [*update_values, *insert_values],
        )
        row = server_bound.fetchone()
    if row is None:
        return False
    new._inserted(inserted, row[0])
    return True
