"""The example frameworks under ``from __future__ import annotations``.

Every annotation is a string here; the frameworks resolve them with
``typing.get_type_hints``, in this module's namespace.
"""

from __future__ import annotations

import datetime
import pathlib
import sqlite3
import sys
from contextlib import closing
from typing import ClassVar, Optional

import pytest

from dataclass_meta import fields

sys.path.insert(0, str(pathlib.Path(__file__).parent.parent / 'examples' / 'frameworks'))
from json_codec import DecodeError, JSONModel  # noqa: E402
from table_registry import Table, column  # noqa: E402
from validated_models import FrozenModel, Model, ValidationError, check  # noqa: E402


class Node(Model):
    label: str
    children: list[Node] = check(default_factory=list)
    count: ClassVar[int] = 0


class Span(FrozenModel):
    start: datetime.date
    days: int = check(default=1, converter=int)
    end: Optional[datetime.date] = None


class Event(Table, table='future_events'):
    title: str = column(unique=True)
    when: Optional[datetime.datetime] = None


class Message(JSONModel, rename='camel'):
    sent_at: datetime.datetime
    replies: list[Message] = check(default_factory=list)  # any Field subclass works


def test_validated_models_resolve_string_annotations():
    """Self-references and ClassVar strings are understood."""
    tree = Node('root', [Node('leaf')])
    assert [f.name for f in fields(Node)] == ['label', 'children']
    with pytest.raises(ValidationError, match=r"field 'children' of 'Node' expects list\[Node\]"):
        Node('root', ['leaf'])
    assert tree.children[0].label == 'leaf'
    span = Span(datetime.date(2024, 1, 1), '3')
    assert span.days == 3 and span.end is None
    with pytest.raises(ValidationError, match="field 'start' of 'Span' expects date"):
        Span('2024-01-01')


def test_table_registry_resolves_string_annotations():
    """Column types come from the resolved annotations."""
    assert Event.__create__ == ('CREATE TABLE "future_events" ("id" INTEGER PRIMARY KEY, '
                                '"title" TEXT NOT NULL UNIQUE, "when" TEXT)')
    with closing(sqlite3.connect(':memory:')) as db:
        db.execute(Event.__create__)
        event = Event(title='launch', when=datetime.datetime(2024, 5, 1, 9)).insert(db)
        assert Event.select(db) == [event]


def test_json_codec_resolves_string_annotations():
    """Recursive models decode through string annotations."""
    message = Message(datetime.datetime(2024, 1, 1), [Message(datetime.datetime(2024, 1, 2))])
    assert Message.from_json(message.to_json()) == message
    with pytest.raises(DecodeError,
                       match=r"Message.replies\[0\].sentAt: expected datetime, got integer 1"):
        Message.from_json('{"sentAt": "2024-01-01T00:00:00", "replies": [{"sentAt": 1}]}')
