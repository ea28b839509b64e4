"""Cost per record as the data grows: build a list of N frozen slotted
three-field records (int, str, float), and the pause of a full ``gc.collect()``
with a million of them alive, for ours beside msgspec's ``Struct``,
``@dataclass`` and attrs, interleaved in one process. Ratios are ours / theirs.

    python benchmarks/scale.py                 # 1e5, 1e6, 3e6 (a minute or two)
    python benchmarks/scale.py --sizes 100000  # one size
"""

import argparse
import dataclasses
import gc
import statistics
import time


def contenders():
    from dataclass_meta import DataClass

    class Ours(DataClass, frozen=True, slots=True):
        a: int
        b: str
        c: float

    @dataclasses.dataclass(frozen=True, slots=True)
    class Std:
        a: int
        b: str
        c: float

    found = {'ours': Ours, 'dataclass': Std}
    try:
        import msgspec

        class Struct(msgspec.Struct, frozen=True):
            a: int
            b: str
            c: float
        found['Struct'] = Struct
    except ImportError:
        pass
    try:
        import attrs

        @attrs.frozen
        class Attrs:
            a: int
            b: str
            c: float
        found['attrs'] = Attrs
    except ImportError:
        pass
    return found


def build(cls, n):
    """ns per record to build a list of ``n``, the collector running as usual."""
    gc.collect()
    start = time.perf_counter()
    rows = [cls(i, 'x', 1.5) for i in range(n)]
    elapsed = time.perf_counter() - start
    del rows
    return elapsed / n * 1e9


def pause(cls, n):
    """ms of a full collection with ``n`` records alive."""
    rows = [cls(i, 'x', 1.5) for i in range(n)]
    gc.collect()
    start = time.perf_counter()
    gc.collect()
    elapsed = time.perf_counter() - start
    del rows
    return elapsed * 1e3


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--sizes', type=int, nargs='*', default=[100_000, 1_000_000, 3_000_000])
    parser.add_argument('--rounds', type=int, default=3)
    args = parser.parse_args()
    kinds = contenders()
    rows = {}
    for n in args.sizes:
        times = {name: [] for name in kinds}
        for _ in range(args.rounds):
            for name, cls in kinds.items():
                times[name].append(build(cls, n))
        rows[f'build {n:.0e}'] = {name: min(t) for name, t in times.items()}
    pauses = {name: [] for name in kinds}
    for _ in range(args.rounds):
        for name, cls in kinds.items():
            pauses[name].append(pause(cls, 1_000_000))
    rows['gc.collect(), 1e6 alive (ms)'] = {name: statistics.median(t)
                                           for name, t in pauses.items()}
    names = list(kinds)
    print('| row | ' + ' | '.join(names) + ' | ' +
          ' | '.join(f'ours / {n}' for n in names[1:]) + ' |')
    print('|---' * (2 * len(names)) + '|')
    for label, values in rows.items():
        print(f'| {label} | ' + ' | '.join(f'{values[n]:.1f}' for n in names) + ' | '
              + ' | '.join(f'{values["ours"] / values[n]:.2f}' for n in names[1:]) + ' |')
    sizes = args.sizes
    if len(sizes) > 1:
        first, last = rows[f'build {sizes[0]:.0e}'], rows[f'build {sizes[-1]:.0e}']
        print('growth per record, largest / smallest: ' + ', '.join(
            f'{n} {last[n] / first[n]:.2f}' for n in names))


if __name__ == '__main__':
    main()
