"""The contenders: one "kit" per library and flavour, each building the same classes.

Every kit turns a class description into Python source, so all contenders are
defined by an ordinary class statement, exactly as a user would write them (the
benchmarks may exec; the package never does). A peer that is not installed is
simply absent: ``kits()`` returns what this interpreter can run.
"""

import builtins
import dataclasses
import sys
import types

# The shapes every kit builds (name, fields, docstring). A field is
# (name, default source or None, default_factory source or None).
P_FIELDS = [('a', None, None), ('b', None, None), ('c', None, None),
            ('d', None, None), ('e', '0', None)]          # 5 ints, one default
D_FIELDS = [('a', None, None), ('b', None, None), ('c', '3', None),
            ('d', '4', None), ('e', '5', None)]           # defaults omitted in calls
F_FIELDS = [('a', None, None), ('b', None, None), ('c', None, 'list')]
PARENT_FIELDS = [('name', None, None), ('children', None, None)]


def int_fields(n):
    return [(f'f{i}', None, None) for i in range(n)]


def runtime_named(fields):
    """``fields`` renamed at run time (``a`` -> ``a_rt``), as names read from a
    schema or built by code are: strings that, unlike names written in source,
    Python has not interned."""
    return [(''.join([name, '_rt']), default, factory) for name, default, factory in fields]


class Kit:
    """A contender: ``source()`` writes a class; ``ns`` holds what it needs."""

    name = label = ref = ''
    frozen = slots = False
    ns = {}
    fields = None  # fields(instance) -> its fields, or None: the kit sits that one out
    operations = None  # the operation keys the kit takes part in; None: all it can do

    def header(self, name):
        raise NotImplementedError

    def factory(self, src):
        raise NotImplementedError

    def source(self, name, fields, doc=None, base=None):
        lines = [*self.header(name, base)]
        if doc:
            lines.append(f'    """{doc}"""')
        for fname, default, factory in fields:
            ann = 'list' if factory else ('object' if fname in ('name', 'children') else 'int')
            if factory:
                lines.append(f'    {fname}: {ann} = {self.factory(factory)}')
            elif default is not None:
                lines.append(f'    {fname}: {ann} = {default}')
            else:
                lines.append(f'    {fname}: {ann}')
        if len(lines) == 1 + bool(doc):
            lines.append('    pass')
        return '\n'.join(lines)

    def module(self):
        """A real module per kit, so that its classes pickle."""
        name = f'_bench_{self.name}'
        if name not in sys.modules:
            sys.modules[name] = types.ModuleType(name)
            vars(sys.modules[name]).update(self.ns)
        return sys.modules[name]

    def build(self, name, fields, doc=None, base=None):
        """The class itself, defined in the kit's module."""
        ns = vars(self.module())
        ns['Base'] = base
        exec(self.source(name, fields, doc, 'Base' if base is not None else None), ns)
        return ns[name]

    def made(self, name, fields):
        """The class made by the kit's ``make_dataclass`` (LookupError: it has none)."""
        raise LookupError

    def caller(self, fields):
        """A function that makes the class from a namespace dict on every call, by
        a metaclass call or its equivalent (LookupError: the kit has none)."""
        raise LookupError

    def maker(self, fields, doc=None, base=None):
        """A function that runs the class statement again on every call."""
        body = self.source('C', fields, doc, 'Base' if base is not None else None)
        src = 'def make():\n' + '\n'.join('    ' + line for line in body.splitlines())
        src += '\n    return C'
        ns = dict(self.ns, **({'Base': base} if base is not None else {}))
        exec(src, ns)
        return ns['make']


def _namespace(fields):
    """A class namespace as a class body would leave it: annotations, defaults."""
    return {'__module__': __name__, '__qualname__': 'C',
            '__annotations__': {name: int for name, _, _ in fields},
            **{name: int(default) for name, default, _ in fields if default is not None}}


def _made(make_dataclass, field, kit, name, fields):
    """``make_dataclass(name, ...)`` for the kit's fields and options."""
    specs = []
    for fname, default, factory in fields:
        if factory:
            specs.append((fname, list, field(default_factory=getattr(builtins, factory))))
        elif default is not None:
            specs.append((fname, int, int(default)))
        else:
            specs.append((fname, object if fname in ('name', 'children') else int))
    return make_dataclass(name, specs, order=True, frozen=kit.frozen, slots=kit.slots)


class DataClassMetaKit(Kit):
    """``dataclass_meta`` on its active backend (compiled when built), or with
    ``pure=True`` on the pure-Python closures: those classes are made while the
    factories are switched to their pure versions, so both run in one process
    against the same ``@dataclass`` reference."""

    def __init__(self, frozen=False, slots=False, pure=False, gc=True):
        import dataclass_meta
        self.frozen, self.slots, self.pure, self.gc = frozen, slots, pure, gc
        flavour = ('_frozen' if frozen else '') + ('_slots' if slots else '')
        self.name = ('dm_pure' if pure else 'dm') + flavour + ('' if gc else '_nogc')
        backend = 'pure' if pure else dataclass_meta.BACKEND
        self.label = (f'dataclass_meta ({backend})' + (' frozen' if frozen else '')
                      + (' slots' if slots else '') + ('' if gc else ' gc=False'))
        self.ref = 'std' + flavour
        if frozen and slots or not gc:  # the flavours only msgspec's rows need
            self.operations = MSGSPEC_OPERATIONS[frozen, gc]
        self.ns = {'DataClass': dataclass_meta.DataClass, 'field': dataclass_meta.field}
        self.asdict, self.astuple = dataclass_meta.asdict, dataclass_meta.astuple
        if pure:
            self.asdict, self.astuple = _on_pure(self.asdict), _on_pure(self.astuple)
        self.replace = dataclass_meta.replace
        self.fields = dataclass_meta.fields
        if pure:
            from dataclass_meta import _functions
            self.fields = _functions.fields

    def header(self, name, base):
        opts = ', order=True' + (', frozen=True' if self.frozen else '') + (
            ', slots=True' if self.slots else '') + ('' if self.gc else ', gc=False')
        return [f'class {name}({base or "DataClass"}{opts}):']

    def factory(self, src):
        return f'field(default_factory={src})'

    def build(self, name, fields, doc=None, base=None):
        with _pure_factories(self.pure):
            return super().build(name, fields, doc, base)

    def build_source(self, source, name):
        """The class ``name`` that ``source`` (a class statement over ``DataClass``)
        defines, on this kit's backend: for rows that need options of ours."""
        import functools
        ns = dict(vars(self.module()), functools=functools)
        with _pure_factories(self.pure):
            exec(source, ns)
        return ns[name]

    def made(self, name, fields):
        import dataclass_meta
        with _pure_factories(self.pure):
            return _made(dataclass_meta.make_dataclass, dataclass_meta.field, self, name, fields)

    def caller(self, fields):
        from dataclass_meta import DataClass, DataClassMeta
        namespace = _namespace(fields)
        options = {'order': True, 'frozen': self.frozen, 'slots': self.slots}

        def make():
            return DataClassMeta('C', (DataClass,), dict(namespace), **options)
        if not self.pure:
            return make
        from dataclass_meta._backend import PURE, use

        def make_pure():
            with use(PURE):
                return make()
        return make_pure

    def maker(self, fields, doc=None, base=None):
        make = super().maker(fields, doc, base)
        if not self.pure:
            return make
        from dataclass_meta._backend import PURE, use

        def make_pure():  # a context variable set and reset: nothing next to ~30 µs
            with use(PURE):
                return make()
        return make_pure


def _on_pure(function):
    """``function`` run with the pure backend (asdict/astuple follow ``use``)."""
    from dataclass_meta._backend import PURE, use

    def on_pure(obj):  # a context variable set and reset: ~0.2 µs next to ~10 µs
        with use(PURE):
            return function(obj)
    return on_pure


def _floors():
    from floors import load
    return load()


def _compiled_active():
    import dataclass_meta
    return dataclass_meta.BACKEND == 'compiled'


class _pure_factories:
    """While active (and ``on``), classes are made with the pure backend."""

    def __init__(self, on):
        self.on = on

    def __enter__(self):
        if self.on:
            from dataclass_meta._backend import PURE, use
            self.context = use(PURE)
            self.context.__enter__()

    def __exit__(self, *exc):
        if self.on:
            self.context.__exit__(*exc)


class StdlibKit(Kit):
    def __init__(self, frozen=False, slots=False):
        self.frozen, self.slots = frozen, slots
        self.name = 'std' + ('_frozen' if frozen else '') + ('_slots' if slots else '')
        self.label = '@dataclass' + (' frozen' if frozen else '') + (' slots' if slots else '')
        if frozen and slots:  # the reference of msgspec's frozen rows only
            self.operations = MSGSPEC_OPERATIONS[True, True]
        self.ref = self.name
        self.ns = {'dataclasses': dataclasses}
        self.asdict, self.astuple = dataclasses.asdict, dataclasses.astuple
        self.replace = dataclasses.replace
        self.fields = dataclasses.fields

    def header(self, name, base):
        opts = 'order=True' + (', frozen=True' if self.frozen else '') + (
            ', slots=True' if self.slots else '')
        return [f'@dataclasses.dataclass({opts})', f'class {name}{f"({base})" if base else ""}:']

    def factory(self, src):
        return f'dataclasses.field(default_factory={src})'

    def made(self, name, fields):
        return _made(dataclasses.make_dataclass, dataclasses.field, self, name, fields)

    def caller(self, fields):
        namespace = _namespace(fields)
        decorate = dataclasses.dataclass(order=True, frozen=self.frozen, slots=self.slots)

        def make():
            return decorate(type('C', (), dict(namespace)))
        return make


class FloorKit(StdlibKit):
    """The public C API's floor (``floors.c``): the stdlib's class of the same
    flavour, constructed, compared, hashed and formatted by the least work C code
    can do on this Python (allocation and generic stores; generic reads), for the
    operations where a C implementation goes through the generic attribute API."""

    operations = frozenset({'init_pos', 'init_kw', 'init_defaults', 'init_factory',
                            'eq', 'lt', 'hash', 'repr'})

    def __init__(self, floors, frozen=False, slots=False):
        super().__init__(frozen, slots)
        self.floors = floors
        self.name = self.name.replace('std', 'floor', 1)
        self.label = 'C API floor' + self.label[len('@dataclass'):]
        self.asdict = self.astuple = self.replace = self.fields = None

    def build(self, name, fields, doc=None, base=None):
        """The floor's constructor: called like the class, it makes instances of
        the stdlib's class with the floor's methods."""
        cls = super().build(name, fields, doc, base)
        names = tuple(fname for fname, _, _ in fields)
        for kind in ('eq', 'lt', 'repr') + (('hash',) if self.frozen else ()):
            setattr(cls, f'__{kind}__', self.floors.method(kind, cls, names))
        defaults = tuple(int(default) for _, default, _ in fields if default is not None)
        factory = next((getattr(builtins, f) for _, _, f in fields if f), None)
        return self.floors.init(cls, names, defaults, factory)


class _Metaclass(type):
    """A metaclass that does nothing: what any class with a metaclass costs."""


class MetaclassFloorKit(StdlibKit):
    """The floor of constructing any class that has a metaclass: ``@dataclass``'s
    own ``__init__`` on a class whose metaclass is a do-nothing ``type``
    subclass. CPython specialises a class call only when the metaclass is
    ``type`` itself (3.11+: the call enters ``__init__``'s frame directly);
    any other goes through ``type.__call__``, which costs this much more,
    whatever ``__init__`` does. ``DataClassMeta`` is such a metaclass."""

    operations = frozenset({'init_pos', 'init_kw', 'init_defaults', 'init_factory'})

    def __init__(self, slots=False):
        super().__init__(slots=slots)
        self.name = self.name.replace('std', 'metafloor', 1)
        self.label = 'metaclass floor' + self.label[len('@dataclass'):]
        self.ns = dict(self.ns, Metaclass=_Metaclass)
        self.asdict = self.astuple = self.replace = self.fields = None

    def header(self, name, base):
        deco, _ = super().header(name, base)
        return [deco, f'class {name}({f"{base}, " if base else ""}metaclass=Metaclass):']


class AttrsKit(Kit):
    def __init__(self, frozen=False):
        import attrs
        self.frozen, self.slots = frozen, True
        self.name = 'attrs_frozen' if frozen else 'attrs'
        self.label = 'attrs.frozen' if frozen else 'attrs.define'
        self.ref = 'std_frozen' if frozen else 'std'
        self.ns = {'attrs': attrs}
        self.asdict, self.astuple, self.replace = attrs.asdict, attrs.astuple, attrs.evolve

    def header(self, name, base):
        deco = 'frozen' if self.frozen else 'define'
        return [f'@attrs.{deco}(order=True)', f'class {name}{f"({base})" if base else ""}:']

    def factory(self, src):
        return f'attrs.field(factory={src})'


# The operations of the slotted flavours that only the rows against msgspec's
# ``Struct`` need, by (frozen, gc): frozen construction, ``==`` and hash; the
# construction of ``gc=False`` classes.
MSGSPEC_OPERATIONS = {(True, True): frozenset({'init_pos', 'init_kw', 'eq', 'hash', 'replace'}),
                      (False, False): frozenset({'init_pos', 'init_kw'})}


class MsgspecKit(Kit):
    name, label, ref = 'msgspec', 'msgspec.Struct', 'std'
    slots = True

    def __init__(self, frozen=False, gc=True):
        import msgspec
        import msgspec.structs
        self.frozen, self.gc = frozen, gc
        if frozen or not gc:
            self.name += '_frozen' if frozen else '_nogc'
            self.label += ' frozen' if frozen else ' gc=False'
            self.ref = 'std_frozen' if frozen else 'std'
            self.operations = MSGSPEC_OPERATIONS[frozen, gc]
        self.ns = {'msgspec': msgspec}
        self.asdict = msgspec.to_builtins          # recursive, like asdict
        self.astuple = None                        # msgspec has no recursive astuple
        self.replace = msgspec.structs.replace
        self.fields = msgspec.structs.fields

    def header(self, name, base):
        opts = (', frozen=True' if self.frozen else '') + ('' if self.gc else ', gc=False')
        return [f'class {name}({base or "msgspec.Struct"}, order=True{opts}):']

    def factory(self, src):
        return f'msgspec.field(default_factory={src})'


class HandWrittenKit(Kit):
    """A plain ``__slots__`` class with the methods written out: the pure-Python limit."""

    name, label, ref = 'hand', 'hand-written __slots__', 'std'
    slots = True

    def __init__(self):
        self.ns = {}
        self.asdict = lambda obj: obj._asdict()
        self.astuple = lambda obj: obj._astuple()
        self.replace = lambda obj, **changes: obj._replace(**changes)

    def source(self, name, fields, doc=None, base=None):
        names = [f[0] for f in fields]
        params = []
        for fname, default, factory in fields:
            params.append(f'{fname}=None' if factory else
                          f'{fname}={default}' if default is not None else fname)
        lines = [f'class {name}{f"({base})" if base else ""}:']
        if doc:
            lines.append(f'    """{doc}"""')
        lines.append(f'    __slots__ = {tuple(names)!r}')
        lines.append(f'    def __init__(self, {", ".join(params)}):' if params else
                     '    def __init__(self):')
        for fname, default, factory in fields:
            if factory:
                lines.append(f'        self.{fname} = {factory}() if {fname} is None else {fname}')
            else:
                lines.append(f'        self.{fname} = {fname}')
        if not fields:
            lines.append('        pass')
        own = ', '.join(f'{n}={{self.{n}!r}}' for n in names)
        lines.append('    def __repr__(self):')
        lines.append(f'        return f"{{type(self).__qualname__}}({own})"')
        mine = ''.join(f'self.{n},' for n in names)
        theirs = ''.join(f'other.{n},' for n in names)
        lines.append('    def __eq__(self, other):')
        lines.append('        if other.__class__ is self.__class__:')
        lines.append(f'            return ({mine}) == ({theirs})')
        lines.append('        return NotImplemented')
        lines.append('    def __lt__(self, other):')
        lines.append('        if other.__class__ is self.__class__:')
        lines.append(f'            return ({mine}) < ({theirs})')
        lines.append('        return NotImplemented')
        lines.append('    def __hash__(self):')
        lines.append(f'        return hash(({mine}))')
        lines.append('    def _astuple(self):')
        lines.append(f'        return tuple(v._astuple() if hasattr(v, "_astuple") else '
                     f'[x._astuple() for x in v] if type(v) is list else v for v in ({mine}))')
        lines.append('    def _asdict(self):')
        items = ', '.join(f'{n!r}: self.{n}' for n in names)
        lines.append(f'        d = {{{items}}}')
        lines.append('        for k, v in d.items():')
        lines.append('            if type(v) is list: d[k] = [x._asdict() for x in v]')
        lines.append('        return d')
        lines.append('    def _replace(self, **changes):')
        lines.append(f'        return type(self)(**{{{items}, **changes}})')
        return '\n'.join(lines)


def kits(floors=True):
    """Every contender this interpreter can run, references (stdlib) first;
    with ``floors``, the C API's floors where they can be built."""
    found = [StdlibKit(), StdlibKit(frozen=True), StdlibKit(slots=True),
             DataClassMetaKit(), DataClassMetaKit(frozen=True), DataClassMetaKit(slots=True)]
    if _compiled_active():  # the pure closures as their own column beside the compiled
        found += [DataClassMetaKit(pure=True), DataClassMetaKit(frozen=True, pure=True),
                  DataClassMetaKit(slots=True, pure=True)]
    module = _floors() if floors else None
    if module is not None:
        found += [FloorKit(module), FloorKit(module, frozen=True), FloorKit(module, slots=True)]
    if floors:
        found += [MetaclassFloorKit(), MetaclassFloorKit(slots=True)]
    for make in (AttrsKit, lambda: AttrsKit(frozen=True), MsgspecKit, HandWrittenKit):
        try:
            found.append(make())
        except ImportError:  # a peer that is not installed is left out
            pass
    if any(kit.name == 'msgspec' for kit in found):
        # msgspec's frozen and gc=False Structs, and our slotted classes with the
        # same options (both backends) to set against them.
        found += [StdlibKit(frozen=True, slots=True), MsgspecKit(frozen=True),
                  MsgspecKit(gc=False), DataClassMetaKit(frozen=True, slots=True),
                  DataClassMetaKit(slots=True, gc=False)]
        if _compiled_active():
            found += [DataClassMetaKit(frozen=True, slots=True, pure=True),
                      DataClassMetaKit(slots=True, gc=False, pure=True)]
    return found

