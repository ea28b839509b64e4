"""Cost per record as the data grows: build a list of N records, frozen and
slotted (int, str, float), from positional arguments, from keyword rows and
nested; mutable slotted (also with ``untrack_atomic=True``, and its assignment)
and plain classes at the largest N; and the pause of a
full ``gc.collect()`` with a million frozen records alive. Ours beside msgspec's
``Struct``, ``@dataclass`` and attrs, interleaved in one process; ratios are
ours / theirs.

    python benchmarks/scale.py                       # the table (two or three minutes)
    python benchmarks/scale.py --sizes 100000        # one size
    python benchmarks/scale.py --json results/scale-py314.json --svg results/scale-py314.svg

``--svg`` draws ns per record against N (both axes logarithmic) for the four.
The ``untrack_atomic=True`` rows set that option on ours only: the peers'
classes are the same as in the mutable slotted row.
"""

import argparse
import dataclasses
import gc
import json
import math
import platform
import statistics
import time
from xml.sax.saxutils import escape

PEERS = ('dataclass', 'Struct', 'attrs')


def contenders(**options):
    """The same three-field record made by each of the four, with ``options``
    (``frozen``, ``slots``): ``{name: class}``; a peer that is not installed
    is left out."""
    from dataclass_meta import DataClass

    frozen, slots = options.get('frozen', False), options.get('slots', False)
    untrack = {'untrack_atomic': True} if options.get('untrack_atomic') else {}

    class Ours(DataClass, frozen=frozen, slots=slots, **untrack):
        a: int
        b: str
        c: float

    @dataclasses.dataclass(frozen=frozen, slots=slots)
    class Std:
        a: int
        b: str
        c: float

    found = {'ours': Ours, 'dataclass': Std}
    try:
        import msgspec
    except ImportError:
        pass
    else:
        if slots:  # a Struct is always slotted
            class Struct(msgspec.Struct, frozen=frozen):
                a: int
                b: str
                c: float
            found['Struct'] = Struct
    try:
        import attrs
    except ImportError:
        pass
    else:
        @attrs.define(frozen=frozen, slots=slots)
        class Attrs:
            a: int
            b: str
            c: float
        found['attrs'] = Attrs
    return found


def nested(records):
    """``{name: make(i)}``: a frozen ``Line`` of two frozen ``Point``s per kind."""
    made = {}
    for name, point in records.items():
        if name == 'ours':
            from dataclass_meta import DataClass

            class Line(DataClass, frozen=True, slots=True):
                start: object
                end: object
        elif name == 'dataclass':
            @dataclasses.dataclass(frozen=True, slots=True)
            class Line:
                start: object
                end: object
        elif name == 'Struct':
            import msgspec

            class Line(msgspec.Struct, frozen=True):
                start: object
                end: object
        else:
            import attrs

            @attrs.frozen
            class Line:
                start: object
                end: object
        made[name] = lambda i, Line=Line, P=point: Line(P(i, 'x', 1.5), P(i, 'y', 2.5))
    return made


def timed(build, n):
    """ns per record to build a list of ``n`` with ``build(i)``, the collector
    running as usual."""
    gc.collect()
    start = time.perf_counter()
    rows = [build(i) for i in range(n)]
    elapsed = time.perf_counter() - start
    del rows
    return elapsed / n * 1e9


def from_rows(cls, n):
    """ns per record to build ``n`` from keyword rows (``cls(**row)``), the rows
    made beforehand."""
    rows = [{'a': i, 'b': 'x', 'c': 1.5} for i in range(n)]
    gc.collect()
    start = time.perf_counter()
    made = [cls(**row) for row in rows]
    elapsed = time.perf_counter() - start
    del made, rows
    return elapsed / n * 1e9


def assignment(cls, n):
    """ns per ``obj.a = i`` on one instance, ``n`` times."""
    obj = cls(0, 'x', 1.5)
    start = time.perf_counter()
    for i in range(n):
        obj.a = i
    return (time.perf_counter() - start) / n * 1e9


def pause(cls, n):
    """ms of a full collection with ``n`` records alive."""
    rows = [cls(i, 'x', 1.5) for i in range(n)]
    gc.collect()
    start = time.perf_counter()
    gc.collect()
    elapsed = time.perf_counter() - start
    del rows
    return elapsed * 1e3


def interleaved(measure, kinds, rounds, pick=min):
    """``{name: pick(samples)}``, the kinds taking turns in each round."""
    samples = {name: [] for name in kinds}
    for _ in range(rounds):
        for name, what in kinds.items():
            samples[name].append(measure(what))
    return {name: pick(values) for name, values in samples.items()}


def measure(sizes, rounds):
    """Every row: ``{label: {name: value}}``, and the per-size builds."""
    frozen = contenders(frozen=True, slots=True)
    rows, curve = {}, {}
    for n in sizes:
        curve[n] = interleaved(lambda cls: timed(lambda i: cls(i, 'x', 1.5), n),
                               frozen, rounds)
        rows[f'frozen slotted, build {n:.0e}'] = curve[n]
    mid, top = min(1_000_000, max(sizes)), max(sizes)
    rows[f'frozen slotted, build {mid:.0e} from keyword rows'] = interleaved(
        lambda cls: from_rows(cls, mid), frozen, rounds)
    rows[f'frozen, build {mid:.0e} Line(Point, Point)'] = interleaved(
        lambda make: timed(make, mid), nested(frozen), rounds)
    rows[f'mutable slotted, build {top:.0e}'] = interleaved(
        lambda cls: timed(lambda i: cls(i, 'x', 1.5), top), contenders(slots=True), rounds)
    opted = contenders(slots=True, untrack_atomic=True)
    rows[f'mutable slotted, untrack_atomic=True, build {top:.0e}'] = interleaved(
        lambda cls: timed(lambda i: cls(i, 'x', 1.5), top), opted, rounds)
    rows['mutable slotted, untrack_atomic=True, obj.a = i'] = interleaved(
        lambda cls: assignment(cls, mid), opted, rounds)
    rows[f'plain (a __dict__), build {top:.0e}'] = interleaved(
        lambda cls: timed(lambda i: cls(i, 'x', 1.5), top), contenders(), rounds)
    rows[f'gc.collect() with {mid:.0e} frozen alive, ms'] = interleaved(
        lambda cls: pause(cls, mid), frozen, rounds, pick=statistics.median)
    return rows, curve


def table(rows, curve):
    names = ['ours', *PEERS]
    lines = ['| row (ns per record) | ' + ' | '.join(names) + ' | '
             + ' | '.join(f'ours / {n}' for n in PEERS) + ' |',
             '|---|' + '---:|' * (2 * len(names) - 1)]
    for label, values in rows.items():
        cells = [f'{values[n]:.1f}' if n in values else '–' for n in names]
        cells += [f'{values["ours"] / values[n]:.2f}' if n in values else '–' for n in PEERS]
        lines.append(f'| {label} | ' + ' | '.join(cells) + ' |')
    sizes = sorted(curve)
    if len(sizes) > 1:  # from 1e5 where measured: smaller lists fit in the caches
        base = 100_000 if 100_000 in curve and sizes[-1] > 100_000 else sizes[0]
        first, last = curve[base], curve[sizes[-1]]
        lines.append('')
        lines.append(f'growth per record, {sizes[-1]:.0e} / {base:.0e}: ' + ', '.join(
            f'{n} {last[n] / first[n]:.2f}' for n in names if n in last))
    return '\n'.join(lines)


COLOURS = {'ours': '#1f77b4', 'dataclass': '#ff7f0e', 'Struct': '#2ca02c', 'attrs': '#9467bd'}


def plot(curve, title):
    """An SVG line chart: ns per record (log) against N (log), one line per kind."""
    sizes = sorted(curve)
    values = [v for n in sizes for v in curve[n].values()]
    lo = 10 ** math.floor(math.log10(min(values)))
    hi = 10 ** math.ceil(math.log10(max(values)))
    left, top, width, height = 60, 50, 460, 280
    x = lambda n: left + width * (math.log(n / sizes[0]) / math.log(sizes[-1] / sizes[0]))  # noqa: E731
    y = lambda v: top + height * (1 - math.log(v / lo) / math.log(hi / lo))  # noqa: E731
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 130}" '
           f'height="{top + height + 50}" font-family="sans-serif" font-size="11">',
           f'<rect width="{left + width + 130}" height="{top + height + 50}" fill="#fff"/>',
           f'<text x="10" y="20" font-size="13">{escape(title)}</text>',
           '<text x="10" y="37" fill="#555">ns per record (log) against records built '
           '(log); flat is a cost that does not grow with the data</text>']
    tick = lo
    while tick <= hi:
        for m in (1, 2, 5):
            v = tick * m
            if lo <= v <= hi:
                out.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{left + width}" '
                           f'y2="{y(v):.1f}" stroke="#ddd"/>')
                out.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" '
                           f'text-anchor="end">{v:g}</text>')
        tick *= 10
    for n in sizes:
        out.append(f'<line x1="{x(n):.1f}" y1="{top}" x2="{x(n):.1f}" y2="{top + height}" '
                   f'stroke="#eee"/>')
        out.append(f'<text x="{x(n):.1f}" y="{top + height + 16}" '
                   f'text-anchor="middle">{n:.0e}</text>')
    ends = []
    for name, colour in COLOURS.items():
        points = [(x(n), y(curve[n][name])) for n in sizes if name in curve[n]]
        if not points:
            continue
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="'
                   + ' '.join(f'{px:.1f},{py:.1f}' for px, py in points) + '"/>')
        for px, py in points:
            out.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3" fill="{colour}"/>')
        label = 'dataclass_meta' if name == 'ours' else \
            '@dataclass' if name == 'dataclass' else name
        ends.append([points[-1][1], colour, label, points[-1][0]])
    ends.sort()
    for above, below in zip(ends, ends[1:]):  # lines that end together: labels apart
        below[0] = max(below[0], above[0] + 13)
    for ly, colour, label, lx in ends:
        out.append(f'<text x="{lx + 8:.1f}" y="{ly + 4:.1f}" fill="{colour}">'
                   f'{escape(label)}</text>')
    out.append('</svg>')
    return '\n'.join(out) + '\n'


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--sizes', type=int, nargs='*',
                        default=[10_000, 100_000, 300_000, 1_000_000, 3_000_000])
    parser.add_argument('--rounds', type=int, default=3)
    parser.add_argument('--json', help='write every figure here')
    parser.add_argument('--svg', help='write the chart of ns per record against N here')
    args = parser.parse_args()
    rows, curve = measure(sorted(args.sizes), args.rounds)
    print(table(rows, curve))
    import dataclass_meta
    python = platform.python_version()
    if args.json:
        with open(args.json, 'w', encoding='utf-8') as out:
            json.dump({'python': python, 'backend': dataclass_meta.BACKEND,
                       'gil': getattr(__import__('sys'), '_is_gil_enabled', lambda: True)(),
                       'rows': rows, 'curve': {str(n): v for n, v in curve.items()}},
                      out, indent=1)
    if args.svg:
        with open(args.svg, 'w', encoding='utf-8') as out:
            out.write(plot(curve, f'Building N frozen slotted records, Python {python}, '
                                  f'dataclass_meta {dataclass_meta.BACKEND}'))


if __name__ == '__main__':
    main()
