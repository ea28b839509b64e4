"""Constructor calls that must be errors: arity, keywords, missing fields, types."""
from dataclass_meta import KW_ONLY, DataClass, field


class Point(DataClass):
    x: int
    y: int = 0
    _: KW_ONLY
    label: str = ''


class Bag(DataClass, kw_only=True):
    items: list[int] = field(default_factory=list)
    owner: str


Point(1, 2)
Point(1, 2, label='a')
Point(x=1)
Point(1, 2, 3)  # E: too many positional arguments
Point(1, 2, 'a')  # E: label is keyword-only (KW_ONLY)
Point()  # E: missing the required field x
Point(1, z=3)  # E: unexpected keyword z
Point('1')  # E: x is an int
Point(1, label=2)  # E: label is a str
Bag(owner='me', items=[1])
Bag(owner='me')
Bag([1], owner='me')  # E: kw_only=True makes every field keyword-only
Bag(items=[1])  # E: missing the required field owner
Bag(owner='me', items=['a'])  # E: items is a list[int]


class Wrong(DataClass):
    items: list[int] = field(default_factory=dict)  # E: the factory makes a dict
    name: str = field(default=0)  # E: the default is an int
