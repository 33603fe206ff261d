"""Every kind of hook a trace can see: when it fires, what it belongs to, what it receives.

One table serves both ways of watching hooks (our own dispatch, and real PyTorch's hooks
wrapped as they are registered), so that both describe a hook call in the same words. A
received value is written down by its shape, not its numbers: a tensor appears as its
shape in brackets (``[4, 10]``, and ``[]`` for a single number), which is what tells a
learner *which* gradient or input a hook was handed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Kind:
    """A kind of hook: its phase, what owns it, and the names of what it receives.

    ``signatures`` lists the parameter names after the module (for module hooks), one
    tuple per way PyTorch calls this kind: a forward hook registered ``with_kwargs=True``
    also receives ``kwargs``.
    """

    phase: str  # "forward", "backward", "state_dict", "registration" or "step"
    owner: str  # "module", "tensor", "node", "optimizer" or "context" (a ``with`` block)
    signatures: tuple[tuple[str, ...], ...]

    def parameter_names(self, count: int) -> tuple[str, ...]:
        for names in self.signatures:
            if len(names) == count:
                return names
        return tuple(f"arg{i}" for i in range(count))


_FULL_BACKWARD = (("grad_input", "grad_output"),)

KINDS: dict[str, Kind] = {
    "tensor hook": Kind("backward", "tensor", (("grad",),)),
    "post-accumulate-grad hook": Kind("backward", "tensor", (("tensor",),)),
    "node pre-hook": Kind("backward", "node", (("grad_outputs",),)),
    "node hook": Kind("backward", "node", (("grad_inputs", "grad_outputs"),)),
    "pack hook": Kind("forward", "context", (("tensor",),)),
    "unpack hook": Kind("backward", "context", (("packed",),)),
    "forward pre-hook": Kind("forward", "module", (("args",), ("args", "kwargs"))),
    "forward hook": Kind("forward", "module", (("args", "output"),
                                               ("args", "kwargs", "output"))),
    "backward pre-hook": Kind("backward", "module", (("grad_output",),)),
    "backward hook": Kind("backward", "module", _FULL_BACKWARD),
    "backward hook (legacy)": Kind("backward", "module", _FULL_BACKWARD),
    "state_dict pre-hook": Kind("state_dict", "module", (("prefix", "keep_vars"),)),
    "state_dict post-hook": Kind("state_dict", "module",
                                 (("state_dict", "prefix", "local_metadata"),)),
    "load_state_dict pre-hook": Kind("state_dict", "module", (
        ("state_dict", "prefix", "local_metadata", "strict", "missing_keys",
         "unexpected_keys", "error_msgs"),)),
    "load_state_dict post-hook": Kind("state_dict", "module", (("incompatible_keys",),)),
    "module registration hook": Kind("registration", "module", (("name", "module"),)),
    "parameter registration hook": Kind("registration", "module", (("name", "param"),)),
    "buffer registration hook": Kind("registration", "module", (("name", "buffer"),)),
    # An optimiser's hooks; ``args`` of a step hook starts with the optimiser itself.
    "step pre-hook": Kind("step", "optimizer", (("args", "kwargs"),)),
    "step post-hook": Kind("step", "optimizer", (("args", "kwargs"),)),
    "optimizer state_dict pre-hook": Kind("state_dict", "optimizer", ((),)),
    "optimizer state_dict post-hook": Kind("state_dict", "optimizer", (("state_dict",),)),
    "optimizer load_state_dict pre-hook": Kind("state_dict", "optimizer", (("state_dict",),)),
    "optimizer load_state_dict post-hook": Kind("state_dict", "optimizer", ((),)),
}

GLOBAL = "global "  # the prefix of a global module hook's kind: "global forward hook"


def kind_info(kind: str) -> Kind:
    """The table entry for ``kind``, global or not."""
    return KINDS[kind.removeprefix(GLOBAL)]


def is_tensor(value: Any) -> bool:
    """Duck-typed, so that the same code describes our tensors and PyTorch's."""
    return hasattr(value, "shape") and hasattr(value, "requires_grad")


def is_module(value: Any) -> bool:
    return hasattr(value, "named_modules") and hasattr(value, "forward")


def describe(value: Any) -> str:
    """A short, library-independent description of one value a hook received."""
    if is_tensor(value):
        return "[" + ", ".join(str(size) for size in value.shape) + "]"
    if is_module(value):
        return type(value).__name__
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # a namedtuple
        fields = ", ".join(f"{field}={describe(getattr(value, field))}"
                           for field in value._fields)
        return f"{type(value).__name__}({fields})"
    if isinstance(value, tuple):
        items = [describe(item) for item in value]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if isinstance(value, list):
        return "[" + ", ".join(describe(item) for item in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{key!r}: {describe(item)}" for key, item in value.items()) + "}"
    if value is None or isinstance(value, (str, bool, int, float)):
        return repr(value)
    return type(value).__name__


def hook_name(hook: Any) -> str:
    """``__name__`` (``<lambda>`` for a lambda), or the class name of a callable object."""
    return getattr(hook, "__name__", None) or type(hook).__name__
