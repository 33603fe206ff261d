"""The two ``torch._C`` helpers PyTorch's hook tests use to look at saved tensors and at
whether a hook keeps a tensor alive, compared with real PyTorch."""

from __future__ import annotations

import gc

from harness import assert_same_outcome


def test_a_weak_tensor_ref_expires_when_the_tensor_is_gone():
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        y = x * 2
        y.register_hook(lambda grad: grad * 2)
        ref = torch._C._WeakTensorRef(y)
        alive = ref.expired()
        del y
        gc.collect()
        return alive, ref.expired()

    assert_same_outcome(scenario)


def test_a_saved_tensor_made_by_hand_uses_the_hooks_in_force():
    def scenario(torch):
        events = []

        def pack(tensor):
            events.append(("pack", tensor.tolist()))
            return tensor * 10

        def unpack(packed):
            events.append(("unpack", packed.tolist()))
            return packed

        a = torch.tensor([1.0, 2.0], requires_grad=True)
        with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
            saved = torch._C._autograd._make_saved_tensor(a, is_output=False)
        return saved.unpack(), events

    assert_same_outcome(scenario)


def test_the_current_node_and_a_post_hook_registered_while_it_runs():
    """An unpack hook runs inside its node's backward: ``_current_autograd_node`` is that
    node, and a post-hook registered on it then still fires, with no grad_outputs (PyTorch
    kept none: the node had no post-hook when it started)."""
    def scenario(torch):
        seen = []

        def unpack(tensor):
            node = torch._C._current_autograd_node()
            seen.append(node.name())

            def halve(grad_inputs, grad_outputs):
                seen.append([g is None for g in grad_outputs])
                return tuple(None if g is None else g / 2 for g in grad_inputs)

            node.register_hook(halve)
            return tensor

        a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t, unpack):
            y = (a * a).sum()
        outside = torch._C._current_autograd_node()
        y.backward()
        return outside, seen, a.grad

    assert_same_outcome(scenario)
