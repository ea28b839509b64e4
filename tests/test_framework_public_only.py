"""The example frameworks use dataclass_meta's public names and nothing else."""

import ast
import pathlib

import pytest

import dataclass_meta

ROOT = pathlib.Path(__file__).parent.parent
EXAMPLES = sorted((ROOT / 'examples' / 'frameworks').glob('*.py'))
FRAMEWORK_TESTS = sorted((ROOT / 'tests').glob('test_framework_*.py'))


def public(name):
    """In ``__all__``, or a module dunder such as ``__all__`` and ``__version__``."""
    return name in dataclass_meta.__all__ or (name.startswith('__') and name.endswith('__'))


def private_uses(source):
    """Each use of dataclass_meta beyond its public names in ``source``, described."""
    found = []
    aliases = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith('dataclass_meta.'):
                    found.append(f'import {alias.name}')
                elif alias.name == 'dataclass_meta':
                    aliases.add(alias.asname or alias.name)
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith('dataclass_meta.'):
                found.append(f'from {node.module} import ...')
            elif node.module == 'dataclass_meta':
                found.extend(f'from dataclass_meta import {alias.name}'
                             for alias in node.names
                             if not public(alias.name))
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in aliases and not public(node.attr)):
            found.append(f'{node.value.id}.{node.attr}')
    return found


def test_there_are_three_example_frameworks():
    """The guide's three worked examples exist."""
    assert {p.stem for p in EXAMPLES} >= {'validated_models', 'table_registry', 'json_codec'}


@pytest.mark.parametrize('path', EXAMPLES + FRAMEWORK_TESTS, ids=lambda p: p.name)
def test_only_public_names(path):
    """No ``dataclass_meta._x`` module and no name outside ``__all__``."""
    assert private_uses(path.read_text(encoding='utf-8')) == []


@pytest.mark.parametrize('source', [
    'from dataclass_meta._fields import FIELD',
    'import dataclass_meta._meta',
    'from dataclass_meta import DataClass, _options',
    'from dataclass_meta import *',
    'import dataclass_meta as dm\nx = dm._meta',
    'import dataclass_meta\nx = dataclass_meta._fields.FIELD',
    'from dataclass_meta import LazyDoc',
])
def test_the_check_catches_private_uses(source):
    """Each way of reaching past the public surface is reported."""
    assert private_uses(source) != []
