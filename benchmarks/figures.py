"""The benchmark figures in the docs, from ``benchmarks/results/``: checked or rewritten.

    python benchmarks/figures.py           # list every figure that disagrees (exit 1)
    python benchmarks/figures.py --write   # rewrite them from the results files

after ``benchmarks/run.py`` has written new results. Two kinds of figure in
``README.md`` and ``docs/*.md``:

- A generated block: the lines between ``<!-- results: FUNCTION TAG... -->`` and
  ``<!-- /results -->`` (a blank line after the one, before the other) are ``report.FUNCTION`` of the runs ``results-TAG.json``
  (``summary``, ``targets`` and ``peers`` take the runs; ``markdown`` takes one).
- A figure in prose, followed by ``<!-- fig: OPERATIONS / CONTENDERS / TAGS -->``
  (each a space-separated list; a tag may end in ``*``): a ratio, or a range
  ``low-high``, of those operations of those contenders in those runs, printed to
  as many decimals as the prose has (``... / min`` or ``/ max``: only that end). An
  operation ``floor:OP`` reads the C API floor of the contender's ``OP``, as the
  tables do.
"""

import fnmatch
import json
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / 'results'
PAGES = ('README.md', 'docs/choosing.md', 'docs/benchmarks.md')

sys.path.insert(0, str(HERE))
import report  # noqa: E402

_BLOCK = re.compile(r'<!-- results: (?P<args>[^>]*?) -->\n\n(?P<body>.*?)\n<!-- /results -->', re.S)
_FIGURE = re.compile(r'(?P<low>\d+(?:\.\d+)?)(?:-(?P<high>\d+(?:\.\d+)?))?(?P<unit>×?)'
                     r'<!-- fig: (?P<spec>[^>]*?) -->')


def runs(tags):
    """The results of ``results-TAG.json`` for each tag (``py3*``: every CPython run)."""
    files = sorted(RESULTS.glob('results-*.json'))
    found = []
    for tag in tags:
        matched = [f for f in files if fnmatch.fnmatch(f.stem[len('results-'):], tag)]
        if not matched:
            raise LookupError(f'no results file for {tag!r}')
        found += [json.loads(f.read_text(encoding='utf-8')) for f in matched]
    return found


def block(args):
    """The text a ``<!-- results: ... -->`` block holds."""
    function, *tags = args.split()
    chosen = runs(tags)
    if function == 'markdown':
        (run,) = chosen
        return report.markdown(run)
    return {'summary': report.summary, 'targets': report.targets_table,
            'peers': report.peers}[function](chosen)


def ratios(spec):
    """Every ratio a ``<!-- fig: ... -->`` names."""
    operations, contenders, tags = (part.split() for part in spec.split('/')[:3])
    values = []
    for run in runs(tags):
        for op in operations:
            for who in contenders:
                if op.startswith('floor:'):
                    value = report.floor_ratio(run, op[len('floor:'):], who)
                else:
                    value = run['operations'].get(op, {}).get('ratio', {}).get(who)
                if value is not None:
                    values.append(value)
    if not values:
        raise LookupError(f'no results for {spec!r}')
    return values


def figure(match):
    """The figure the results give for a ``<!-- fig: ... -->``, printed as the prose does."""
    values = ratios(match['spec'])
    end = match['spec'].split('/')[3:]
    if end:
        values = [{'min': min, 'max': max}[end[0].strip()](values)]
    decimals = len(match['low'].partition('.')[2])
    low, high = (f'{v:.{decimals}f}' for v in (min(values), max(values)))
    return (low if low == high else f'{low}-{high}') + match['unit']


def _printed(match):
    return match['low'] + (f'-{match["high"]}' if match['high'] else '') + match['unit']


def disagreements(text):
    """(what the page says, what the results say) for each figure that differs."""
    found = []
    for m in _BLOCK.finditer(text):
        wanted = block(m['args'])
        if m['body'] != wanted:
            found.append((f'<!-- results: {m["args"]} --> block', 'regenerate it'))
    for m in _FIGURE.finditer(text):
        if _printed(m) != figure(m):
            found.append((f'{_printed(m)} ({m["spec"]})', figure(m)))
    return found


def rewrite(text):
    """``text`` with every block and figure made from the results."""
    text = _BLOCK.sub(lambda m: f'<!-- results: {m["args"]} -->\n\n{block(m["args"])}'
                      '\n<!-- /results -->', text)
    return _FIGURE.sub(lambda m: f'{figure(m)}<!-- fig: {m["spec"]} -->', text)


def main(argv):
    status = 0
    for page in PAGES:
        path = ROOT / page
        text = path.read_text(encoding='utf-8')
        if '--write' in argv:
            path.write_text(rewrite(text), encoding='utf-8')
            continue
        for says, results in disagreements(text):
            print(f'{page}: {says}; the results: {results}')
            status = 1
    return status


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
