"""Rewrite CPython's dataclass tests so that they define ``DataClass`` subclasses.

The transformation, on the module's AST (line numbers kept, so tracebacks point at
the original source):

- ``@dataclass``, ``@dataclass(...)``, ``@dataclasses.dataclass`` and
  ``@dataclasses.dataclass(...)`` as the innermost decorator of a class become
  class keywords: ``class C(<bases>, metaclass=shim.build, <options>):``, and
  ``shim.build`` makes it ``class C(DataClass, <bases>, <options>)`` (see there).
  Only the options the decorator names are passed (the rest are inherited, as a
  ``DataClass`` user would write it).
- ``from dataclasses import ...`` takes the names ``dataclass_meta`` exports from
  it instead, and ``dataclass`` from ``shim`` (for calls such as ``dataclass(C)``);
  ``from dataclasses import *`` is followed by importing those names from ``shim``.
- ``dataclasses.<name>`` for those names reads ``shim.<name>``; every other
  attribute (``dataclasses.MISSING``, private helpers) stays the stdlib's.
"""

import ast
import dataclasses

import dataclass_meta

SHIM = 'tests.conformance.shim'
_SHIM_NAME = '_dm_shim'      # single underscores: no name mangling in class bodies
# Names the tests get from us: the stdlib's public names we have too, and the
# decorator (``shim.dataclass``).
OURS = frozenset(dataclass_meta.__all__).intersection(dataclasses.__all__) | {'dataclass'}
# Ours but the very stdlib objects: left alone. (``Field`` is swapped: our
# fields are our subclass, which ``type(f) is Field`` must find.)
_SAME_OBJECTS = frozenset({'MISSING', 'KW_ONLY', 'InitVar', 'FrozenInstanceError'})
SWAPPED = OURS - _SAME_OBJECTS


def rewrite(source, filename):
    """The rewritten module as an AST, ready for ``compile``."""
    tree = ast.parse(source, filename)
    tree = _Rewriter().visit(tree)
    _prepend_imports(tree)
    return ast.fix_missing_locations(tree)


def _is_dataclass_name(node):
    return ((isinstance(node, ast.Name) and node.id == 'dataclass')
            or (isinstance(node, ast.Attribute) and node.attr == 'dataclass'
                and isinstance(node.value, ast.Name) and node.value.id == 'dataclasses'))


def decorator_options(node):
    """The class keywords for a ``dataclass`` decorator, or None if it is none."""
    if _is_dataclass_name(node):
        return []
    if isinstance(node, ast.Call) and _is_dataclass_name(node.func) and not node.args:
        return list(node.keywords)
    return None


class _Rewriter(ast.NodeTransformer):

    def visit_ClassDef(self, node):
        self.generic_visit(node)  # nested classes (and their decorators) first
        if node.decorator_list:
            options = decorator_options(_original(node.decorator_list[-1]))
            if options is not None:
                decorator = node.decorator_list.pop()
                build = ast.Attribute(ast.Name(_SHIM_NAME, ast.Load()), 'build', ast.Load())
                for keyword in node.keywords:
                    if keyword.arg == 'metaclass':
                        keyword.arg = '_dm_metaclass'
                node.keywords[:0] = [ast.copy_location(ast.keyword('metaclass', build),
                                                       decorator)]
                node.keywords.extend(options)
        return node

    def visit_Attribute(self, node):
        self.generic_visit(node)
        if (isinstance(node.value, ast.Name) and node.value.id == 'dataclasses'
                and node.attr in SWAPPED and isinstance(node.ctx, ast.Load)):
            shim = ast.copy_location(ast.Name(_SHIM_NAME, ast.Load()), node.value)
            new = ast.copy_location(ast.Attribute(shim, node.attr, ast.Load()), node)
            new._dm_original = node
            return new
        return node

    def visit_ImportFrom(self, node):
        if node.module != 'dataclasses' or node.level:
            return node
        if any(alias.name == '*' for alias in node.names):
            ours = ast.ImportFrom(SHIM, [ast.alias(name) for name in sorted(SWAPPED)], 0)
            return [node, ast.copy_location(ours, node)]
        theirs = [a for a in node.names if a.name not in SWAPPED]
        ours = [a for a in node.names if a.name in SWAPPED]
        result = []
        if theirs:
            result.append(ast.copy_location(ast.ImportFrom('dataclasses', theirs, 0), node))
        if ours:
            result.append(ast.copy_location(ast.ImportFrom(SHIM, ours, 0), node))
        return result


def _original(node):
    """The decorator as written (before ``dataclasses.dataclass`` was swapped)."""
    if isinstance(node, ast.Call):
        func = getattr(node.func, '_dm_original', node.func)
        return ast.Call(func, node.args, node.keywords)
    return getattr(node, '_dm_original', node)


def _prepend_imports(tree):
    """``import shim as _dm_shim``, after the docstring and ``__future__`` imports."""
    at = 0
    body = tree.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        at = 1
    while at < len(body) and isinstance(body[at], ast.ImportFrom) \
            and body[at].module == '__future__':
        at += 1
    lineno = body[at].lineno if at < len(body) else 1
    new = ast.parse(f'import {SHIM} as {_SHIM_NAME}\n').body
    for stmt in new:
        for n in ast.walk(stmt):
            if hasattr(n, 'lineno'):
                n.lineno = n.end_lineno = lineno
                n.col_offset = n.end_col_offset = 0
    body[at:at] = new
