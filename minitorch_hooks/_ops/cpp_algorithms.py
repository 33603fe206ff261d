"""The C++ standard library's sorting algorithms, as GCC's libstdc++ implements them.

PyTorch's CPU ``sort`` (unless ``stable=True``) calls ``std::sort``, and its ``topk`` calls
``std::nth_element`` or ``std::partial_sort``. None of them is stable: among equal values,
which comes first depends on the exact sequence of comparisons and swaps each algorithm
makes. To give ties the order PyTorch gives them, this module repeats those sequences
step by step, on a list of ``(value, index)`` pairs and with the comparison the caller
passes (PyTorch's puts nan above every number). Every function mirrors the libstdc++
function of the same name (``bits/stl_algo.h`` and ``bits/stl_heap.h``): introsort for
``sort``, introselect for ``nth_element``, a heap for ``partial_sort``.
See <https://gcc.gnu.org/onlinedocs/libstdc++/libstdc++-html-USERS-4.4/a01347.html>
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Less = Callable[[Any, Any], bool]
_THRESHOLD = 16  # below this size, introsort leaves the rest to insertion sort


def _lg(n: int) -> int:
    return n.bit_length() - 1


# -- heaps ----------------------------------------------------------------------------------

def _push_heap(a: list, first: int, hole: int, top: int, value: Any, less: Less) -> None:
    parent = (hole - 1) // 2
    while hole > top and less(a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value


def _adjust_heap(a: list, first: int, hole: int, length: int, value: Any, less: Less) -> None:
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(a[first + child], a[first + child - 1]):
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    _push_heap(a, first, hole, top, value, less)


def _make_heap(a: list, first: int, last: int, less: Less) -> None:
    length = last - first
    if length < 2:
        return
    parent = (length - 2) // 2
    while True:
        _adjust_heap(a, first, parent, length, a[first + parent], less)
        if parent == 0:
            return
        parent -= 1


def _pop_heap(a: list, first: int, last: int, result: int, less: Less) -> None:
    value = a[result]
    a[result] = a[first]
    _adjust_heap(a, first, 0, last - first, value, less)


def _heap_select(a: list, first: int, middle: int, last: int, less: Less) -> None:
    _make_heap(a, first, middle, less)
    for i in range(middle, last):
        if less(a[i], a[first]):
            _pop_heap(a, first, middle, i, less)


def _sort_heap(a: list, first: int, last: int, less: Less) -> None:
    while last - first > 1:
        last -= 1
        _pop_heap(a, first, last, last, less)


def partial_sort(a: list, first: int, middle: int, last: int, less: Less) -> None:
    """``std::partial_sort``: the smallest ``middle - first`` elements, in order, first."""
    _heap_select(a, first, middle, last, less)
    _sort_heap(a, first, middle, less)


# -- quicksort's partition --------------------------------------------------------------------

def _move_median_to_first(a: list, result: int, x: int, y: int, z: int, less: Less) -> None:
    if less(a[x], a[y]):
        if less(a[y], a[z]):
            a[result], a[y] = a[y], a[result]
        elif less(a[x], a[z]):
            a[result], a[z] = a[z], a[result]
        else:
            a[result], a[x] = a[x], a[result]
    elif less(a[x], a[z]):
        a[result], a[x] = a[x], a[result]
    elif less(a[y], a[z]):
        a[result], a[z] = a[z], a[result]
    else:
        a[result], a[y] = a[y], a[result]


def _unguarded_partition(a: list, first: int, last: int, pivot: int, less: Less) -> int:
    while True:
        while less(a[first], a[pivot]):
            first += 1
        last -= 1
        while less(a[pivot], a[last]):
            last -= 1
        if not first < last:
            return first
        a[first], a[last] = a[last], a[first]
        first += 1


def _unguarded_partition_pivot(a: list, first: int, last: int, less: Less) -> int:
    middle = first + (last - first) // 2
    _move_median_to_first(a, first, first + 1, middle, last - 1, less)
    return _unguarded_partition(a, first + 1, last, first, less)


# -- insertion sort ------------------------------------------------------------------------

def _unguarded_linear_insert(a: list, last: int, less: Less) -> None:
    value = a[last]
    before = last - 1
    while less(value, a[before]):
        a[last] = a[before]
        last = before
        before -= 1
    a[last] = value


def _insertion_sort(a: list, first: int, last: int, less: Less) -> None:
    if first == last:
        return
    for i in range(first + 1, last):
        if less(a[i], a[first]):
            value = a[i]
            a[first + 1:i + 1] = a[first:i]
            a[first] = value
        else:
            _unguarded_linear_insert(a, i, less)


def _final_insertion_sort(a: list, first: int, last: int, less: Less) -> None:
    if last - first > _THRESHOLD:
        _insertion_sort(a, first, first + _THRESHOLD, less)
        for i in range(first + _THRESHOLD, last):
            _unguarded_linear_insert(a, i, less)
    else:
        _insertion_sort(a, first, last, less)


# -- the three algorithms ---------------------------------------------------------------------

def _introsort_loop(a: list, first: int, last: int, depth_limit: int, less: Less) -> None:
    while last - first > _THRESHOLD:
        if depth_limit == 0:
            partial_sort(a, first, last, last, less)
            return
        depth_limit -= 1
        cut = _unguarded_partition_pivot(a, first, last, less)
        _introsort_loop(a, cut, last, depth_limit, less)
        last = cut


def sort(a: list, first: int, last: int, less: Less) -> None:
    """``std::sort``: introsort (quicksort, falling back to heapsort when it recurses too
    deep), then one insertion-sort pass over the nearly sorted result."""
    if first != last:
        _introsort_loop(a, first, last, _lg(last - first) * 2, less)
        _final_insertion_sort(a, first, last, less)


def nth_element(a: list, first: int, nth: int, last: int, less: Less) -> None:
    """``std::nth_element``: the element that belongs at ``nth`` moves there, with smaller
    ones (in no order) before it and the others after."""
    if first == last or nth == last:
        return
    depth_limit = _lg(last - first) * 2
    while last - first > 3:
        if depth_limit == 0:
            _heap_select(a, first, nth + 1, last, less)
            a[first], a[nth] = a[nth], a[first]
            return
        depth_limit -= 1
        cut = _unguarded_partition_pivot(a, first, last, less)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(a, first, last, less)
