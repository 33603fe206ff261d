"""Small modules shared by the module-hook scenarios, built from the library under test.

Each scenario receives ``torch`` (ours or PyTorch's) and asks :func:`modules` for the
classes, so one definition serves both libraries. The values are explicit tensors: no
random numbers, so both libraries compute the same thing.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any


def modules(torch: Any) -> SimpleNamespace:
    """``Scale`` (``x * w``), ``Affine`` (``x * w + b``, two operations), ``Pair`` (two
    tensor inputs, two outputs), ``Chain`` (children called in order) and ``Outer`` (a
    ``Scale`` inside, with a keyword argument)."""
    nn = torch.nn

    class Scale(nn.Module):
        def __init__(self, *values: float) -> None:
            super().__init__()
            self.w = nn.Parameter(torch.tensor(list(values or (2.0, 3.0))))

        def forward(self, x):
            return x * self.w

    class Affine(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.w = nn.Parameter(torch.tensor([2.0, 3.0]))
            self.b = nn.Parameter(torch.tensor([0.5, -0.5]))

        def forward(self, x):
            return x * self.w + self.b

    class Pair(nn.Module):
        def forward(self, a, b):
            return a * b, a + b

    class Chain(nn.Module):
        def __init__(self, *children: Any) -> None:
            super().__init__()
            for index, child in enumerate(children):
                self.add_module(str(index), child)

        def forward(self, x):
            for child in self.children():
                x = child(x)
            return x

    class Outer(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inner = Scale()

        def forward(self, x, *, shift=0.0):
            return self.inner(x) + shift

    return SimpleNamespace(Scale=Scale, Affine=Affine, Pair=Pair, Chain=Chain, Outer=Outer)


def reset_global_backward_hook_kind(torch: Any) -> None:
    """PyTorch remembers for good whether the global backward hooks are full or legacy (it
    forbids mixing them), even after they are removed. Scenarios that register global
    backward hooks reset that memory first, so no earlier test decides their outcome."""
    torch.nn.modules.module._global_is_full_backward_hook = None


def x2(torch: Any, requires_grad: bool = True) -> Any:
    """The input most scenarios use: ``[1., -2.]``."""
    return torch.tensor([1.0, -2.0], requires_grad=requires_grad)


def grads(tensors: Any) -> list:
    """Clones of the gradients a hook received (``None`` stays ``None``), safe to return."""
    return [None if g is None else g.clone() for g in tensors]
