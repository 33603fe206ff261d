"""Chapter 15: ``torch.autograd.graph.saved_tensors_hooks``."""

from __future__ import annotations

from types import ModuleType

from .chapter import Chapter


def example(torch: ModuleType) -> None:
    storage = []

    def pack(tensor):  # in forward, for each tensor an operation saves for backward
        storage.append(tensor.detach())
        print(f"pack:   a tensor of shape {list(tensor.shape)} kept as number "
              f"{len(storage) - 1}")
        return len(storage) - 1  # what autograd keeps instead: anything you like

    def unpack(number):  # in backward, when the operation needs the tensor again
        print(f"unpack: number {number}, {storage[number]}")
        return storage[number]

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = x * w  # the gradient of x needs w, and that of w needs x: both are saved
        loss = (y * 10).sum()  # a number and a shape are saved, no tensor: no hook
    print("forward is over; backward starts")
    loss.backward()  # the hooks apply to what was saved inside the with block
    print("x.grad =", x.grad, " w.grad =", w.grad)


CHAPTER = Chapter(
    title="Saved-tensor hooks: what autograd keeps for backward",
    intro="""
        To compute gradients, an operation keeps some tensors from the forward pass: the
        gradient of x * w with respect to x is w, so multiplication keeps both factors.
        Those saved tensors are often the largest part of the memory a training step
        holds between forward and backward. saved_tensors_hooks(pack_hook, unpack_hook)
        lets you decide how they are kept. While the with block is active, every tensor
        an operation saves is handed to pack_hook, and autograd keeps whatever pack_hook
        returns instead of the tensor. In backward, when the operation needs the tensor
        again, unpack_hook receives that object and must return a tensor of the same
        size.

        The hooks do not change the result; they change where the tensor lives meanwhile:
        copied to the CPU (torch.autograd.graph.save_on_cpu), stored in a smaller dtype,
        written to disk, or, here, kept in a list under a number.
    """,
    example=example,
    outro="""
        Both factors of x * w were packed during forward, w first, and unpacked only
        when backward reached the multiplication. The multiplication by 10 packed
        nothing: a plain number is kept as it is, and sum keeps only a shape. The hooks
        belong to the with block, not to the tensors: what was saved inside it is
        unpacked with them later, after the block has ended. Exercise 12 uses these hooks
        to measure what a network saves, and to halve it.
    """,
)
