"""No metaclass conflict where ``@dataclass`` has none: a ``typing.Protocol`` base,
an enum with a data-class mixin, and ``combined_metaclass`` for any other
metaclass. Each class is declared both ways, ``@dataclasses.dataclass`` beside
``class X(DataClass, ...)``, on each backend, and the two are compared."""

import abc
import dataclasses
import enum
import os
import pickle
import subprocess
import sys
import typing

import pytest
import typing_extensions

from dataclass_meta import DataClass, DataClassMeta, combined_metaclass, fields

PROTOCOLS = [pytest.param(typing.Protocol, id='typing'),
             pytest.param(typing_extensions.Protocol, id='typing_extensions')]


def outcome(action):
    """What ``action()`` gives: its value, or the type and text of its exception."""
    try:
        return 'ok', action()
    except Exception as exc:  # compared, never swallowed: both sides must agree
        return type(exc).__name__, str(exc)


# -- 1. Protocols in a plain class statement -------------------------------------------

def _shapes(protocol, runtime, generic, slots, order):
    """A protocol and a data class implementing it, the stdlib's and ours."""
    T = typing.TypeVar('T')
    bases = (protocol[T],) if generic else (protocol,)

    class Shape(*bases):
        name: str

        def area(self) -> float: ...

    if runtime:
        Shape = typing_extensions.runtime_checkable(Shape)
    implemented = Shape[int] if generic else Shape

    @dataclasses.dataclass(frozen=True, slots=slots)
    class StdSquare(implemented):
        name: str
        side: float = 1.0

        def area(self) -> float:
            return self.side ** 2

    first, second = (implemented, DataClass) if order else (DataClass, implemented)

    class Square(first, second, frozen=True, slots=slots):
        name: str
        side: float = 1.0

        def area(self) -> float:
            return self.side ** 2

    return Shape, StdSquare, Square


@pytest.mark.parametrize('protocol', PROTOCOLS)
@pytest.mark.parametrize('runtime', [True, False], ids=['runtime', 'static'])
@pytest.mark.parametrize('generic', [False, True], ids=['plain', 'generic'])
@pytest.mark.parametrize('order', [False, True], ids=['DataClass-first', 'protocol-first'])
def test_protocol_base_as_with_dataclass(backend, protocol, runtime, generic, order, slots):
    """A data class listing a protocol needs no metaclass, is a data class (not a
    protocol), and answers isinstance and issubclass as the stdlib's does."""
    Shape, StdSquare, Square = _shapes(protocol, runtime, generic, slots, order)
    assert isinstance(Square, DataClassMeta) and dataclasses.is_dataclass(Square)
    assert [f.name for f in fields(Square)] == [f.name for f in dataclasses.fields(StdSquare)]
    s, t = Square('s', 3.0), StdSquare('s', 3.0)
    assert repr(s).replace('Square', 'X') == repr(t).replace('StdSquare', 'X')
    assert s.area() == t.area() == 9.0 and s == Square('s', 3.0) and hash(s) == hash(t)
    assert Square._is_protocol is StdSquare._is_protocol is False
    assert '__protocol_attrs__' not in Square.__dict__
    for check in (lambda C: isinstance(C('s'), Shape), lambda C: issubclass(C, Shape),
                  lambda C: isinstance(3, Shape), lambda C: issubclass(int, Shape),
                  lambda C: isinstance(C('s'), C), lambda C: issubclass(C, C),
                  lambda C: isinstance(3, C), lambda C: issubclass(int, C)):
        assert outcome(lambda: check(Square)) == outcome(lambda: check(StdSquare))


@pytest.mark.parametrize('protocol', PROTOCOLS)
def test_protocol_attributes_are_not_fields(backend, protocol):
    """A protocol's annotations are its members, never fields: only the class's own."""
    class HasName(protocol):
        name: str
        tags: list

    @dataclasses.dataclass
    class StdUser(HasName):
        name: str

    class User(DataClass, HasName):
        name: str

    assert [f.name for f in fields(User)] == [f.name for f in dataclasses.fields(StdUser)]
    assert outcome(lambda: User('a', [])) == outcome(lambda: StdUser('a', []))[:1] + (
        outcome(lambda: StdUser('a', []))[1].replace('StdUser', 'User'),)


@pytest.mark.parametrize('protocol', PROTOCOLS)
def test_protocol_itself_among_the_bases_is_refused(protocol):
    """``Protocol`` itself beside ``DataClass`` (a protocol that is a data class) is
    refused, naming the class and the remedy; typing refuses the stdlib's
    equivalent, a protocol whose base is a data class."""
    with pytest.raises(TypeError, match='^Protocols can only inherit from other protocols'):
        @dataclasses.dataclass
        class Std:
            x: int

        class StdP(Std, protocol):
            pass
    for bases in [(DataClass, protocol), (protocol, DataClass)]:
        with pytest.raises(TypeError) as info:
            class P(*bases):
                x: int
        assert str(info.value) == (
            "data class 'P' cannot be a protocol (Protocol among its bases): to implement "
            "a protocol, list that protocol instead of Protocol, class P(DataClass, "
            "TheProtocol); to declare one, leave the data classes out of its bases")


@pytest.mark.parametrize('protocol', PROTOCOLS)
def test_protocol_base_keeps_option_errors(protocol):
    """Bad options raise what they raise without the protocol (or ``Generic``)."""
    T = typing.TypeVar('T')

    class Shape(protocol):
        def area(self) -> float: ...

    for options in [dict(order=True, eq=False), dict(frozn=True)]:
        errors = []
        for bases in [(DataClass,), (DataClass, Shape), (Shape, DataClass),
                      (DataClass, typing.Generic[T])]:
            with pytest.raises((TypeError, ValueError)) as info:
                class C(*bases, **options):
                    x: int
            errors.append(str(info.value))
        assert errors == errors[:1] * 4


def test_combined_metaclass_keeps_its_init_past_the_protocol_metaclass():
    """typing_extensions' protocol metaclass calls ``ABCMeta.__init__`` directly;
    a combined metaclass's ``__init__`` (and ``__eq__``/``__hash__``) still runs."""
    import typing_extensions  # noqa: F401 (adopted)

    class PluginMeta(type):
        def __init__(cls, *args, **kwargs):
            super().__init__(*args, **kwargs)
            cls.registered = True

    class Meta(DataClassMeta, PluginMeta):
        pass

    class P(DataClass, metaclass=Meta):
        x: int

    assert P.registered and P(1).x == 1


def test_no_protocol_metaclass_method_on_our_classes():
    """``isinstance``, ``issubclass``, ``hash`` and ``==`` of our classes stay
    ABCMeta's and type's (their speed too): the protocol metaclass's are for
    protocols, which no data class is."""
    mro = DataClassMeta.__mro__
    assert typing._ProtocolMeta in mro
    for name in ('__instancecheck__', '__subclasscheck__', '__init__', '__eq__', '__hash__'):
        mine = next(k.__dict__[name] for k in mro if name in k.__dict__)
        theirs = next(k.__dict__[name] for k in abc.ABCMeta.__mro__ if name in k.__dict__)
        assert mine is theirs, name


def _run(code):
    env = dict(os.environ, PYTHONWARNINGS='error')
    return subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                          env=env, check=True, cwd=os.path.dirname(__file__)).stdout.split()


def test_importing_the_package_does_not_import_typing():
    """typing's protocol metaclass is adopted when typing is imported, not before
    (the package's import does not pay for typing); a protocol base then works,
    and typing keeps its own loader. Where ``dataclasses`` imports typing itself
    (its ``inspect`` does on later 3.13 releases), it is adopted at once."""
    out = _run(
        'import sys, dataclasses\n'
        "print('typing' in sys.modules)\n"
        'import dataclass_meta\n'
        'from dataclass_meta import DataClass, DataClassMeta\n'
        "print('typing' in sys.modules, DataClassMeta.__bases__[0].__name__)\n"
        'import typing\n'
        'class Shape(typing.Protocol):\n'
        '    def area(self) -> float: ...\n'
        'class Square(DataClass, Shape):\n'
        '    side: float\n'
        "print(DataClassMeta.__bases__[0].__name__, type(typing.__loader__).__name__,"
        " Square(2).side)\n")
    by_dataclasses = out[0] == 'True'
    assert out[1:3] == [out[0], '_ProtocolMeta' if by_dataclasses else 'ABCMeta']
    assert out[3:] == ['_ProtocolMeta', 'SourceFileLoader', '2']


def test_a_protocol_module_imported_later_is_adopted_once_it_has_run():
    """The finder on sys.meta_path adopts typing_extensions' protocol metaclass
    (its own before 3.14, typing's after) once its module has run, on every
    Python whatever imported typing, and leaves once nothing is awaited."""
    out = _run(
        'import sys\n'
        'from dataclass_meta import DataClass, DataClassMeta, _protocols\n'
        "print('typing_extensions' in sys.modules)\n"
        'import typing, typing_extensions\n'
        'class Shape(typing_extensions.Protocol):\n'
        '    def area(self) -> float: ...\n'
        'class Square(DataClass, Shape):\n'
        '    side: float\n'
        'print(DataClassMeta.__bases__[0] is type(typing_extensions.Protocol),'
        ' type(typing_extensions.__loader__).__name__, Square(2).side,'
        ' any(type(f) is _protocols._Watcher for f in sys.meta_path))\n')
    assert out == ['False', 'True', 'SourceFileLoader', '2', 'False']


def test_typing_imported_first_is_adopted_at_once():
    """Where typing was imported before the package, nothing waits for it."""
    out = _run('import typing, sys\n'
               'import dataclass_meta\n'
               'from dataclass_meta import _protocols\n'
               'print(dataclass_meta.DataClassMeta.__bases__[0].__name__,'
               ' any(type(f) is _protocols._Watcher for f in sys.meta_path)'
               " == ('typing_extensions' not in sys.modules))\n")
    assert out == ['_ProtocolMeta', 'True']


# -- 2. Enums with data-class members ----------------------------------------------------

ENUM_META = combined_metaclass(enum.EnumMeta)


def _std_creatures(frozen, slots):
    """The enum HOWTO's ``Creature``, with a ``@dataclass`` mixin."""
    @dataclasses.dataclass(frozen=frozen, slots=slots)
    class StdData:
        size: str
        legs: int
        tail: bool = dataclasses.field(repr=False, default=True)

    class StdCreature(StdData, enum.Enum):
        BEETLE = 'small', 6
        DOG = 'medium', 4

    return StdData, StdCreature


def _creatures(frozen, slots):
    """The enum HOWTO's ``Creature``, with a ``DataClass`` mixin."""
    class Data(DataClass, frozen=frozen, slots=slots):
        size: str
        legs: int
        tail: bool = dataclasses.field(repr=False, default=True)

    class Creature(Data, enum.Enum, metaclass=ENUM_META):
        BEETLE = 'small', 6
        DOG = 'medium', 4

    return Data, Creature


def _seen(data, creature):
    """What a user sees of the enum, with the class names made alike."""
    dog = creature.DOG
    checks = {
        'members': lambda: [(m.name, repr(m.value)) for m in creature],
        'repr': lambda: repr(dog), 'str': lambda: str(dog), 'format': lambda: format(dog),
        'value': lambda: repr(dog.value), 'legs': lambda: dog.legs,
        'by value': lambda: creature(data('medium', 4)) is dog,
        'by name': lambda: creature['DOG'] is dog,
        'pickled': lambda: pickle.loads(pickle.dumps(dog)) is dog,
        'pickled, protocol 2': lambda: pickle.loads(pickle.dumps(dog, 2)) is dog,
        'eq': lambda: (dog == creature.DOG, dog == creature.BEETLE, dog == dog.value),
        'hash': lambda: hash(dog) == hash(creature.DOG),
        'is_dataclass': lambda: dataclasses.is_dataclass(dog),
        'asdict': lambda: dataclasses.asdict(dog),
        'fields': lambda: [f.name for f in dataclasses.fields(dog)],
        'setattr': lambda: setattr(dog, 'legs', 5),
        'isinstance': lambda: (isinstance(dog, data), isinstance(dog, enum.Enum)),
        'new member': lambda: creature('tiny', 8),
    }
    names = {data.__name__: 'Data', creature.__name__: 'Creature'}
    seen = {}
    for key, check in checks.items():
        result = repr(outcome(check))
        for name, alike in names.items():
            result = result.replace(name, alike)
        seen[key] = result.replace('_std_creatures', '_creatures')
    return seen


@pytest.mark.parametrize('frozen', [False, True], ids=['mutable', 'frozen'])
def test_enum_with_data_class_mixin_as_with_dataclass(backend, frozen, slots):
    """The HOWTO's pattern: members, values, repr, lookups, pickling and errors
    are those of the ``@dataclass`` version (3.12+ shows
    ``<Creature.DOG: size='medium', legs=4>``)."""
    Data, Creature = _creatures(frozen, slots)
    try:
        std = _std_creatures(frozen, slots)
    except TypeError:  # before 3.14 the re-created class's frozen __setattr__ fails
        assert frozen and slots and sys.version_info < (3, 14)
        std = _std_creatures(frozen, False)
    assert _seen(Data, Creature) == _seen(*std)
    assert isinstance(Creature, enum.EnumMeta) and issubclass(Creature, enum.Enum)
    assert '__dataclass_fields__' not in Creature.__dict__  # the enum is not built
    assert '__init__' not in Creature.__dict__
    if sys.version_info >= (3, 12):
        assert repr(Creature.DOG) == "<Creature.DOG: size='medium', legs=4>"


def test_enum_takes_no_data_class_options():
    """Options on the enum itself are refused: they belong to the mixin."""
    class Data(DataClass):
        x: int

    with pytest.raises(TypeError) as info:
        class E(Data, enum.Enum, metaclass=ENUM_META, frozen=True):
            A = 1
    assert str(info.value) == ("enum 'E' is not a data class itself, so it takes no "
                               "data-class options (frozen): give them to its data-class mixin")


def test_hand_made_enum_metaclass_is_the_same():
    """``class M(DataClassMeta, EnumType)`` written by hand also makes enums, not data classes."""
    class M(DataClassMeta, enum.EnumMeta):
        pass

    class Data(DataClass):
        x: int

    class E(Data, enum.Enum, metaclass=M):
        A = 1

    assert E(E.A.value) is E.A and E.A.x == 1 and '__dataclass_fields__' not in E.__dict__


# -- 3. Any other metaclass ---------------------------------------------------------------

class PluginMeta(type):
    """A registry's metaclass, with its own ``__call__`` (counts instances)."""

    classes = []

    def __new__(mcls, name, bases, namespace, /, **kwargs):
        cls = super().__new__(mcls, name, bases, namespace, **kwargs)
        mcls.classes.append(cls)
        return cls

    def __call__(cls, *args, **kwargs):
        cls.made = getattr(cls, 'made', 0) + 1
        return super().__call__(*args, **kwargs)


class Plugin(metaclass=PluginMeta):
    def __init_subclass__(cls, /, *, plugin=None, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.plugin = plugin


def test_combined_metaclass_in_one_line(backend, slots):
    """A data class under another library's base: both metaclasses act, and the
    options and the library's keyword both arrive."""
    meta = combined_metaclass(PluginMeta)
    assert meta is combined_metaclass(PluginMeta)  # cached
    assert meta.__mro__[1:3] == (DataClassMeta, *DataClassMeta.__mro__[1:2])
    assert meta.__name__ == 'DataClassMeta_PluginMeta' and meta.__module__ == 'dataclass_meta'

    class Exporter(DataClass, Plugin, metaclass=meta, plugin='csv', frozen=True, slots=slots):
        path: str

    assert Exporter('a.csv') == Exporter('a.csv') and Exporter.made == 2
    assert PluginMeta.classes[-1] is Exporter and Exporter.plugin == 'csv'
    with pytest.raises(dataclasses.FrozenInstanceError):
        Exporter('a').path = 'b'


def test_combined_metaclass_leaves_out_what_it_has():
    """A metaclass ``DataClassMeta`` derives from adds nothing; a subclass of ours
    takes its place."""
    class Framework(DataClassMeta):
        pass

    assert combined_metaclass() is DataClassMeta
    assert combined_metaclass(type, abc.ABCMeta, typing._ProtocolMeta) is DataClassMeta
    assert combined_metaclass(Framework) is Framework
    both = combined_metaclass(Framework, PluginMeta)
    assert both.__bases__ == (Framework, PluginMeta)


@pytest.mark.parametrize('argument, message', [
    (3, 'combined_metaclass() takes metaclasses (subclasses of type), not 3'),
    (Plugin, "combined_metaclass() takes metaclasses (subclasses of type), not "
             "<class 'tests.test_metaclass_conflicts.Plugin'>: pass its metaclass, "
             "combined_metaclass(type(Plugin))"),
])
def test_combined_metaclass_refuses_what_is_not_a_metaclass(argument, message):
    with pytest.raises(TypeError) as info:
        combined_metaclass(argument)
    assert str(info.value) == message


def test_combined_metaclass_refuses_two_calls():
    """Two metaclasses that each define ``__call__`` (here a registry's and the
    enum lookup) cannot share classes: calling one runs only one of them."""
    with pytest.raises(TypeError) as info:
        combined_metaclass(PluginMeta, enum.EnumMeta)
    assert str(info.value) == (
        f'cannot combine DataClassMeta, PluginMeta, {enum.EnumMeta.__name__} into one '
        f'metaclass: PluginMeta and {enum.EnumMeta.__name__} each define __call__, and '
        f'calling a class runs only one: derive a metaclass from them by hand, with a '
        f'__call__ that decides')


def test_combined_metaclass_refuses_an_inconsistent_order():
    """Metaclasses whose orders of their bases disagree have no MRO together."""
    class A(type):
        pass

    class B(type):
        pass

    AB, BA = type('AB', (A, B), {}), type('BA', (B, A), {})
    with pytest.raises(TypeError) as info:
        combined_metaclass(AB, BA)
    assert str(info.value).startswith(
        'cannot combine DataClassMeta, AB, BA into one metaclass: cannot create a '
        'consistent method resolution order (MRO) for bases')
    assert str(info.value).endswith(': derive one by hand, in an order Python accepts')
