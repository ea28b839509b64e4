"""Slotted data classes against msgspec's ``Struct``, side by side in one process.

The same five int fields; per operation, the median over rounds of the ratio
*ours / Struct's*, each round timing Struct, ours, then Struct again (the
machine's speed drifts; the paired ratio holds). Lower is faster; 1.0 is
msgspec's speed. ``DATACLASS_META_PURE=1`` measures the pure backend.

    $ python benchmarks/slotted_msgspec.py [--rounds N] [operation ...]
"""

import argparse
import statistics
import sys
import timeit

import msgspec

from dataclass_meta import DataClass, replace
from dataclass_meta._backend import BACKEND


class Struct(msgspec.Struct):
    f0: int
    f1: int
    f2: int
    f3: int
    f4: int


class FrozenStruct(msgspec.Struct, frozen=True):
    f0: int
    f1: int
    f2: int
    f3: int
    f4: int


class UntrackedStruct(msgspec.Struct, gc=False):
    f0: int
    f1: int
    f2: int
    f3: int
    f4: int


class Slotted(DataClass, slots=True):
    f0: int
    f1: int
    f2: int
    f3: int
    f4: int


class FrozenSlotted(DataClass, slots=True, frozen=True):
    f0: int
    f1: int
    f2: int
    f3: int
    f4: int


class UntrackedSlotted(DataClass, slots=True, gc=False):
    f0: int
    f1: int
    f2: int
    f3: int
    f4: int


NAMESPACE = {
    'S': Struct, 'SF': FrozenStruct, 'SG': UntrackedStruct,
    'D': Slotted, 'DF': FrozenSlotted, 'DG': UntrackedSlotted,
    's': Struct(1, 2, 3, 4, 5), 's2': Struct(1, 2, 3, 4, 5), 'sf': FrozenStruct(1, 2, 3, 4, 5),
    'd': Slotted(1, 2, 3, 4, 5), 'd2': Slotted(1, 2, 3, 4, 5),
    'df': FrozenSlotted(1, 2, 3, 4, 5),
    'msgspec_replace': msgspec.structs.replace, 'replace': replace,
}

# operation: (label, Struct's statement, ours)
OPERATIONS = {
    'init': ('construction', 'S(1, 2, 3, 4, 5)', 'D(1, 2, 3, 4, 5)'),
    'init_kw': ('construction, keywords', 'S(f0=1, f1=2, f2=3, f3=4, f4=5)',
                'D(f0=1, f1=2, f2=3, f3=4, f4=5)'),
    'init_frozen': ('construction, frozen', 'SF(1, 2, 3, 4, 5)', 'DF(1, 2, 3, 4, 5)'),
    'init_gc': ('construction, gc=False', 'SG(1, 2, 3, 4, 5)', 'DG(1, 2, 3, 4, 5)'),
    'eq': ('==', 's == s2', 'd == d2'),
    'hash': ('hash (frozen)', 'hash(sf)', 'hash(df)'),
    'replace': ('replace(obj, f0=9)', 'msgspec_replace(s, f0=9)', 'replace(d, f0=9)'),
}


def seconds(statement, number):
    return timeit.timeit(statement, globals=NAMESPACE, number=number) / number


def ratio(theirs, ours, rounds, number):
    """The median of the paired ratios ours / theirs, and ours's best time."""
    ratios, best = [], float('inf')
    for _ in range(rounds):
        before = seconds(theirs, number)
        mine = seconds(ours, number)
        after = seconds(theirs, number)
        ratios.append(mine / ((before + after) / 2))
        best = min(best, mine)
    return statistics.median(ratios), best


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rounds', type=int, default=9)
    parser.add_argument('--number', type=int, default=100_000)
    parser.add_argument('operations', nargs='*', metavar='operation',
                        help=f'some of: {", ".join(OPERATIONS)} (default: all)')
    args = parser.parse_args(argv)
    unknown = [key for key in args.operations if key not in OPERATIONS]
    if unknown:
        parser.error(f'unknown operation {unknown[0]!r}: choose from {", ".join(OPERATIONS)}')
    print(f'Python {sys.version.split()[0]}, backend {BACKEND}, msgspec {msgspec.__version__}')
    print('| operation | ours / Struct | ours (ns) |')
    print('|---|---:|---:|')
    for key in args.operations or OPERATIONS:
        label, theirs, ours = OPERATIONS[key]
        r, best = ratio(theirs, ours, args.rounds, args.number)
        print(f'| {label} | {r:.2f} | {best * 1e9:.0f} |')


if __name__ == '__main__':
    main()
