"""examples/frameworks/table_registry.py: tables on sqlite3 from data classes."""

import dataclasses
import datetime
import pathlib
import sqlite3
import sys
from contextlib import closing
from typing import Optional

import pytest
from hypothesis import given, settings, strategies as st

from dataclass_meta import fields

sys.path.insert(0, str(pathlib.Path(__file__).parent.parent / 'examples' / 'frameworks'))
from table_registry import TABLES, Table, column, create_all  # noqa: E402


class User(Table, table='users'):
    name: str = column(unique=True)
    email: Optional[str] = None
    admin: bool = False
    joined: Optional[datetime.date] = None


class Timestamped(Table):
    """Abstract: no table of its own, columns for its subclasses."""

    created: datetime.datetime = column(
        default_factory=lambda: datetime.datetime(2024, 1, 1, 12, 30))


class Post(Timestamped, table='posts'):
    slug: str = column(primary_key=True)
    title: str = ''
    score: float = 0.0
    body: bytes = b''


@pytest.fixture
def db():
    """A fresh in-memory database with every registered table."""
    connection = sqlite3.connect(':memory:')
    create_all(connection)
    yield connection
    connection.close()


def test_create_table_is_generated_from_the_fields():
    """Types, NOT NULL from Optional, PRIMARY KEY and UNIQUE from metadata."""
    assert User.__create__ == (
        'CREATE TABLE "users" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL UNIQUE, '
        '"email" TEXT, "admin" INTEGER NOT NULL, "joined" TEXT)')
    assert Post.__create__ == (
        'CREATE TABLE "posts" ("created" TEXT NOT NULL, "slug" TEXT PRIMARY KEY, '
        '"title" TEXT NOT NULL, "score" REAL NOT NULL, "body" BLOB NOT NULL)')


def test_metaclass_adds_id_only_where_no_key_is_declared():
    """``id`` comes first when needed; a declared or inherited key prevents it."""
    id_ = fields(User)[0]
    assert (id_.name, id_.type, id_.default) == ('id', Optional[int], None)
    assert id_.metadata['sql']['primary_key'] is True
    assert 'id' not in {f.name for f in fields(Post)}

    class Admin(User, table='admins'):
        level: int = 0

    assert [f.name for f in fields(Admin)].count('id') == 1
    assert [f.name for f in fields(Timestamped)] == ['created']


def test_options_set_on_table_are_inherited():
    """``kw_only=True`` on ``Table`` applies to every table's own fields."""
    assert User(name='Ann') == User(id=None, name='Ann')
    with pytest.raises(TypeError, match=r"takes 1 positional argument but 2 were given"):
        User('Ann')
    transform = Table.__dataclass_transform__
    assert transform['kw_only_default'] is True
    assert column in transform['field_specifiers']


def test_column_settings_live_in_field_metadata():
    """Any dataclasses tool sees them: they are ``metadata['sql']``."""
    name = dataclasses.fields(User)[1]
    assert name.metadata['sql'] == {'primary_key': False, 'unique': True}
    assert User.__table__ == 'users' and TABLES['users'] is User


def test_insert_select_round_trip(db):
    """Rows come back as instances equal to what went in; ``id`` is assigned."""
    ann = User(name='Ann', joined=datetime.date(2020, 1, 2)).insert(db)
    bob = User(name='Bob', email='bob@example.org', admin=True).insert(db)
    assert (ann.id, bob.id) == (1, 2)
    rows = User.select(db)
    assert rows == [ann, bob] and all(type(row) is User for row in rows)
    assert User.select(db, admin=True) == [bob]
    assert User.select(db, email=None) == [ann]
    assert User.get(db, 2) == bob and User.get(db, 3) is None


def test_declared_key_and_inherited_columns_round_trip(db):
    """A text primary key, datetime, float and bytes columns survive the trip."""
    post = Post(slug='hello', title='Hi', score=2.5, body=b'\x00\x01').insert(db)
    assert Post.get(db, 'hello') == post
    assert Post.select(db)[0].created == datetime.datetime(2024, 1, 1, 12, 30)


def test_unique_column_is_enforced_by_the_database(db):
    """``column(unique=True)`` becomes a UNIQUE constraint."""
    User(name='Ann').insert(db)
    with pytest.raises(sqlite3.IntegrityError, match='UNIQUE constraint failed: users.name'):
        User(name='Ann').insert(db)


def test_unsupported_type_fails_at_class_creation():
    """A column type without an SQL type is an error naming column and class."""
    with pytest.raises(TypeError, match="column 'tags' of 'Bad' has unsupported type "
                                        "<class 'list'>: use one of int, float, str"):
        class Bad(Table, table='bad'):
            tags: list = column(default_factory=list)
    assert 'bad' not in TABLES


def test_two_primary_keys_fail_at_class_creation():
    """A table has exactly one primary key."""
    with pytest.raises(TypeError, match="table 'bad' of 'Bad' needs one primary key, not 2"):
        class Bad(Table, table='bad'):
            a: int = column(primary_key=True)
            b: int = column(primary_key=True)
    assert 'bad' not in TABLES


def test_table_names_are_unique():
    """Declaring a table name twice names both classes."""
    with pytest.raises(TypeError, match="table 'users' of 'Other' is already defined by 'User'"):
        class Other(Table, table='users'):
            name: str


def test_abstract_tables_and_unknown_columns_are_refused(db):
    """No table: no queries; a filter on a missing column names it."""
    with pytest.raises(TypeError, match="'Timestamped' has no table"):
        Timestamped.select(db)
    with pytest.raises(TypeError, match="'User' has no column 'age'"):
        User.select(db, age=3)


def test_create_all_creates_every_registered_table(db):
    """Every class with ``table=`` is a table in the database."""
    names = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {'users', 'posts'} <= names == set(TABLES)


def test_slotted_tables_slot_the_added_id():
    """The field the metaclass adds is there before ``slots=True`` is processed."""
    class Tag(Table, table='tags', slots=True):
        label: str

    assert 'id' in Tag.__slots__ and Tag(label='x').id is None


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.text(), st.none() | st.text(max_size=5), st.booleans(),
                          st.none() | st.dates()), max_size=5, unique_by=lambda t: t[0]))
def test_any_rows_round_trip(rows):
    """Whatever fits the types comes back equal, in insertion order."""
    with closing(sqlite3.connect(':memory:')) as db:
        db.execute(User.__create__)
        inserted = [User(name=n, email=e, admin=a, joined=j).insert(db)
                    for n, e, a, j in rows]
        assert User.select(db) == inserted


def test_dataclasses_field_declares_columns_too(db):
    """A key and a default written with ``dataclasses.field()`` serve as ``column()``'s."""
    try:
        class Tag(Table, table='tags_stdlib_field'):
            label: str = dataclasses.field(metadata={'sql': {'primary_key': True}})
            weight: float = dataclasses.field(default=1.0)

        assert 'id' not in {f.name for f in fields(Tag)}
        assert Tag.__create__ == ('CREATE TABLE "tags_stdlib_field" ("label" TEXT PRIMARY KEY, '
                                  '"weight" REAL NOT NULL)')
        db.execute(Tag.__create__)
        tag = Tag(label='a').insert(db)
        assert Tag.select(db) == [tag] and tag.weight == 1.0
    finally:
        TABLES.pop('tags_stdlib_field', None)
