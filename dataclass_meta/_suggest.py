"""The interpreter's "Did you mean ...?" for an unexpected keyword argument.

3.13+ ends ``f() got an unexpected keyword argument 'f0'`` with ``. Did you mean
'p0'?`` (``Python/ceval.c``, ``initialize_locals``): the closest parameter that a
keyword may name, by ``_Py_CalculateSuggestions`` (``Python/suggestions.c``), the
rules of NameError's suggestions. The generated ``__init__`` binds its arguments
itself, so its errors add the same ending, on the same versions.
"""

import sys

# 3.13+: the interpreter suggests a parameter for an unexpected keyword argument.
SUGGESTS = sys.version_info >= (3, 13)

_MAX_CANDIDATE_ITEMS = 750
_MAX_STRING_SIZE = 40
_MOVE_COST = 2
_CASE_COST = 1


def did_you_mean(name, candidates):
    """``". Did you mean 'x'?"`` as the interpreter words it, or ``''``."""
    if not SUGGESTS:
        return ''
    match = nearest(list(candidates), name)
    return '' if match is None else f". Did you mean '{match}'?"


def nearest(candidates, name):
    """The candidate the interpreter would suggest for ``name``, or None (any Python)."""
    try:  # 3.13+: the interpreter's own function (traceback uses it too)
        from _suggestions import _generate_suggestions
    except ImportError:
        return calculate_suggestions(candidates, name)
    return _generate_suggestions(candidates, name)


def calculate_suggestions(candidates, name):
    """``Python/suggestions.c:calculate_suggestions``: the candidate within a
    third of the characters involved (moves cost 2, a case change 1), first of
    the closest ones. Works on UTF-8 bytes, as the C code does."""
    if len(candidates) >= _MAX_CANDIDATE_ITEMS:
        return None
    name_bytes = name.encode('utf-8', 'surrogatepass')
    best, best_distance = None, sys.maxsize
    for item in candidates:
        if item == name:
            continue
        item_bytes = item.encode('utf-8', 'surrogatepass')
        max_distance = (len(name_bytes) + len(item_bytes) + 3) * _MOVE_COST // 6
        max_distance = min(max_distance, best_distance - 1)
        distance = _levenshtein(name_bytes, item_bytes, max_distance)
        if distance > max_distance:
            continue
        if best is None or distance < best_distance:
            best, best_distance = item, distance
    return best


def _substitution_cost(a, b):
    if a & 31 != b & 31:
        return _MOVE_COST
    if a == b:
        return 0
    if 65 <= a <= 90:  # ASCII upper case only, as in C
        a += 32
    if 65 <= b <= 90:
        b += 32
    return _CASE_COST if a == b else _MOVE_COST


def _levenshtein(a, b, max_cost):
    """``levenshtein_distance`` of suggestions.c, one row of the matrix at a time."""
    start = 0
    while start < len(a) and start < len(b) and a[start] == b[start]:
        start += 1
    a, b = a[start:], b[start:]
    end = 0
    while end < len(a) and end < len(b) and a[-1 - end] == b[-1 - end]:
        end += 1
    a, b = a[:len(a) - end], b[:len(b) - end]
    if not a or not b:
        return (len(a) + len(b)) * _MOVE_COST
    if len(a) > _MAX_STRING_SIZE or len(b) > _MAX_STRING_SIZE:
        return max_cost + 1
    if len(b) < len(a):
        a, b = b, a
    if (len(b) - len(a)) * _MOVE_COST > max_cost:
        return max_cost + 1
    row = list(range(_MOVE_COST, _MOVE_COST * (len(a) + 1), _MOVE_COST))
    result = 0
    for b_index, code in enumerate(b):
        distance = result = b_index * _MOVE_COST
        minimum = sys.maxsize
        for index, other in enumerate(a):
            substitute = distance + _substitution_cost(code, other)
            distance = row[index]
            result = min(min(result, distance) + _MOVE_COST, substitute)
            row[index] = result
            minimum = min(minimum, result)
        if minimum > max_cost:
            return max_cost + 1
    return result
