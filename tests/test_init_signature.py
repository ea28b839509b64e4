"""What ``__init__`` and the class show of themselves: ``inspect.signature``,
``__init__.__annotations__`` and the class's lazy ``__doc__``, as the stdlib's."""

import dataclasses
import inspect
import sys
import typing

import pytest

import dataclass_meta
from dataclass_meta import KW_ONLY, DataClass, DataClassMeta, field

# Classes defined inside a test use each backend in turn (tests/conftest.py).
pytestmark = pytest.mark.usefixtures('backend')


# -- the signature and annotations ---------------------------------------------------

@pytest.mark.skipif(sys.version_info < (3, 14), reason='3.14+: __init__.__annotate__')
def test_init_annotate_carries_the_stdlibs_marker():
    """``__init__.__annotate__.__generated_by_dataclasses__`` is true, as the stdlib's."""
    class C(DataClass):
        a: int

    @dataclasses.dataclass
    class S:
        a: int

    assert C.__init__.__annotate__.__generated_by_dataclasses__ is True
    assert S.__init__.__annotate__.__generated_by_dataclasses__ is True


def test_signature_and_annotations_look_hand_written():
    """``__init__`` has a name, qualname, module, signature and annotations."""
    class C(DataClass):
        x: int
        y: list = field(default_factory=list)

    init = C.__init__
    assert init.__name__ == '__init__'
    assert init.__qualname__.endswith('C.__init__')
    assert init.__module__ == __name__
    assert str(inspect.signature(C)) == '(x: int, y: list = <factory>) -> None'
    assert typing.get_type_hints(init) == {'x': int, 'y': list, 'return': type(None)}


def test_init_signature_and_annotations_match_stdlib():
    """``inspect.signature`` and ``__init__.__annotations__`` as the stdlib has them."""
    def spec(lib):
        return {'__annotations__': {'self': int, 'x': 'list[int]', 'y': str, '_': KW_ONLY,
                                    'z': float},
                'y': 'a', 'z': lib.field(default=0.5)}

    Ours = type('C', (DataClass,), {'__module__': __name__, **spec(dataclass_meta)})
    Theirs = dataclasses.dataclass(type('C', (), spec(dataclasses)))
    assert str(inspect.signature(Ours)) == str(inspect.signature(Theirs))
    assert str(inspect.signature(Ours.__init__)) == str(inspect.signature(Theirs.__init__))
    assert list(inspect.signature(Ours.__init__).parameters)[0] == '__dataclass_self__'
    annotations = Ours.__init__.__annotations__
    assert annotations['self'] is int and annotations['return'] is None
    assert annotations['x'] == 'list[int]'  # the string, as the stdlib keeps it
    assert typing.get_type_hints(Ours.__init__)['x'] == list[int]


def test_init_signature_names_self():
    """``__init__``'s first parameter is ``self`` unless a field takes that name."""
    class C(DataClass):
        x: int

    assert str(inspect.signature(C.__init__)) == '(self, x: int) -> None'


def test_private_sentinel_never_leaks_into_signature():
    """The template's padding is invisible: the signature is the fields'."""
    import inspect

    class C(DataClass):
        x: int
        y: int = 0

    assert str(inspect.signature(C)) == '(x: int, y: int = 0) -> None'


def test_lazy_signature_is_a_full_signature():
    """The deferred ``__signature__`` reads, compares, hashes, pickles like the stdlib's."""
    import inspect
    import pickle

    class C(DataClass):
        x: int
        y: 'list[int]' = field(default_factory=list)
        z: int = field(default=3, kw_only=True)

    @dataclasses.dataclass
    class S:
        x: int
        y: 'list[int]' = dataclasses.field(default_factory=list)
        z: int = dataclasses.field(default=3, kw_only=True)

    ours, theirs = inspect.signature(C.__init__), inspect.signature(S.__init__)
    assert isinstance(C.__init__.__signature__, inspect.Signature)
    assert ours == theirs and hash(ours) == hash(theirs) and str(ours) == str(theirs)
    assert str(inspect.signature(C)) == str(inspect.signature(S))
    assert str(ours.replace(return_annotation=int)).endswith('-> int')
    empty = inspect.Signature(return_annotation=None)
    assert pickle.loads(pickle.dumps(ours.replace(parameters=[]))) == empty
    assert repr(ours) == repr(theirs)
    assert C.__doc__ == 'C' + str(inspect.signature(S)).replace(' -> None', '')


def test_signature_set_or_deleted_is_the_users():
    """Setting or deleting ``__init__.__signature__`` works as on a function; a
    generated closure ``__init__`` then no longer counts as generated
    (``replace()`` calls it by keyword), on either backend. (An ``init=False``
    field with a factory: no relabelled template, which is a real function.)"""
    import inspect

    from dataclass_meta import replace
    from dataclass_meta._signature import is_generated_init

    class C(DataClass):
        x: int
        y: list = field(init=False, default_factory=list)

    class D(DataClass):
        x: int
        y: list = field(init=False, default_factory=list)

    assert is_generated_init(C.__init__, C) and is_generated_init(D.__init__, D)
    assert not is_generated_init(C.__init__, D)  # made for another class
    P = inspect.Parameter
    mine = inspect.Signature([P('self', P.POSITIONAL_ONLY), P('x', P.KEYWORD_ONLY)])
    C.__init__.__signature__ = mine
    assert C.__init__.__signature__ is mine and C.__init__.__dict__['__signature__'] is mine
    assert str(inspect.signature(C)) == '(*, x)'
    assert not is_generated_init(C.__init__, C)
    assert replace(C(1), x=2) == C(2)
    del D.__init__.__signature__
    assert '__signature__' not in D.__init__.__dict__
    assert not is_generated_init(D.__init__, D)
    with pytest.raises(AttributeError):
        del D.__init__.__signature__
    assert replace(D(1), x=2) == D(2)


# -- the class's __doc__ --------------------------------------------------------------

@pytest.mark.skipif(sys.version_info < (3, 14), reason='3.14+: deferred annotations')
def test_docstring_reads_annotations_when_first_read():
    """A name bound after the class (``x: list[C]``) shows as what it names when
    ``__doc__`` is first read, as 3.15's lazy docstring does."""
    class C(DataClass):
        x: list[C]  # noqa: F821 - C is bound once the class exists

    assert C.__doc__ == f'C(x: list[{C.__module__}.{C.__qualname__}])'


def test_init_false_docstring_and_signature_as_the_stdlib():
    """Without a generated ``__init__``, ``__doc__``, ``inspect.signature`` and
    ``help`` show what the stdlib's show (on PyPy, where reading the class's
    text signature reads ``__doc__``, they once recursed forever)."""
    import pydoc

    @dataclasses.dataclass(init=False)
    class C:
        x: int = 1

    std_doc, std_sig = C.__doc__, inspect.signature(C)

    class C(DataClass, init=False):
        x: int = 1

    assert (C.__doc__, inspect.signature(C)) == (std_doc, std_sig)
    assert std_doc in pydoc.render_doc(C, renderer=pydoc.plaintext)


def test_docstring_read_while_it_is_computed_is_none():
    """A ``__doc__`` read from inside the signature rendering that computes it
    sees ``None``, as the stdlib's class does while its docstring is made."""
    seen = []

    class Meta(type):
        @property
        def __signature__(cls):
            seen.append(cls.__doc__)
            return None

    @dataclasses.dataclass
    class S(metaclass=Meta):
        x: int

    class OurMeta(DataClassMeta, Meta):
        pass

    class C(metaclass=OurMeta):
        x: int

    try:
        std_doc = S.__doc__
    except RecursionError:
        # 3.15 makes the stdlib's docstring on first read, with no guard for a
        # read from inside: it recurses. Ours keeps the answer earlier
        # releases give (they made it eagerly): ``None`` inside, then the text.
        std_doc = 'S(x: int)'
        seen.append(None)
    assert C.__doc__ == 'C' + std_doc[1:]
    assert seen == [None, None]


def test_lazy_doc_and_explicit_doc():
    """``__doc__`` is the stdlib's text signature, computed on demand; a docstring wins."""
    class C(DataClass):
        x: int
        y: str = 'a'
        _: KW_ONLY
        z: list = field(default_factory=list)

    @dataclasses.dataclass
    class D:
        x: int
        y: str = 'a'
        _: KW_ONLY
        z: list = field(default_factory=list)

    assert C.__doc__ == 'C' + D.__doc__[1:] and C.__doc__ == C.__doc__

    class E(DataClass):
        """Mine."""
        x: int

    assert E.__doc__ == 'Mine.'


def test_doc_when_the_signature_cannot_be_read():
    """``__doc__`` falls back to the bare class name, as the stdlib's does."""
    class C(DataClass):
        x: int
        __signature__ = 'not a signature'

    assert C.__doc__ == 'C'
