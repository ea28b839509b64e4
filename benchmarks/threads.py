"""Scaling with threads: constructing and comparing instances of shared classes.

    python benchmarks/threads.py               # 1 and 2 threads, every backend
    python benchmarks/threads.py --threads 4 --ops 100000

Each thread runs the same loop over classes that all threads share (defined once,
before the threads start); a barrier releases them together. Throughput is the
operations of all threads over the wall time of the slowest, and "scaling" its
ratio to one thread's: 2.00 is perfect on two cores. On a free-threaded build
(3.13t, 3.14t) the threads run in parallel; with the GIL they take turns, so the
ratio stays at or below 1. The stdlib's ``@dataclass`` is timed beside us, as the
interpreter's own limit. Nothing here is asserted; the machine's load shows in
the figures, so run it on an idle machine when comparing.
"""

import argparse
import dataclasses
import os
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE)]

from dataclass_meta import DataClass, _backend  # noqa: E402


def classes(slots):
    """Five-field classes: the stdlib's, then ours on each available backend."""
    made = {'std': dataclasses.make_dataclass(
        'Std', ['a', 'b', 'c', 'd', 'e'], order=True, slots=slots)}
    for backend in _backend.available():
        with _backend.use(backend):
            class C(DataClass, order=True, slots=slots):
                a: int
                b: int
                c: int
                d: int
                e: int
        made[f'dm {backend.name}'] = C
    return made


def construct(cls, n):
    for i in range(n):
        cls(i, 2, 3, 4, 5)


def compare(cls, n):
    x, y = cls(1, 2, 3, 4, 5), cls(1, 2, 3, 4, 5)
    for _ in range(n):
        x == y  # noqa: B015
        x < y  # noqa: B015


OPERATIONS = {'construct': construct, '== and <, pairs': compare}


def throughput(work, cls, threads, n):
    """Operations per second of ``threads`` threads each running ``work(cls, n)``."""
    start = threading.Barrier(threads + 1)
    done = []

    def target():
        start.wait()
        work(cls, n)
        done.append(time.perf_counter())

    workers = [threading.Thread(target=target) for _ in range(threads)]
    for worker in workers:
        worker.start()
    start.wait()
    began = time.perf_counter()
    for worker in workers:
        worker.join()
    return threads * n / (max(done) - began)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--threads', type=int, default=2, help='the most threads timed')
    parser.add_argument('--ops', type=int, default=200_000, help='operations per thread')
    parser.add_argument('--repeat', type=int, default=5, help='best of this many')
    args = parser.parse_args(argv)
    gil = getattr(sys, '_is_gil_enabled', lambda: True)()
    print(f'Python {sys.version.split()[0]}, GIL {"enabled" if gil else "disabled"}, '
          f'{os.cpu_count()} CPUs; {args.ops} operations per thread, best of {args.repeat}')
    counts = [1, args.threads] if args.threads > 1 else [1]
    header = ' | '.join(f'{t} thread{"s" * (t > 1)} (ops/s)' for t in counts)
    print(f'\n| operation | class | {header} | scaling |')
    print('|---|---|' + '---|' * len(counts) + '---|')
    for slots in (False, True):
        for label, cls in classes(slots).items():
            name = f'{label}{", slots" if slots else ""}'
            for op, work in OPERATIONS.items():
                work(cls, args.ops // 4)  # warm up
                rates = [max(throughput(work, cls, t, args.ops) for _ in range(args.repeat))
                         for t in counts]
                cells = ' | '.join(f'{rate:,.0f}' for rate in rates)
                print(f'| {op} | {name} | {cells} | {rates[-1] / rates[0]:.2f} |', flush=True)


if __name__ == '__main__':
    main()
