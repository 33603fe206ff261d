"""``torch.utils._pytree``, against real PyTorch: the leaves and structure of nested
tuples, lists, dicts and namedtuples, rebuilding them, and mapping over them."""

from __future__ import annotations

import collections

import pytest
from harness import assert_same_outcome

Point = collections.namedtuple("Point", "x y")

TREES = {
    "nested": lambda: [1, (2, None), {"b": 3, "a": 4}],
    "namedtuple": lambda: Point(1, [2, 3]),
    "ordered": lambda: collections.OrderedDict(b=1, a=(2,)),
    "defaultdict": lambda: collections.defaultdict(list, {"a": 1}),
    "leaf": lambda: 7,
    "string and set are leaves": lambda: ["ab", {1}],
    "empty": lambda: ([], (), {}),
    "mixed keys": lambda: {"b": 1, 0: 2},
}


@pytest.mark.parametrize("make", TREES.values(), ids=TREES.keys())
def test_flatten_and_unflatten(make):
    def scenario(torch):
        pytree = torch.utils._pytree
        leaves, spec = pytree.tree_flatten(make())
        rebuilt = pytree.tree_unflatten([f"leaf {i}" for i in range(len(leaves))], spec)
        return (leaves, repr(spec), spec.num_leaves, spec.num_nodes, spec.is_leaf(), rebuilt,
                repr(rebuilt), pytree.tree_leaves(make()), spec == pytree.tree_structure(make()))

    assert_same_outcome(scenario)


def test_tensors_are_leaves():
    def scenario(torch):
        pytree = torch.utils._pytree
        tree = {"out": torch.ones(2), "state": (torch.zeros(1), None)}
        doubled = pytree.tree_map_only(torch.Tensor, lambda t: t * 2, tree)
        return (pytree.tree_leaves(tree), doubled,
                pytree.tree_any(lambda x: x is None, tree),
                pytree.tree_all(lambda x: isinstance(x, torch.Tensor), tree))

    assert_same_outcome(scenario)


def test_map_over_several_trees():
    def scenario(torch):
        pytree = torch.utils._pytree
        results = [pytree.tree_map(lambda a, b: a + b, [1, (2, 3)], [10, (20, 30)]),
                   pytree.tree_map(lambda a, b: (a, b), {"a": 1, "b": 2}, {"b": 3, "a": 4}),
                   pytree.tree_map(lambda a, b: (a, b), [1, 2], [[5], {"k": 6}])]
        for other in ([1, 2, 3], (1, 2), {"a": 1, "c": 2}):
            try:
                pytree.tree_map(lambda a, b: a, [1, 2] if not isinstance(other, dict)
                                else {"a": 1, "b": 2}, other)
            except ValueError as error:
                results.append(str(error))
        return results

    assert_same_outcome(scenario)


def test_map_only_by_type_tuple_and_predicate():
    def scenario(torch):
        pytree = torch.utils._pytree
        tree = [1, 2.5, (3, "a")]
        results = [pytree.tree_map_only(int, lambda x: -x, tree),
                   pytree.tree_map_only((int, str), lambda x: 0, tree),
                   pytree.tree_map_only(lambda x: x == 3, lambda x: "three", tree)]
        try:
            pytree.tree_map_only(3, lambda x: x, tree)
        except TypeError as error:
            results.append(str(error))
        return results

    assert_same_outcome(scenario)


def test_unflatten_with_the_wrong_number_of_leaves():
    def scenario(torch):
        pytree = torch.utils._pytree
        _, spec = pytree.tree_flatten([1, (2, 3)])
        return pytree.tree_unflatten([1, 2], spec)

    assert_same_outcome(scenario)
