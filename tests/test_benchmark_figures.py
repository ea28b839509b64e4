"""The benchmark figures in README.md and the docs are the results files' (``benchmarks/results/``).

``benchmarks/figures.py`` finds them: generated blocks (``<!-- results: ... -->``)
and prose figures marked ``<!-- fig: ... -->``; ``--write`` rewrites both after a
new run.
"""

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _figures():
    spec = importlib.util.spec_from_file_location('figures', ROOT / 'benchmarks' / 'figures.py')
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


figures = _figures()


@pytest.mark.parametrize('page', figures.PAGES)
def test_docs_figures_are_the_results(page):
    """Every generated table and marked figure equals what the results files give."""
    text = (ROOT / page).read_text(encoding='utf-8')
    assert figures._BLOCK.search(text), f'{page} has no generated table'
    assert figures.disagreements(text) == []


@pytest.mark.parametrize('page', ['README.md', 'docs/choosing.md'])
def test_every_ratio_in_prose_is_marked(page):
    """Outside the generated tables, a ratio (``0.25×``, ``0.25-0.42×``) carries the
    mark that ties it to the results; an unmarked one would go stale unnoticed."""
    text = figures._BLOCK.sub('', (ROOT / page).read_text(encoding='utf-8'))
    unmarked = [m.group() for m in re.finditer(r'\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)?×(?!<!-- fig:)', text)]
    assert unmarked == []
    assert figures._FIGURE.search(text)


def test_a_changed_figure_is_found_and_rewritten():
    """The check is not vacuous: a wrong figure or table row is reported, and
    ``rewrite`` restores the results' value."""
    text = (ROOT / 'README.md').read_text(encoding='utf-8')
    first = figures._FIGURE.search(text)
    wrong = text[:first.start()] + '9.99-9.99×' + text[first.start('unit') + len(first['unit']):]
    wrong = wrong.replace('| class creation, 5 fields |', '| class creation, 5 fields | 0.01 |', 1)
    found = figures.disagreements(wrong)
    assert len(found) == 2, found
    assert found[1][0].startswith('9.99-9.99× (')
    assert figures.rewrite(wrong) == text


def test_figures_print_as_the_prose_does():
    """A range prints as one number where its ends agree at the prose's precision;
    ``/ min`` takes one end."""
    spec = 'class5 class20 / dm / pypy311'
    values = figures.ratios(spec)
    lo, hi = min(values), max(values)
    match = figures._FIGURE.search(f'0.0×<!-- fig: {spec} -->')
    assert figures.figure(match) == (f'{lo:.1f}-{hi:.1f}×' if f'{lo:.1f}' != f'{hi:.1f}'
                                     else f'{lo:.1f}×')
    match = figures._FIGURE.search(f'0.00×<!-- fig: {spec} / min -->')
    assert figures.figure(match) == f'{lo:.2f}×'
    with pytest.raises(LookupError):
        figures.ratios('no_such_operation / dm / py3*')


def _report():
    spec = importlib.util.spec_from_file_location('report', ROOT / 'benchmarks' / 'report.py')
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_summary_chart_is_the_results_and_fits():
    """benchmarks/results/summary.svg is what the results files give: ours, attrs
    and msgspec each against @dataclass, every label inside the picture, no empty
    band below the last bar."""
    import json
    report = _report()
    runs = [json.loads(path.read_text(encoding='utf-8'))
            for path in sorted((ROOT / 'benchmarks' / 'results').glob('results-py3*.json'))]
    chart = report.summary_svg(runs)
    assert chart == (ROOT / 'benchmarks' / 'results' / 'summary.svg').read_text(encoding='utf-8')
    for series in ('dataclass_meta (compiled)', 'attrs', 'msgspec'):
        assert f'>{series}</text>' in chart
    width, height = (float(v) for v in re.search(r'width="(\d+)" height="(\d+)"', chart).groups())
    labels = re.findall(r'<text x="([\d.]+)" y="[\d.]+" text-anchor="end">([^<]*)</text>', chart)
    assert labels and all(float(x) - 6.2 * len(text) >= 0 for x, text in labels)
    assert float(re.search(r'<text x="10" y="20" font-size="13">([^<]*)<', chart).group(1)
                 .__len__()) * 6.2 * 1.2 + 10 <= width
    bars = [float(y) for y in re.findall(r'<rect x="[\d.]+" y="([\d.]+)" width="[\d.]+" '
                                         r'height="6"', chart)]
    assert bars and height - max(bars) < 80
