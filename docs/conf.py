"""Sphinx: the Markdown pages (myst-parser) and the API reference (autodoc).

Built by ``tox -e docs`` with warnings as errors.
"""

import os
import sys

sys.path.insert(0, os.path.abspath('..'))  # the checkout, not an installed copy

import dataclass_meta  # noqa: E402

project = 'dataclass_meta'
release = version = dataclass_meta.__version__
extensions = ['myst_parser', 'sphinx.ext.autodoc']
source_suffix = {'.md': 'markdown'}
root_doc = 'index'
exclude_patterns = ['_build']
myst_heading_anchors = 3
autodoc_member_order = 'bysource'
autodoc_preserve_defaults = True  # ``MISSING``, not the sentinel's repr
html_theme = 'alabaster'
