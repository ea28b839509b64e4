"""The package's modules stand in layers: each imports only from its own layer or
the ones below, and no chain of imports leads back to where it started.

Read from the source (every ``import`` of the package, at the top of a module or
inside a function), so an import made late to step around a cycle counts too.
"""

import ast
import os
import sys

import pytest

import dataclass_meta

PACKAGE = os.path.dirname(dataclass_meta.__file__)  # the checkout's, or an installed one

# Bottom to top; docs/guide.md ("How it is built") describes the same table.
LAYERS = [
    ('helpers', {'_options', '_suggest', '_getters', '_interop', '_relabel', '_templates',
                 '_cache_hash', '_cached_property', '_protocols'}),
    ('pipeline', {'_fields', '_convert', '_plan', '_field_hook', '_pydantic', '_travel'}),
    ('pure methods', {'_init', '_signature', '_callrules', '_methods', '_replace',
                      '_class_attrs', '_asdict', '_wire'}),
    ('backends', {'_backend'}),
    ('metaclass', {'_meta'}),
    ('public functions', {'_functions', '_combine'}),
    ('package', {'__init__', '__main__', '_about', 'mypy_plugin'}),
]
LAYER_OF = {module: i for i, (_, modules) in enumerate(LAYERS) for module in modules}


def modules():
    return sorted(name[:-3] for name in os.listdir(PACKAGE) if name.endswith('.py'))


def imports_of(module):
    """The package's Python modules that ``module`` imports, anywhere in it."""
    with open(os.path.join(PACKAGE, module + '.py'), encoding='utf-8') as f:
        tree = ast.parse(f.read())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:  # from . import x / from .x import y
                found.update([node.module] if node.module else [a.name for a in node.names])
            elif node.module and node.module.startswith('dataclass_meta'):
                rest = node.module.partition('.')[2]
                found.update([rest] if rest else [a.name for a in node.names])
        elif isinstance(node, ast.Import):
            found.update(a.name.partition('.')[2] for a in node.names
                         if a.name.startswith('dataclass_meta.'))
    return {name for name in found if os.path.exists(os.path.join(PACKAGE, name + '.py'))}


def test_every_module_has_a_layer():
    assert set(modules()) == set(LAYER_OF)


@pytest.mark.parametrize('module', modules())
def test_no_module_imports_upwards(module):
    above = {name for name in imports_of(module) if LAYER_OF[name] > LAYER_OF[module]}
    assert not above, f'{module} ({LAYERS[LAYER_OF[module]][0]}) imports {sorted(above)}'


def test_no_import_cycle():
    graph = {module: imports_of(module) for module in modules()}
    done, path = set(), []

    def visit(module):
        if module in path:
            cycle = path[path.index(module):] + [module]
            raise AssertionError('import cycle: ' + ' -> '.join(cycle))
        if module in done:
            return
        path.append(module)
        for name in sorted(graph[module]):
            visit(name)
        path.pop()
        done.add(module)
    for module in graph:
        visit(module)


def test_the_check_sees_a_cycle_and_a_late_import(tmp_path, monkeypatch):
    """The reader finds imports inside functions; a cycle through one fails."""
    (tmp_path / 'a.py').write_text('from . import b\n')
    (tmp_path / 'b.py').write_text('def f():\n    from .a import x\n')
    this = sys.modules[__name__]
    monkeypatch.setattr(this, 'PACKAGE', str(tmp_path))
    monkeypatch.setattr(this, 'modules', lambda: ['a', 'b'])
    assert imports_of('b') == {'a'}
    with pytest.raises(AssertionError, match='import cycle: a -> b -> a'):
        test_no_import_cycle()
