"""Writing a benchmark run out: a markdown table, a JSON file and an SVG bar chart.

    python benchmarks/report.py summary results-py3*.json   # the README's table
    python benchmarks/report.py targets results-py3*.json   # every target, per run
    python benchmarks/report.py svg results-py3*.json       # the README's chart
    python benchmarks/report.py peers results-py3*.json     # docs/choosing.md's table

``benchmarks/figures.py --write`` puts the tables, and the figures the docs quote,
into the docs from the results files.
"""

import json
import os
from xml.sax.saxutils import escape

COLUMNS = ['dm', 'dm_frozen', 'dm_slots', 'dm_frozen_slots', 'dm_slots_nogc',
           'floor', 'floor_frozen', 'floor_slots', 'metafloor', 'metafloor_slots',
           'dm_pure', 'dm_pure_frozen', 'dm_pure_slots', 'dm_pure_frozen_slots',
           'dm_pure_slots_nogc', 'std_frozen', 'std_slots', 'std_frozen_slots',
           'attrs', 'attrs_frozen', 'msgspec', 'msgspec_frozen', 'msgspec_nogc', 'hand']


def _time(seconds):
    if seconds >= 1e-3:
        return f'{seconds * 1e3:.2f} ms'
    if seconds >= 1e-6:
        return f'{seconds * 1e6:.1f} µs'
    return f'{seconds * 1e9:.0f} ns'


def markdown(results):
    info = results['machine']
    contenders = results['contenders']
    cols = [c for c in COLUMNS if c in contenders]
    versions = ', '.join(f'{k} {v}' for k, v in info['versions'].items())
    lines = [
        f'### Python {info["python"]} ({info["implementation"]})', '',
        f'Machine: {info["cpu"]}, {info["cpus"]} CPUs, {info["platform"]}. '
        f'Versions: {versions}. Backend: {info.get("backend", "pure")}'
        f'{" (the pure closures: the dm_pure columns)" if info.get("backend") == "compiled" else ""}'
        f'. {results["rounds"]} interleaved rounds'
        f'{" (quick setting)" if results["quick"] else ""}.', '',
        'Each cell is the median of the per-round ratio *contender / its stdlib '
        'reference* (same flavour: plain, frozen or slots; attrs.define, msgspec and the '
        'hand-written class against plain `@dataclass`, their frozen flavours against '
        'frozen). Lower is faster; the `@dataclass` column gives its absolute time.', '',
        '| operation | `@dataclass` | ' + ' | '.join(contenders[c]['label'] for c in cols) + ' |',
        '|---|---:|' + '---:|' * len(cols),
    ]
    for key, op in results['operations'].items():
        std = op['seconds'].get('std')
        cells = [f'{op["ratio"][c]:.2f}' if c in op['ratio'] else '—' for c in cols]
        std_time = _time(std) if std else '—'
        lines.append(f'| {op["label"]} | {std_time} | ' + ' | '.join(cells) + ' |')
    mem = results['memory']
    lines.append(f'| memory per instance (bytes, 5 ints) | {mem.get("std", "—")} | '
                 + ' | '.join(str(mem.get(c, '—')) for c in cols) + ' |')
    lines += pickle_table(results) + travel_table(results)
    lines += ['', '| import (fresh processes, `-X importtime`) | median ms | over `dataclasses`: '
              'fastest runs | paired median |', '|---|---:|---:|---:|']
    for m, ms in results['import_ms'].items():
        extra = results['import_extra_ms'].get(m, {})
        lines.append(f'| `import {m}` | {ms:.1f} | {extra.get("fastest", 0):+.1f} | '
                     f'{extra.get("paired_median", 0):+.1f} |')
    lines += ['', '| class creation | ' + ' | '.join(
        f'{a} {n}' for a, row in (('fields', results['scaling']['fields']),
                                  ('depth', results['scaling']['depth']))
        for n in next(iter(row.values()))) + ' | growth (fields / depth) |',
        '|---|' + '---:|' * (sum(len(next(iter(r.values())))
                                 for r in (results['scaling']['fields'],
                                           results['scaling']['depth'])) + 1)]
    for who in results['scaling']['fields']:
        cells = [_time(t) for axis in ('fields', 'depth')
                 for t in results['scaling'][axis][who].values()]
        exps = results['scaling']['exponent']
        lines.append(f'| {contenders[who]["label"]} | ' + ' | '.join(cells)
                     + f' | {exps["fields"][who]:.2f} / {exps["depth"][who]:.2f} |')
    lines += ['', 'Growth (fields / depth): least-squares slope of log(time) on log(size), '
              'sizes from 10; 1.0 is linear, 2.0 quadratic.',
              '', '| target | measured | bound | met | C API floor | metaclass floor |',
              '|---|---:|---:|:---:|---:|---:|']
    for t in results['targets']:
        ratio = '—' if t['ratio'] is None else f'{t["ratio"]:.2f}'
        met = '—' if t['met'] is None else ('yes' if t['met'] else '**no**')
        floor, meta = ('—' if t.get(k) is None else f'{t[k]:.2f}'
                       for k in ('floor', 'metaclass_floor'))
        lines.append(f'| {t["name"]} ({t["contender"]}) | {ratio} | {t["bound"]} | {met} '
                     f'| {floor} | {meta} |')
    return '\n'.join(lines) + '\n'


def against_msgspec(done, who, measure):
    """In a run's ``pickle_instances``: ``who``'s median seconds (``dumps``,
    ``loads``) or bytes over msgspec's Struct's, or None."""
    values = done['bytes'] if measure == 'bytes' else done[measure]['seconds']
    if who in values and 'msgspec' in values:
        return values[who] / values['msgspec']
    return None


def pickle_table(results):
    """Markdown lines: pickle of a list of instances, each contender's time and
    bytes, against its stdlib reference (the per-round ratio) and msgspec's
    Struct (the ratio of medians); none for a run without the section."""
    done = results.get('pickle_instances')
    if not done:
        return []
    fmt = lambda ratio: '—' if ratio is None else f'{ratio:.2f}'  # noqa: E731
    head = ' | '.join(f'{m} | / stdlib | / msgspec'
                      for m in ('dumps', 'loads', 'bytes per instance'))
    lines = ['', f'| `pickle`, a list of {done["instances"]:,} instances, 3 fields, protocol '
                 f'{done["protocol"]} | {head} |', '|---|' + '---:|' * 9]
    for who, size in done['bytes'].items():
        ref = results['contenders'][who]['ref']
        cells = []
        for measure in ('dumps', 'loads'):
            cells += [_time(done[measure]['seconds'][who]), fmt(done[measure]['ratio'].get(who)),
                      fmt(against_msgspec(done, who, measure))]
        cells += [f'{size:.1f}', fmt(size / done['bytes'][ref] if ref in done['bytes'] else None),
                  fmt(against_msgspec(done, who, 'bytes'))]
        lines.append(f'| {results["contenders"][who]["label"]} | ' + ' | '.join(cells) + ' |')
    return lines


def travel_table(results):
    """Markdown lines: a class sent by value (cloudpickle) against the same class
    defined locally, per backend; none for a run without the section."""
    done = results.get('travel')
    if not done:
        return []
    backends = list(done)
    lines = ['', '| travelled class (cloudpickle, by value) / local | '
             + ' | '.join(f'{b} (local time)' for b in backends) + ' |',
             '|---|' + '---:|' * len(backends)]
    for key, row in done[backends[0]].items():
        cells = [f'does not arrive: {done[b][key]["error"]}' if 'error' in done[b][key]
                 else f'{done[b][key]["ratio"]:.2f} ({_time(done[b][key]["seconds"]["local"])})'
                 for b in backends]
        lines.append(f'| {row["label"]} | ' + ' | '.join(cells) + ' |')
    return lines


def svg(results):
    """Horizontal bars: dataclass_meta / stdlib per operation, log scale, 1.0 marked."""
    ops = results['operations']
    names = ['dm', 'dm_frozen', 'dm_slots']
    bounds = {(t['operation'], t['contender']): t['bound'] for t in results['targets']}
    rows = [(op['label'], [(op['ratio'].get(n), bounds.get((key, n))) for n in names])
            for key, op in ops.items()]
    legend = [results['contenders'].get(n, {}).get('label', n) for n in names]
    return bar_chart(f'dataclass_meta / @dataclass, Python {results["machine"]["python"]}',
                     rows, legend)


COLOURS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b']


def bar_chart(title, rows, legend, note='log scale, lower is faster; red: target'):
    """Horizontal bars on a log scale, 1.0 marked. ``rows``: (label, [(ratio or
    None, target or None) per series]); ``legend``: a label per series. The
    margins follow the longest label and the title, so nothing is cut off."""
    import math
    n = len(legend)
    if n > len(COLOURS):
        raise ValueError(f'{n} series, {len(COLOURS)} colours')
    char = 6.2  # the width of an 11 px sans-serif character, roughly
    bar, gap, top, width = 7, 8, 56, 420
    left = 20 + int(char * max(len(label) for label, _ in rows))
    height = top + len(rows) * (n * bar + gap) + 60
    lo, hi = 0.02, 10.0
    x = lambda r: left + width * (math.log(r / lo) / math.log(hi / lo))  # noqa: E731
    steps = [24 + int(char * len(label)) for label in legend]
    total = max(left + width + 40, 20 + int(char * 1.2 * len(title)),
                20 + int(char * len(note)), left + sum(steps))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{total}" '
           f'height="{height}" font-family="sans-serif" font-size="11">',
           f'<rect width="{total}" height="{height}" fill="#fff"/>',
           f'<text x="10" y="20" font-size="13">{escape(title)}</text>',
           f'<text x="10" y="37" fill="#555">{escape(note)}</text>']
    for tick in (0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10):
        out.append(f'<line x1="{x(tick):.1f}" y1="{top - 5}" x2="{x(tick):.1f}" '
                   f'y2="{height - 50}" stroke="{"#000" if tick == 1 else "#ddd"}"/>')
        out.append(f'<text x="{x(tick):.1f}" y="{height - 38}" text-anchor="middle">{tick}</text>')
    y = top
    for label, cells in rows:
        out.append(f'<text x="{left - 6}" y="{y + n * bar / 2 + 4}" text-anchor="end">'
                   f'{escape(label)}</text>')
        for colour, (value, bound) in zip(COLOURS, cells):
            if value is not None:
                w = max(1.0, x(min(max(value, lo), hi)) - left)
                out.append(f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar - 1}" '
                           f'fill="{colour}"><title>{value:.2f}</title></rect>')
                if value > hi:  # off the scale: its number at the bar's end
                    out.append(f'<text x="{left + w + 3:.1f}" y="{y + bar - 1}" '
                               f'font-size="9">{value:.1f}</text>')
            if bound is not None:  # the target, as a red tick across the bar
                out.append(f'<line x1="{x(bound):.1f}" y1="{y - 1}" x2="{x(bound):.1f}" '
                           f'y2="{y + bar}" stroke="#d62728" stroke-width="2"/>')
            y += bar
        y += gap
    legend_x = left
    for colour, label, step in zip(COLOURS, legend, steps):
        out.append(f'<rect x="{legend_x}" y="{height - 22}" width="10" height="10" '
                   f'fill="{colour}"/>')
        out.append(f'<text x="{legend_x + 14}" y="{height - 13}">{escape(label)}</text>')
        legend_x += step
    out.append('</svg>')
    return '\n'.join(out) + '\n'


def write_reports(results, directory):
    tag = 'py' + ''.join(results['machine']['python'].split('.')[:2])
    if results['machine'].get('implementation') == 'PyPy':
        tag = 'pypy' + tag[2:]  # beside CPython's results of the same version
    paths = []
    for ext, text in (('json', json.dumps(results, indent=1, default=str)),
                      ('md', markdown(results)), ('svg', svg(results))):
        path = os.path.join(directory, f'results-{tag}.{ext}')
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        paths.append(path)
    return paths


# -- the README's summary: several runs (one per Python) side by side ----------

# (label, operation, contender, the compiled core's target or None)
SUMMARY_ROWS = [
    ('class creation, 5 fields', 'class5', 'dm', 0.15),
    ('class creation, 20 fields', 'class20', 'dm', 0.15),
    ('class creation, metaclass call', 'class5_call', 'dm', 0.15),
    ('init, positional', 'init_pos', 'dm', 1.1),
    ('init, positional, `make_dataclass`', 'init_pos_made', 'dm', 1.1),
    ('init, positional, run-time names, `make_dataclass`', 'init_pos_runtime', 'dm', 1.1),
    ('init, positional, run-time names, metaclass call', 'init_pos_called', 'dm', 1.1),
    ('init, keyword', 'init_kw', 'dm', 0.7),
    ('init, defaults omitted', 'init_defaults', 'dm', 1.0),
    ('init, a default_factory', 'init_factory', 'dm', 1.0),
    ('init, frozen', 'init_pos', 'dm_frozen', 0.5),
    ('init, slots', 'init_pos', 'dm_slots', 1.0),
    ('`==`', 'eq', 'dm', 1.0),
    ('`==`, run-time names, `make_dataclass`', 'eq_runtime', 'dm', 1.0),
    ('`==`, run-time names, metaclass call', 'eq_called', 'dm', 1.0),
    ('`==`, slots', 'eq', 'dm_slots', 0.45),
    ('`<`', 'lt', 'dm', 1.0),
    ('hash (frozen)', 'hash', 'dm_frozen', 1.0),
    ('repr', 'repr', 'dm', 1.0),
    ('asdict, nested', 'asdict', 'dm', 0.3),
    ('astuple, nested', 'astuple', 'dm', 0.3),
    ('replace', 'replace', 'dm', 0.4),
    # five fields with a converter and a validator each: at most attrs.define's
    # time with the same (its ratio in the same run)
    ('init, 5 converters + validators', 'init_convert', 'dm', 'attrs'),
]

# The floor of an operation on a class made another way: the same class.
FLOOR_OF = {'init_pos_made': 'init_pos', 'init_pos_runtime': 'init_pos',
            'init_pos_called': 'init_pos', 'eq_made': 'eq', 'eq_runtime': 'eq', 'eq_called': 'eq'}


def metaclass_floor_ratio(run, key, who):
    """The metaclass floor (``kits.MetaclassFloorKit``) of a plain or slotted
    class's construction in ``run``, for either backend of ours (None elsewhere)."""
    if who not in ('dm', 'dm_pure', 'dm_slots', 'dm_pure_slots'):
        return None
    return run['operations'].get(FLOOR_OF.get(key, key), {}).get('ratio', {}).get(
        'metafloor_slots' if who.endswith('_slots') else 'metafloor')


def floor_ratio(run, key, who):
    """The C API's floor for a compiled contender's operation in ``run`` (None
    where there is none, or ``who`` is not a compiled contender)."""
    if not who.startswith('dm') or who.startswith('dm_pure'):
        return None
    return run['operations'].get(FLOOR_OF.get(key, key), {}).get('ratio', {}).get(
        who.replace('dm', 'floor', 1))

# The peers beside the newest run: the same flavour as our contender's.
_PEER = {'dm': ('attrs', 'msgspec'), 'dm_frozen': ('attrs_frozen', None),
         'dm_slots': (None, None)}


def _bound(run, key, bound):
    """A row's bound in ``run``: a number, or a peer's ratio there (``'attrs'``)."""
    if isinstance(bound, str):
        return run['operations'].get(key, {}).get('ratio', {}).get(bound)
    return bound


def summary(runs):
    """A markdown table: the compiled core on each run (newest first), the pure
    closures and attrs/msgspec on the newest, and the target."""
    runs = _newest_first(runs)
    newest = runs[0]
    head = [f'compiled, {r["machine"]["python"].rsplit(".", 1)[0]}' for r in runs]
    v = newest['machine']['python'].rsplit('.', 1)[0]
    head += [f'pure, {v}', f'attrs, {v}', f'msgspec, {v}', 'target']
    lines = ['| operation | ' + ' | '.join(head) + ' |', '|---|' + '---:|' * len(head)]

    def cell(run, key, who):
        ratio = run['operations'].get(key, {}).get('ratio', {}).get(who) if who else None
        return '–' if ratio is None else f'{ratio:.2f}'
    for label, key, who, bound in SUMMARY_ROWS:
        cells = [cell(r, key, who) for r in runs]
        floors = [(floor_ratio(r, key, who), metaclass_floor_ratio(r, key, who)) for r in runs]
        limits = [_bound(r, key, bound) for r in runs]
        met = [c != '–' and limit is not None and float(c) <= limit
               for c, limit in zip(cells, limits)]
        cells = [c if ok or c == '–' else f'**{c}**' + _beside(*f)
                 for c, ok, f in zip(cells, met, floors)]
        attrs, msgspec = _PEER[who]
        cells += [cell(newest, key, who.replace('dm', 'dm_pure', 1)),
                  cell(newest, key, attrs), cell(newest, key, msgspec), f'≤ {bound}']
        lines.append(f'| {label} | ' + ' | '.join(cells) + ' |')
    mem = [f'{r["memory"].get("dm", "–")} / {r["memory"].get("std", "–")}' for r in runs]
    lines.append('| memory per instance, bytes (ours / stdlib) | ' + ' | '.join(mem)
                 + ' | | | | equal |')
    imp = [f'{r["import_extra_ms"].get("dataclass_meta", {}).get("fastest", 0):+.1f} ms'
           for r in runs]
    lines.append('| `import`, over `import dataclasses` | ' + ' | '.join(imp)
                 + ' | | | | ≤ +3.5 ms |')
    return '\n'.join(lines) + '\n'


# docs/choosing.md's speed table: (label, operation, flavour); each contender is
# measured against the stdlib class of the same flavour.
PEER_ROWS = [
    ('class creation, 5 fields', 'class5', ''),
    ('`__init__`, positional', 'init_pos', ''),
    ('`__init__`, keyword', 'init_kw', ''),
    ('`__init__`, frozen', 'init_pos', '_frozen'),
    ('`__init__`, slots', 'init_pos', '_slots'),
    ('`==`', 'eq', ''),
    ('`<`', 'lt', ''),
    ('`repr`', 'repr', ''),
    ('`asdict` of a nested instance', 'asdict', ''),
]
PEERS = [('`dataclass_meta` (compiled)', 'dm'), ('`dataclass_meta` (pure)', 'dm_pure'),
         ('attrs', 'attrs'), ('msgspec', 'msgspec')]


def peers(runs):
    """docs/choosing.md's table: the newest run's ratios of us and our peers."""
    run = _newest_first(runs)[0]
    version = run['machine']['python'].rsplit('.', 1)[0]
    lines = [f'| Python {version}, time / the stdlib\'s | '
             + ' | '.join(label for label, _ in PEERS) + ' |',
             '|---|' + '---:|' * len(PEERS)]
    for label, key, flavour in PEER_ROWS:
        ratios = run['operations'].get(key, {}).get('ratio', {})
        cells = ['–' if ratios.get(who + flavour) is None else f'{ratios[who + flavour]:.2f}'
                 for _, who in PEERS]
        lines.append(f'| {label} | ' + ' | '.join(cells) + ' |')
    return '\n'.join(lines) + '\n'


# The README's chart: (label, operation, flavour) of the newest run, each
# contender against the stdlib class of the same flavour.
CHART_ROWS = [
    ('class creation, 5 fields', 'class5', ''),
    ('class creation, 20 fields', 'class20', ''),
    ('init, positional', 'init_pos', ''),
    ('init, keyword', 'init_kw', ''),
    ('init, frozen', 'init_pos', '_frozen'),
    ('==', 'eq', ''),
    ('<', 'lt', ''),
    ('hash (frozen)', 'hash', '_frozen'),
    ('repr', 'repr', ''),
    ('attribute read', 'getattr', ''),
    ('asdict, nested', 'asdict', ''),
    ('replace', 'replace', ''),
    ('copy.copy', 'copy', ''),
    ('pickle round trip', 'pickle', ''),
]
CHART_SERIES = [('dataclass_meta (compiled)', 'dm'), ('attrs', 'attrs'),
                ('msgspec', 'msgspec')]


def summary_svg(runs):
    """The README's chart: on the newest run, ours, attrs and msgspec, each
    as its time over the same class made by ``@dataclass`` (1.0)."""
    run = _newest_first(runs)[0]
    version = run['machine']['python'].rsplit('.', 1)[0]
    rows = []
    for label, key, flavour in CHART_ROWS:
        ratios = run['operations'].get(key, {}).get('ratio', {})
        cells = [(ratios.get(who + flavour), None) for _, who in CHART_SERIES]
        if any(value is not None for value, _ in cells):
            rows.append((label, cells))
    return bar_chart(f'Time / @dataclass\'s, Python {version}, CPython on x86_64', rows,
                     [label for label, _ in CHART_SERIES],
                     note='log scale: under 1 is faster than @dataclass; '
                          'a missing bar: no such operation')


def _beside(floor, metaclass_floor=None):
    """A missed target's floors from the same run (the C API's; any class
    with a metaclass's), or nothing."""
    said = ([] if floor is None else [f'floor {floor:.2f}']) + (
        [] if metaclass_floor is None else [f'metaclass floor {metaclass_floor:.2f}'])
    return f' ({", ".join(said)})' if said else ''


def _newest_first(runs):
    return sorted(runs, key=lambda r: [int(p) for p in r['machine']['python'].split('.')[:2]],
                  reverse=True)


def targets_table(runs):
    """Every target of several runs (newest first): bound, then each run's
    ratio, with ✗ where it is not met."""
    runs = _newest_first(runs)
    lines = ['| target | bound | ' + ' | '.join(
        r['machine']['python'].rsplit('.', 1)[0] for r in runs) + ' |',
        '|---|---:|' + '---:|' * len(runs)]
    rows = {}
    for r in runs:
        for t in r['targets']:
            rows.setdefault(t['name'], (t['bound'], {}))[1][id(r)] = t
    for name, (bound, by_run) in rows.items():
        cells = []
        for r in runs:
            t = by_run.get(id(r))
            # the metaclass floor beside every construction row; the C API's
            # floor beside a missed target
            cells.append('–' if t is None or t['ratio'] is None else
                         f'{t["ratio"]:.2f}' + (_beside(None, t.get('metaclass_floor'))
                                                if t['met'] else
                                                ' ✗' + _beside(t.get('floor'),
                                                               t.get('metaclass_floor'))))
        lines.append(f'| {name} | {bound} | ' + ' | '.join(cells) + ' |')
    return '\n'.join(lines) + '\n'


if __name__ == '__main__':
    import sys
    runs = [json.load(open(path, encoding='utf-8')) for path in sys.argv[2:]]
    print({'summary': summary, 'targets': targets_table, 'svg': summary_svg,
           'peers': peers}[sys.argv[1]](runs),
          end='')
