"""A table registry on sqlite3: classes are tables, instances are rows.

    class User(Table, table='users'):
        name: str = column(unique=True)
        email: Optional[str] = None

    db = sqlite3.connect(':memory:')
    create_all(db)
    ann = User(name='Ann').insert(db)   # ann.id is now set
    assert User.select(db, name='Ann') == [ann]

Built on dataclass_meta's public extension points (docs/frameworks.md):
- ``TableMeta`` subclasses ``DataClassMeta`` to add an ``id`` primary key to the
  namespace of a table that declares none, before the class exists;
- ``table=`` is the framework's own class keyword, taken by ``__init_subclass__``;
- ``kw_only=True`` is set once on ``Table`` and inherited by every table (so the
  added ``id``, which has a default, can come first);
- ``column()`` is a field specifier over ``field()`` keeping the column's settings
  in the field's ``metadata``, where any dataclasses tool can read them;
- the hook after the fields are final derives the columns and ``CREATE TABLE``
  from ``fields()`` and registers the class.
"""

import dataclasses
import datetime
import sys
import typing
from typing import Any, Callable, Optional

from dataclass_meta import (
    MISSING, DataClass, DataClassMeta, field, fields, namespace_annotations)

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:
    from typing_extensions import dataclass_transform

__all__ = ['Table', 'TableMeta', 'Column', 'column', 'create_all', 'TABLES']

TABLES: 'dict[str, type[Table]]' = {}  # table name -> class, in definition order

_identity = lambda value: value  # noqa: E731
# Python type -> (SQL type, to the database, from the database).
SQL_TYPES = {
    int: ('INTEGER', _identity, _identity),
    float: ('REAL', _identity, _identity),
    str: ('TEXT', _identity, _identity),
    bytes: ('BLOB', _identity, _identity),
    bool: ('INTEGER', int, bool),
    datetime.datetime: ('TEXT', datetime.datetime.isoformat, datetime.datetime.fromisoformat),
    datetime.date: ('TEXT', datetime.date.isoformat, datetime.date.fromisoformat),
}


def column(*, primary_key=False, unique=False, default=MISSING, default_factory=MISSING,
           init=True, repr=True, compare=True, kw_only=MISSING, doc=None) -> Any:
    """``field()`` for a column: its SQL settings go into ``metadata['sql']``."""
    return field(default=default, default_factory=default_factory, init=init, repr=repr,
                 compare=compare, kw_only=kw_only, doc=doc,
                 metadata={'sql': {'primary_key': primary_key, 'unique': unique}})


def _sql(f):
    return f.metadata.get('sql', {})


def _quote(name):
    return '"' + name.replace('"', '""') + '"'


def _or_none(convert):
    return lambda value: None if value is None else convert(value)


class Column(DataClass, frozen=True):
    """What the framework derives from one field."""

    name: str
    sql_type: str
    nullable: bool
    primary_key: bool
    unique: bool
    encode: Callable = field(repr=False, compare=False)
    decode: Callable = field(repr=False, compare=False)

    def ddl(self):
        parts = [_quote(self.name), self.sql_type]
        if self.primary_key:
            parts.append('PRIMARY KEY')
        elif not self.nullable:
            parts.append('NOT NULL')
        if self.unique:
            parts.append('UNIQUE')
        return ' '.join(parts)


def _column(cls, f, tp):
    """The ``Column`` for field ``f`` of type ``tp`` (``X`` or ``Optional[X]``)."""
    args = typing.get_args(tp)
    nullable = type(None) in args and len(args) == 2
    base = next(a for a in args if a is not type(None)) if nullable else tp
    if base not in SQL_TYPES:
        names = ', '.join(t.__name__ for t in SQL_TYPES)
        msg = (f'column {f.name!r} of {cls.__name__!r} has unsupported type {tp!r}: '
               f'use one of {names}, or Optional of one')
        raise TypeError(msg)
    sql_type, encode, decode = SQL_TYPES[base]
    if nullable:
        encode, decode = _or_none(encode), _or_none(decode)
    return Column(f.name, sql_type, nullable, _sql(f).get('primary_key', False),
                  _sql(f).get('unique', False), encode, decode)


class TableMeta(DataClassMeta):
    """Gives a table without a primary key ``id: Optional[int]`` as its first field."""

    def __new__(mcls, name, bases, namespace, /, **kwargs):
        # The namespace holds what the body wrote: dataclasses.field()'s too.
        declared = [v for v in namespace.values() if isinstance(v, dataclasses.Field)]
        inherited = [f for b in bases for f in getattr(b, '__dataclass_fields__', {}).values()]
        if 'table' in kwargs and not any(_sql(f).get('primary_key')
                                         for f in declared + inherited):
            annotations = namespace_annotations(namespace)
            namespace['__annotations__'] = {'id': Optional[int], **annotations}
            namespace['id'] = column(primary_key=True, default=None)
        return super().__new__(mcls, name, bases, namespace, **kwargs)


@dataclass_transform(kw_only_default=True, field_specifiers=(column, field))
class Table(DataClass, metaclass=TableMeta, kw_only=True):
    """Base of tables; ``class User(Table, table='users')`` declares one."""

    def __init_subclass__(cls, /, *, table=None, **kwargs):
        super().__init_subclass__(**kwargs)  # the fields are final after this
        cls.__table__ = table
        if table is None:  # an abstract table: columns shared by subclasses
            return
        if table in TABLES:
            msg = (f'table {table!r} of {cls.__name__!r} is already defined by '
                   f'{TABLES[table].__name__!r}: choose another name')
            raise TypeError(msg)
        hints = typing.get_type_hints(cls)
        cls.__columns__ = tuple(_column(cls, f, hints[f.name]) for f in fields(cls)
                                if f.init)
        keys = [c for c in cls.__columns__ if c.primary_key]
        if len(keys) != 1:
            msg = f'table {table!r} of {cls.__name__!r} needs one primary key, not {len(keys)}'
            raise TypeError(msg)
        cls.__key__ = keys[0]
        columns = ', '.join(c.ddl() for c in cls.__columns__)
        cls.__create__ = f'CREATE TABLE {_quote(table)} ({columns})'
        TABLES[table] = cls

    @classmethod
    def _table(cls):
        if cls.__table__ is None:
            raise TypeError(f'{cls.__name__!r} has no table: declare one with table=...')
        return _quote(cls.__table__)

    def insert(self, db):
        """Insert this row; a primary key left ``None`` is set from the database."""
        table = self._table()
        key = self.__key__
        columns = [c for c in self.__columns__
                   if c is not key or getattr(self, c.name) is not None]
        names = ', '.join(_quote(c.name) for c in columns)
        cursor = db.execute(
            f'INSERT INTO {table} ({names}) VALUES ({", ".join("?" * len(columns))})',
            [c.encode(getattr(self, c.name)) for c in columns])
        if getattr(self, key.name) is None:
            setattr(self, key.name, cursor.lastrowid)
        return self

    @classmethod
    def select(cls, db, **where):
        """The rows whose columns equal ``where``'s values, as instances."""
        table = cls._table()
        by_name = {c.name: c for c in cls.__columns__}
        for name in where:
            if name not in by_name:
                raise TypeError(f'{cls.__name__!r} has no column {name!r}')
        sql = f'SELECT {", ".join(map(_quote, by_name))} FROM {table}'
        if where:  # IS: equality where NULL matches NULL
            sql += ' WHERE ' + ' AND '.join(f'{_quote(n)} IS ?' for n in where)
        rows = db.execute(sql, [by_name[n].encode(v) for n, v in where.items()])
        return [cls(**{c.name: c.decode(v) for c, v in zip(cls.__columns__, row)})
                for row in rows]

    @classmethod
    def get(cls, db, key):
        """The row with this primary key, or ``None``."""
        rows = cls.select(db, **{cls.__key__.name: key})
        return rows[0] if rows else None


def create_all(db):
    """``CREATE TABLE`` for every registered table."""
    for cls in TABLES.values():
        db.execute(cls.__create__)
