"""The saved-tensor object and the saved-tensor hooks' state, against real PyTorch.

``grad_fn._raw_saved_<name>`` is a SavedTensor: its ``data`` is what is kept (what a pack
hook returned, a saved input itself, a saved output detached) and ``unpack_hook`` the hook
that gives it back. The stack of ``saved_tensors_hooks`` contexts (and
``disable_saved_tensors_hooks``) is per-backward state: a hook that enters or leaves one
during backward changes nothing once that backward is over."""

from __future__ import annotations

from harness import assert_same_outcome


def test_data_of_a_tensor_packed_by_a_hook_is_what_the_pack_hook_returned():
    def scenario(torch):
        kept = []

        def pack(tensor):
            kept.append(("packed", tensor))
            return kept[-1]

        def unpack(packed):
            return packed[1]

        a = torch.tensor([1.0, 2.0], requires_grad=True)
        with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
            b = a ** 3
        saved = b.grad_fn._raw_saved_self
        return saved.data is kept[0], saved.unpack_hook is unpack, saved.data[1] is a

    assert_same_outcome(scenario)


def test_data_of_a_saved_input_is_the_input_and_of_a_saved_output_a_detached_copy():
    def scenario(torch):
        a = torch.tensor([0.5, 1.0], requires_grad=True)
        b = a * 2
        c = b.exp()  # saves its output c
        d = c * c  # saves its input c (twice)
        out = c.grad_fn._raw_saved_result
        inp = d.grad_fn._raw_saved_self
        return [
            inp.data is c, inp.unpack_hook,
            out.data is c, out.data.requires_grad, out.data.grad_fn, out.data, out.unpack_hook,
            (a * a).grad_fn._raw_saved_self.data is a,  # a leaf input: the leaf itself
        ]

    assert_same_outcome(scenario)


def test_data_after_register_hooks_is_the_packed_object():
    def scenario(torch):
        a = torch.tensor([1.0, -1.0], requires_grad=True)
        y = a.exp()
        saved = y.grad_fn._raw_saved_result
        saved.register_hooks(lambda t: {"values": t}, lambda packed: packed["values"])
        return type(saved.data).__name__, saved.data["values"], saved.data["values"] is y

    assert_same_outcome(scenario)


def _logging_hooks(torch, log, label="pack"):
    """Saved-tensor hooks that log each pack and keep the tensor as it is."""
    return torch.autograd.graph.saved_tensors_hooks(
        lambda t: log.append(label) or t, lambda t: t)


def _backward_calling(torch, x, action):
    """Backward of ``(x * 2).sum()`` with a hook on ``x`` that calls ``action()``."""
    def hook(grad):
        action()
        return grad

    x.register_hook(hook)
    (x * 2).sum().backward()


def test_hooks_entered_by_a_hook_during_backward_are_gone_after_it():
    def scenario(torch):
        log = []
        inner = _logging_hooks(torch, log)
        x = torch.ones(2, requires_grad=True)
        _backward_calling(torch, x, inner.__enter__)  # entered, never left
        y = x * x  # would be packed if the context were still in force
        return log, y.grad_fn._raw_saved_self.unpack_hook

    assert_same_outcome(scenario)


def test_hooks_left_by_a_hook_during_backward_are_in_force_again_after_it():
    def scenario(torch):
        log = []
        outer = _logging_hooks(torch, log)
        x = torch.ones(2, requires_grad=True)
        with outer:
            _backward_calling(torch, x, lambda: outer.__exit__(None, None, None))
            log.clear()
            x * x  # packed: the context is still in force here
        return log

    assert_same_outcome(scenario)


def test_unpack_hook_that_enters_a_context_leaves_nothing_behind():
    def scenario(torch):
        log = []
        extra = _logging_hooks(torch, log, "extra pack")

        def unpack(t):
            extra.__enter__()
            return t

        a = torch.tensor([1.0, 2.0], requires_grad=True)
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t, unpack):
            y = (a * a).sum()
        y.backward()
        a * a
        return log, a.grad

    assert_same_outcome(scenario)


def test_leaving_a_context_with_no_hooks_in_force_is_a_runtime_error():
    def scenario(torch):
        hooks = torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t)
        try:
            hooks.__exit__(None, None, None)
        except Exception as error:  # noqa: BLE001 - PyTorch's message is an internal assert
            return type(error).__name__
        return "no error"

    assert_same_outcome(scenario)


def test_an_unpacked_leaf_sends_its_gradient_to_the_original_leaf():
    def scenario(torch):
        a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 1, lambda t: t * 1):
            y = a ** 3
        unpacked = y.grad_fn._saved_self
        facts = (unpacked is a, unpacked.is_leaf, unpacked.requires_grad, unpacked.grad_fn)
        (unpacked * 2).sum().backward()
        return facts, a.grad, unpacked.grad

    assert_same_outcome(scenario)


def test_a_leaf_packed_by_register_hooks_also_reaches_the_original():
    def scenario(torch):
        a = torch.tensor([0.5, -1.0], requires_grad=True)
        y = a * a
        y.grad_fn._raw_saved_self.register_hooks(lambda t: t.detach() * 2, lambda t: t / 2)
        unpacked = y.grad_fn._saved_self
        unpacked.exp().sum().backward()
        return a.grad, unpacked.is_leaf

    assert_same_outcome(scenario)


def test_unpack_gives_the_saved_input_or_what_the_unpack_hook_returns():
    def scenario(torch):
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        plain = (a * a).grad_fn._raw_saved_self.unpack()
        with torch.autograd.graph.saved_tensors_hooks(lambda t: ("kept", t),
                                                      lambda kept: kept[1] * 1):
            cube = a ** 3
        raw = cube.grad_fn._raw_saved_self
        first, second = raw.unpack(), raw.unpack()
        return (plain is a, first is a, first is second, first.is_leaf, first.requires_grad,
                first)

    assert_same_outcome(scenario)


def test_unpack_checks_versions_and_refuses_a_saved_output():
    def scenario(torch):
        d = torch.ones(2, requires_grad=True).clone()
        e = d * d
        d.add_(1)
        outcomes = []
        for saved in (e.grad_fn._raw_saved_self, d.exp().grad_fn._raw_saved_result):
            try:
                saved.unpack()
                outcomes.append("no error")
            except RuntimeError as error:
                outcomes.append(str(error))
        return outcomes

    assert_same_outcome(scenario)
