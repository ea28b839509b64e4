"""Run the code examples of Markdown files and check the output they show.

Convention (also in docs/guide.md, "Examples in these docs"):

- Every fenced block tagged ``python`` runs, in order, in one namespace per file, as
  ``__main__`` of a fresh interpreter (so definitions carry from block to block).
- A block whose first line starts with ``>>>`` is a doctest session: its shown
  output, tracebacks included, must match (``...`` elides, whitespace is normalised).
- In other blocks, an expression statement whose line ends with ``# -> text``
  must have ``repr(value) == text``.
- ``<!-- not run: reason -->`` on the line before a fence skips that block; the
  reason is required. ``<!-- python >= 3.14 -->`` there runs it on 3.14+ only;
  ``<!-- needs: cloudpickle -->`` only where that module imports (cloudpickle
  3.1 does not on PyPy 3.11). Blocks in other languages (``sh``, ``console``,
  ``text``) never run.

``python tests/doc_examples.py FILE`` prints a JSON list of results, one per
block: ``[file, line, status, detail]`` with status ``ok``, ``skipped`` or
``failed``. It runs in a subprocess of the test suite because running examples
needs ``exec``, which ``tests/test_no_exec.py`` watches for in its own process.
"""

import ast
import contextlib
import doctest
import io
import json
import re
import sys
import traceback
import types

_FENCE = re.compile(r'^(`{3,})\s*(\w*)\s*$')
_SKIP = re.compile(r'^<!--\s*not run:\s*(\S.*?)\s*-->\s*$')
_ONLY = re.compile(r'^<!--\s*python\s*>=\s*(\d+)\.(\d+)\s*-->\s*$')
_NEEDS = re.compile(r'^<!--\s*needs:\s*([\w.]+)\s*-->\s*$')


def _imports(module):
    """Whether ``module`` imports here (not only whether it is installed)."""
    try:
        __import__(module)
    except Exception:
        return False
    return True
_SHOWN = re.compile(r'#\s*->\s*(.+?)\s*$')


def blocks(text):
    """(first line number, language, source, skip reason) of each fenced block."""
    lines = text.splitlines()
    found, i = [], 0
    while i < len(lines):
        match = _FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        fence, language = match.groups()
        before = lines[i - 1] if i else ''
        skip, only, needs = _SKIP.match(before), _ONLY.match(before), _NEEDS.match(before)
        if only and sys.version_info < tuple(map(int, only.groups())):
            skip = only  # reported as 'python >= 3.14'
        elif needs and not _imports(needs.group(1)):
            skip = needs  # reported as 'needs: cloudpickle'
        end = i + 1
        while end < len(lines) and lines[end].strip() != fence:
            end += 1
        found.append((i + 2, language, '\n'.join(lines[i + 1:end]) + '\n',
                      skip.group(0).strip('<!-> ') if skip else None))
        i = end + 1
    return found


def run_block(source, namespace, name):
    """Run one block; return None, or what went wrong."""
    if source.lstrip().startswith('>>>'):
        return _run_doctest(source, namespace, name)
    tree = ast.parse(source, name)
    lines = source.splitlines()
    for node in tree.body:
        shown = _SHOWN.search(lines[node.end_lineno - 1])
        if isinstance(node, ast.Expr) and shown:
            value = eval(compile(ast.Expression(node.value), name, 'eval'), namespace)
            if repr(value) != shown.group(1):
                return (f'line {node.lineno} of the block: {repr(value)} '
                        f'!= shown {shown.group(1)}')
        else:
            exec(compile(ast.Module([node], []), name, 'exec'), namespace)
    return None


def _run_doctest(source, namespace, name):
    parser = doctest.DocTestParser()
    test = parser.get_doctest(source, namespace, name, name, 0)
    test.globs = namespace  # shared with the file's other blocks, not copied
    out = io.StringIO()
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test, out=out.write, clear_globs=False)
    return out.getvalue() or None


def run_file(path):
    with open(path, encoding='utf-8') as f:
        text = f.read()
    module = types.ModuleType('__main__')
    sys.modules['__main__'] = module
    namespace = module.__dict__
    results = []
    for line, language, source, skip in blocks(text):
        if language != 'python':
            continue
        if skip is not None:
            results.append([path, line, 'skipped', skip])
            continue
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # keep stdout for the JSON
                problem = run_block(source, namespace, f'{path}:{line}')
        except BaseException:  # noqa: BLE001 - reported, with its traceback
            problem = traceback.format_exc(limit=-3)
        results.append([path, line, 'failed' if problem else 'ok', problem or ''])
    return results


if __name__ == '__main__':
    (path,) = sys.argv[1:]
    print(json.dumps(run_file(path)))
