"""Nested containers as trees of leaves, mirroring ``torch/utils/_pytree.py``.

Hook code meets arguments of any shape: a forward hook's ``output`` may be a tensor, a
tuple ``(output, (h, c))`` from an LSTM, a dict from a Hugging Face model. PyTorch's tools
(``ModuleTracker``, checkpointing, FSDP) handle them all the same way: *flatten* the value
into its leaves (every object that is not a tuple, list, dict or namedtuple) plus a
:class:`TreeSpec` that remembers the structure, work on the leaves, and *unflatten* the
results back into the same structure. ``tree_map(fn, tree)`` does all three.

``None`` is a leaf, as in PyTorch 2.13's Python implementation. Custom node types can be
added with :func:`register_pytree_node`.
"""

from __future__ import annotations

import types
from collections import OrderedDict, defaultdict, namedtuple
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

__all__ = ["LeafSpec", "TreeSpec", "register_pytree_node", "tree_all", "tree_any",
           "tree_flatten", "tree_is_leaf", "tree_iter", "tree_leaves", "tree_map",
           "tree_map_only", "tree_structure", "tree_unflatten"]

PyTree = Any
Context = Any


@dataclass(frozen=True)
class NodeDef:
    """How to take one node type apart (into children and a context) and put it back."""

    type: type
    flatten_fn: Callable[[Any], tuple[list[Any], Context]]
    unflatten_fn: Callable[[Iterable[Any], Context], Any]


SUPPORTED_NODES: dict[type, NodeDef] = {}


def register_pytree_node(cls: type, flatten_fn: Callable[[Any], tuple[list[Any], Context]],
                         unflatten_fn: Callable[[Iterable[Any], Context], Any]) -> None:
    """Make ``cls`` a node: ``flatten_fn(x)`` gives its children and a context,
    ``unflatten_fn(children, context)`` rebuilds it."""
    if cls in SUPPORTED_NODES:
        raise ValueError(f"{cls} is already registered as pytree node.")
    SUPPORTED_NODES[cls] = NodeDef(cls, flatten_fn, unflatten_fn)


def _dict_unflatten(values: Iterable[Any], context: Context) -> dict:
    return dict(zip(context, values, strict=True))


register_pytree_node(tuple, lambda d: (list(d), None), lambda values, _: tuple(values))
register_pytree_node(list, lambda d: (list(d), None), lambda values, _: list(values))
register_pytree_node(dict, lambda d: (list(d.values()), list(d.keys())), _dict_unflatten)
register_pytree_node(OrderedDict, lambda d: (list(d.values()), list(d.keys())),
                     lambda values, context: OrderedDict(zip(context, values, strict=True)))
register_pytree_node(
    defaultdict, lambda d: (list(d.values()), [d.default_factory, list(d.keys())]),
    lambda values, context: defaultdict(context[0], _dict_unflatten(values, context[1])))
# Every namedtuple class is a node under the one key ``namedtuple``; its context is the class.
register_pytree_node(namedtuple, lambda d: (list(d), type(d)),  # type: ignore[arg-type]
                     lambda values, context: context(*values))

BUILTIN_TYPES = frozenset({tuple, list, dict, namedtuple, OrderedDict, defaultdict})
STANDARD_DICT_TYPES = frozenset({dict, OrderedDict, defaultdict})


def _is_namedtuple_class(cls: type) -> bool:
    return (isinstance(cls, type) and issubclass(cls, tuple)
            and isinstance(getattr(cls, "_fields", None), tuple))


def _get_node_type(tree: Any) -> Any:
    node_type = type(tree)
    return namedtuple if _is_namedtuple_class(node_type) else node_type


def tree_is_leaf(tree: PyTree, is_leaf: Callable[[PyTree], bool] | None = None) -> bool:
    """Whether ``tree`` is a leaf: not a registered node type (or ``is_leaf`` says so)."""
    if is_leaf is not None and is_leaf(tree):
        return True
    return _get_node_type(tree) not in SUPPORTED_NODES


class TreeSpec:
    """The structure of a pytree: its root's type and context, and a spec per child."""

    __slots__ = ("type", "_context", "_children", "num_leaves", "num_nodes")

    def __init__(self, type: Any, context: Context, children_specs: list[TreeSpec]) -> None:  # noqa: A002 - torch's name
        self.type, self._context, self._children = type, context, children_specs
        self.num_leaves: int = sum(child.num_leaves for child in children_specs)
        self.num_nodes: int = 1 + sum(child.num_nodes for child in children_specs)

    @property
    def context(self) -> Context:
        return self._context

    @property
    def num_children(self) -> int:
        return len(self._children)

    def children(self) -> list[TreeSpec]:
        return list(self._children)

    def child(self, index: int) -> TreeSpec:
        return self._children[index]

    def is_leaf(self) -> bool:
        return self.num_nodes == 1 and self.num_leaves == 1

    def __repr__(self, indent: int = 0) -> str:
        children = ""
        if self.num_children > 0:
            indent += 2
            children += self._children[0].__repr__(indent)
            children += "," if self.num_children > 1 else ""
            children += ",".join(["\n" + " " * indent + child.__repr__(indent)
                                  for child in self._children[1:]])
        return f"TreeSpec({self.type.__name__}, {self._context}, [{children}])"

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (str(self.type) == str(other.type) and self._context == other._context
                and self._children == other._children)

    def __hash__(self) -> int:
        return hash((str(self.type), self.num_leaves, self.num_nodes))

    def flatten_up_to(self, tree: PyTree) -> list[PyTree]:
        """The subtrees of ``tree`` where this spec has its leaves: ``tree`` must have this
        structure down to them (``tree_map`` over several trees uses it)."""
        subtrees: list[PyTree] = []
        _flatten_up_to(self, tree, subtrees)
        return subtrees

    def unflatten(self, leaves: Iterable[Any]) -> PyTree:
        """The pytree of this structure holding ``leaves``, in order."""
        if not isinstance(leaves, (list, tuple)):
            leaves = list(leaves)
        if len(leaves) != self.num_leaves:
            raise ValueError(f"treespec.unflatten(leaves): `leaves` has length {len(leaves)} "
                             "but the spec refers to a pytree that holds "
                             f"{self.num_leaves} items ({self}).")
        if self.is_leaf():
            return leaves[0]
        start = 0
        child_pytrees = []
        for child_spec in self._children:
            end = start + child_spec.num_leaves
            child_pytrees.append(child_spec.unflatten(leaves[start:end]))
            start = end
        return SUPPORTED_NODES[self.type].unflatten_fn(child_pytrees, self._context)


class LeafSpec(TreeSpec):
    """The spec of a leaf, shown as ``*``."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(None, None, [])
        self.num_leaves, self.num_nodes = 1, 1

    def __repr__(self, indent: int = 0) -> str:
        return "*"


_LEAF_SPEC = LeafSpec()


def _flatten_up_to(spec: TreeSpec, node: PyTree, subtrees: list[PyTree]) -> None:
    if spec.is_leaf():
        subtrees.append(node)
        return
    node_type = _get_node_type(node)
    if spec.type not in BUILTIN_TYPES:  # a custom node type must match exactly
        if node_type != spec.type:
            raise ValueError(f"Type mismatch; expected {spec.type!r}, but got {node_type!r}.")
        children, context = SUPPORTED_NODES[node_type].flatten_fn(node)
        if len(children) != spec.num_children:
            raise ValueError(f"Node arity mismatch; expected {spec.num_children}, but got "
                             f"{len(children)}.")
        if context != spec._context:
            raise ValueError(f"Node context mismatch for custom node type {spec.type!r}.")
    else:
        both_dicts = spec.type in STANDARD_DICT_TYPES and node_type in STANDARD_DICT_TYPES
        if not both_dicts and node_type != spec.type:
            raise ValueError(f"Node type mismatch; expected {spec.type!r}, but got "
                             f"{node_type!r}.")
        if len(node) != spec.num_children:
            raise ValueError(f"Node arity mismatch; expected {spec.num_children}, but got "
                             f"{len(node)}.")
        if both_dicts:  # dictionaries of any kind match by their keys
            expected_keys = spec._context if spec.type is not defaultdict else spec._context[1]
            if set(node) != set(expected_keys):
                missing, extra = set(expected_keys) - set(node), set(node) - set(expected_keys)
                message = ""
                if missing:
                    message += f"; missing key(s): {missing}"
                if extra:
                    message += f"; extra key(s): {extra}"
                raise ValueError(f"Node keys mismatch{message}.")
            children = [node[key] for key in expected_keys]
        else:
            children, context = SUPPORTED_NODES[node_type].flatten_fn(node)
            if context != spec._context:
                raise ValueError(f"Node context mismatch for node type {spec.type!r}; "
                                 f"expected {spec._context!r}, but got {context!r}.")
    for subtree, subspec in zip(children, spec._children, strict=True):
        _flatten_up_to(subspec, subtree, subtrees)


def tree_flatten(tree: PyTree, is_leaf: Callable[[PyTree], bool] | None = None
                 ) -> tuple[list[Any], TreeSpec]:
    """The leaves of ``tree``, depth first, and the spec that rebuilds it from them."""
    def helper(node: PyTree, leaves: list[Any]) -> TreeSpec:
        if tree_is_leaf(node, is_leaf=is_leaf):
            leaves.append(node)
            return _LEAF_SPEC
        node_type = _get_node_type(node)
        children, context = SUPPORTED_NODES[node_type].flatten_fn(node)
        return TreeSpec(node_type, context, [helper(child, leaves) for child in children])

    leaves: list[Any] = []
    treespec = helper(tree, leaves)
    return leaves, treespec


def tree_unflatten(leaves: Iterable[Any], treespec: TreeSpec) -> PyTree:
    """The pytree of ``treespec``'s structure holding ``leaves``."""
    if not isinstance(treespec, TreeSpec):
        raise TypeError(f"tree_unflatten(leaves, treespec): Expected `treespec` to be instance "
                        f"of TreeSpec but got item of type {type(treespec)}.")
    return treespec.unflatten(leaves)


def tree_iter(tree: PyTree, is_leaf: Callable[[PyTree], bool] | None = None) -> Iterator[Any]:
    """The leaves of ``tree`` one at a time, depth first."""
    if tree_is_leaf(tree, is_leaf=is_leaf):
        yield tree
        return
    children, _ = SUPPORTED_NODES[_get_node_type(tree)].flatten_fn(tree)
    for child in children:
        yield from tree_iter(child, is_leaf=is_leaf)


def tree_leaves(tree: PyTree, is_leaf: Callable[[PyTree], bool] | None = None) -> list[Any]:
    return list(tree_iter(tree, is_leaf=is_leaf))


def tree_structure(tree: PyTree, is_leaf: Callable[[PyTree], bool] | None = None) -> TreeSpec:
    return tree_flatten(tree, is_leaf=is_leaf)[1]


def tree_map(func: Callable[..., Any], tree: PyTree, *rests: PyTree,
             is_leaf: Callable[[PyTree], bool] | None = None) -> PyTree:
    """The same structure with ``func`` applied to every leaf. With ``rests``, ``func``
    also gets the matching leaf (or subtree) of each of them."""
    leaves, treespec = tree_flatten(tree, is_leaf=is_leaf)
    flat_args = [leaves] + [treespec.flatten_up_to(r) for r in rests]
    return treespec.unflatten(map(func, *flat_args))


def _predicate(type_or_types_or_pred: Any) -> Callable[[Any], bool]:
    if isinstance(type_or_types_or_pred, (type, tuple, types.UnionType)):
        return lambda x: isinstance(x, type_or_types_or_pred)
    if callable(type_or_types_or_pred):
        return type_or_types_or_pred
    raise TypeError("Argument must be a type, a tuple of types, or a callable.")


def tree_map_only(type_or_types_or_pred: Any, /, func: Callable[[Any], Any], tree: PyTree,
                  is_leaf: Callable[[PyTree], bool] | None = None) -> PyTree:
    """:func:`tree_map` that applies ``func`` only to the leaves of the given type(s) (or
    that pass the predicate) and leaves the others as they are."""
    pred = _predicate(type_or_types_or_pred)
    return tree_map(lambda x: func(x) if pred(x) else x, tree, is_leaf=is_leaf)


def tree_any(pred: Callable[[Any], bool], tree: PyTree,
             is_leaf: Callable[[PyTree], bool] | None = None) -> bool:
    return any(map(pred, tree_iter(tree, is_leaf=is_leaf)))


def tree_all(pred: Callable[[Any], bool], tree: PyTree,
             is_leaf: Callable[[PyTree], bool] | None = None) -> bool:
    return all(map(pred, tree_iter(tree, is_leaf=is_leaf)))
