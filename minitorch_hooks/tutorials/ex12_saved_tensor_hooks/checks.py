"""Checks for exercise 12: measure and shrink what autograd saves.

Every check runs on minitorch_hooks and, when it is installed, on real PyTorch. What the
learner's pack hook records is compared with what the graph's nodes say they saved (the
``grad_fn._saved_*`` attributes: the library's own account, read without any hooks) and
with sizes worked out by hand; the gradients under the learner's hooks are compared with
the library's gradients without hooks, or with a reference pair of hooks.
"""

from __future__ import annotations

import numpy as np

from ..checking import Checks, as_array, expect, expect_close, expect_equal, library_name

CHECKS = Checks(compare_with_pytorch=True)


def described(shape, dtype, nbytes):
    return (tuple(shape), str(dtype), int(nbytes))


def recorded(log):
    """The learner's records as (shape, dtype name, bytes), in the order they were made."""
    return [described(entry.shape, entry.dtype, entry.nbytes) for entry in log.entries]


def saved_by_the_graph(output):
    """What the nodes behind ``output`` saved, by their own account, sorted: for each saved
    tensor slot ``_raw_saved_<name>``, the tensor ``_saved_<name>`` gives back (a node may
    leave a slot empty: None). Numbers a node keeps are never packed and have no slot."""
    seen, found, stack = set(), [], [output.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(child for child, _ in node.next_functions)
        for slot in (name for name in dir(node) if name.startswith("_raw_saved_")):
            value = getattr(node, "_saved_" + slot[len("_raw_saved_"):])
            for tensor in value if isinstance(value, tuple) else (value,):
                if tensor is not None:
                    found.append(described(tensor.shape, tensor.dtype,
                                           tensor.numel() * tensor.element_size()))
    return sorted(found)


def leaves(torch):
    a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    b = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    c = torch.tensor([0.1, 0.2, 0.3, 0.4], dtype=torch.float64, requires_grad=True)
    return a, b, c


def mlp(torch):
    """The how-to page's network: Linear(4, 8), ReLU, Linear(8, 3), cross-entropy, a batch
    of 5. Each call builds the same weights."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(),
                                torch.nn.Linear(8, 3))
    return model, torch.nn.CrossEntropyLoss(), torch.randn(5, 4), torch.tensor([0, 2, 1, 1, 0])


def gradients(model):
    return {name: param.grad for name, param in model.named_parameters()}


# -- step 1 ----------------------------------------------------------------------------------
@CHECKS(step=1, title="pack_hook records the shape, dtype and bytes of each saved tensor",
        nudge="each saved tensor gives one entry: where it was saved, its shape, its dtype and its"
              " size in bytes",
        pointer="SavedTensorLog.pack_hook; Tensor.numel and Tensor.element_size; the course's "
                "how-to 'See what autograd saves'",
        solution="self.entries.append(Saved(self.where, tuple(tensor.shape), tensor.dtype, "
                 "tensor.numel() * tensor.element_size()))")
def pack_hook_records_what_is_saved(ex, torch):
    a, b, c = leaves(torch)
    log = ex.SavedTensorLog()
    with log.hooks():
        product = a * b  # keeps b, then a: the gradient of each factor is the other
        tanh = c.tanh()  # keeps its output, 4 float64 numbers
        total = a + 1  # keeps nothing
    expected = [described((3,), torch.float32, 12), described((2, 3), torch.float32, 24),
                described((4,), torch.float64, 32)]
    expect(recorded(log) == expected, f"the log recorded {recorded(log)} (shape, dtype, "
           f"bytes); expected {expected}, in that order")
    expect([entry.where for entry in log.entries] == [None] * 3,
           "outside any layer, an entry's where must be None (self.where)")
    theirs = sorted(saved_by_the_graph(product) + saved_by_the_graph(tanh)
                    + saved_by_the_graph(total))
    expect_equal(sorted(recorded(log)), theirs, "what the log recorded, sorted",
                 f"{library_name(torch)}'s nodes say they saved {theirs}")


@CHECKS(step=1, title="pack_hook keeps a detached tensor, never the tensor itself",
        nudge="keeping the tensor itself keeps the graph alive; keep the same data without its "
              "history",
        pointer="SavedTensorLog.pack_hook; torch.autograd.graph.saved_tensors_hooks "
                "(docs.pytorch.org/docs/2.13/autograd.html#hooks-for-saved-tensors)",
        solution="return tensor.detach(): the same memory, no grad_fn, nothing pointing back "
                 "to the graph")
def pack_hook_detaches(ex, torch):
    a, b, _ = leaves(torch)
    log = ex.SavedTensorLog()
    for what, tensor in (("a leaf", a), ("the output of a * 2", a * 2)):
        packed = log.pack_hook(tensor)
        expect(packed is not tensor, f"pack_hook returned {what} itself: the graph would "
               "keep a reference to it, and a saved output would point back to its own "
               "node (a reference cycle that PyTorch cannot free)")
        expect(getattr(packed, "grad_fn", None) is None
               and not getattr(packed, "requires_grad", True),
               f"what pack_hook returned for {what} still belongs to the graph; detach it")
        expect_close(packed, tensor, f"what pack_hook kept of {what}")
    with log.hooks():
        out = (a * b).tanh().sum()
    out.backward()
    hooked = (a.grad, b.grad)
    a.grad = b.grad = None
    (a * b).tanh().sum().backward()  # the library's gradients, without hooks
    expect_close(hooked[0], a.grad, "a.grad under the log's hooks")
    expect_close(hooked[1], b.grad, "b.grad under the log's hooks")


# -- step 2 ----------------------------------------------------------------------------------
@CHECKS(step=2, title="bytes_by_layer adds up the bytes per layer, in the order they saved",
        nudge="sum the bytes of the entries per layer; the first layer to save comes first",
        pointer="bytes_by_layer; the order of a dict's keys in Python",
        solution="loop over self.entries: totals[entry.where] = totals.get(entry.where, 0) + "
                 "entry.nbytes; a dict keeps the order its keys were added in")
def bytes_add_up_per_layer(ex, torch):
    log = ex.SavedTensorLog()
    log.entries = [ex.Saved("fc", (2,), torch.float32, 8), ex.Saved("relu", (1,), torch.float32, 4),
                   ex.Saved("fc", (4,), torch.float32, 16), ex.Saved(None, (), torch.float16, 2)]
    totals = log.bytes_by_layer()
    expected = {"fc": 24, "relu": 4, None: 2}
    expect(list(totals.items()) == list(expected.items()),
           f"bytes_by_layer() is {totals}, expected {expected} in this order")


@CHECKS(step=2, title="measure() finds what the network and its loss keep, layer by layer",
        nudge="the loss saves tensors too, so it needs a name; the forward pass and the loss must "
              "both run while the hooks are on",
        pointer="measure in your file; the exercise's text, step 2",
        solution="log = SavedTensorLog({**dict(model.named_children()), 'loss': loss_fn}); "
                 "run the forward pass and the loss inside 'with log.hooks():', then backward")
def measure_finds_the_saved_tensors(ex, torch):
    log = ex.measure(*mlp(torch))
    expect(log.entries, "the log recorded nothing: the forward pass must run inside "
           "'with log.hooks():'. Tensors are packed when they are saved, during the forward "
           "pass; hooks entered around backward() are never called")
    # By hand, in float32 bytes: layer 0 keeps its input x (5 x 4); the ReLU its output
    # (5 x 8); layer 2 that output again and weight.t() (8 x 3); the loss its log-softmax
    # (5 x 3) twice, the target's class numbers (5 int64) and the total weight (a 0-d).
    expected = {"0": 80, "1": 160, "2": 256, "loss": 60 + 60 + 40 + 4}
    totals = log.bytes_by_layer()
    expect(list(totals.items()) == list(expected.items()),
           f"bytes_by_layer() is {totals}, expected {expected}")
    model, loss_fn, inputs, target = mlp(torch)
    theirs = saved_by_the_graph(loss_fn(model(inputs), target))
    expect_equal(sorted(recorded(log)), theirs, "what the log recorded, sorted",
                 f"the log recorded {sorted(recorded(log))}; {library_name(torch)}'s nodes "
                 f"say they saved {theirs}")


@CHECKS(step=2, title="measure() runs backward as usual, and removes its pre-hooks",
        nudge="backward still has to run after the measured part, and the hooks measure() added "
              "must be gone at the end",
        pointer="measure; SavedTensorLog.remove",
        solution="call loss.backward() after the with block, then log.remove()")
def measure_keeps_the_gradients(ex, torch):
    model, loss_fn, inputs, target = mlp(torch)
    ex.measure(model, loss_fn, inputs, target)
    left = [name for name, module in [*model.named_children(), ("loss", loss_fn)]
            if module._forward_pre_hooks]
    expect(not left, f"forward pre-hooks are left on {left}: call log.remove()")
    plain, *rest = mlp(torch)
    rest[0](plain(rest[1]), rest[2]).backward()  # the library's gradients, without hooks
    for name, grad in gradients(plain).items():
        expect_close(model.get_parameter(name).grad, grad, f"{name}.grad after measure()")


# -- step 3 ----------------------------------------------------------------------------------
def round_trip(ex, tensor):
    return ex.unpack_half(ex.pack_half(tensor))


@CHECKS(step=3, title="the round trip gives float16's values back, in the original dtype",
        nudge="only floating tensors are rounded; unpack must give back the dtype the tensor had",
        pointer="pack_half and unpack_half; Tensor.to and Tensor.is_floating_point",
        solution="pack: (tensor.dtype, tensor.detach().to(torch.float16)) for a floating "
                 "tensor, (tensor.dtype, tensor.detach()) for others; unpack: kept.to(dtype)")
def round_trip_rounds_to_float16(ex, torch):
    for dtype in (torch.float32, torch.float64):
        tensor = torch.tensor([0.1, 1 / 3, 1000.7, -2.5e-3], dtype=dtype)
        back = round_trip(ex, tensor)
        expect(back.dtype == dtype, f"a {dtype} tensor came back as {back.dtype}: backward "
               "expects the dtype that was saved")
        rounded = tensor.to(torch.float16).to(dtype)  # what the library's float16 keeps
        expect(np.array_equal(as_array(back), as_array(rounded)),
               f"a {dtype} tensor came back as {as_array(back).tolist()}, expected its "
               f"float16 values {as_array(rounded).tolist()}")
        expect(tensor._version == 0 and as_array(tensor).tolist()
               == as_array(torch.tensor([0.1, 1 / 3, 1000.7, -2.5e-3], dtype=dtype)).tolist(),
               "pack_half changed its input in place; make a new tensor instead")
    classes = torch.tensor([3, 0, 5001])
    back = round_trip(ex, classes)
    expect(back.dtype == torch.int64 and as_array(back).tolist() == [3, 0, 5001],
           f"the class numbers [3, 0, 5001] came back as {as_array(back).tolist()} "
           f"({back.dtype}); float16 cannot hold 5001, so keep integer tensors as they are")


def tensors_in(packed):
    """The tensors in whatever pack_half returned: a tensor, or a tuple, list or dict."""
    if hasattr(packed, "element_size"):
        return [packed]
    if isinstance(packed, dict):
        packed = list(packed.values())
    if isinstance(packed, (tuple, list)):
        return [tensor for item in packed for tensor in tensors_in(item)]
    return []


@CHECKS(step=3, title="pack_half keeps a quarter of a float64 tensor, half of a float32 one",
        nudge="what pack returns is what stays in memory; keep nothing but the small copy and what"
              " unpack needs",
        pointer="pack_half; the course's how-to 'See what autograd saves'",
        solution="keep only the float16 copy (and the dtype, which is not a tensor), not the "
                 "original as well")
def pack_half_saves_memory(ex, torch):
    for dtype, part in ((torch.float32, 2), (torch.float64, 4)):
        tensor = torch.ones(1000, dtype=dtype)
        kept = sum(t.numel() * t.element_size() for t in tensors_in(ex.pack_half(tensor)))
        full = tensor.numel() * tensor.element_size()
        expect(0 < kept <= full // part, f"pack_half keeps {kept} bytes of tensors for a "
               f"{dtype} tensor of {full} bytes; float16 needs {full // part}")


@CHECKS(step=3, title="with these hooks the loss is the same, the gradients float16-close",
        nudge="the unpack hook is handed exactly the object the pack hook kept; do the two agree "
              "on its form, and does the gradient come back in the original dtype?",
        pointer="pack_half and unpack_half together; saved_tensors_hooks's docs",
        solution="pack_half and unpack_half work as a pair: what one returns, the other gets")
def half_precision_training(ex, torch):
    def run(hooks):
        model, loss_fn, inputs, target = mlp(torch)
        with hooks:
            loss = loss_fn(model(inputs), target)
        loss.backward()
        return loss, gradients(model)

    def reference_pack(tensor):
        kept = tensor.to(torch.float16) if tensor.is_floating_point() else tensor
        return tensor.dtype, kept

    saved_tensors_hooks = torch.autograd.graph.saved_tensors_hooks
    loss, grads = run(saved_tensors_hooks(ex.pack_half, ex.unpack_half))
    exact_loss, exact = run(saved_tensors_hooks(lambda tensor: tensor.detach(),
                                                lambda packed: packed))
    _, reference = run(saved_tensors_hooks(reference_pack,
                                           lambda packed: packed[1].to(packed[0])))
    expect(loss.item() == exact_loss.item(), f"the loss is {loss.item()}, without rounding "
           f"{exact_loss.item()}: the forward pass must compute with the real values")
    for name, grad in grads.items():
        expect(grad.dtype == torch.float32, f"{name}.grad is {grad.dtype}, expected float32")
        expect_close(grad, reference[name], f"{name}.grad with float16 saved tensors")
        change = np.abs(as_array(grad) - as_array(exact[name])).max()
        expect(change <= 1e-2 * np.abs(as_array(exact[name])).max(),
               f"{name}.grad moved by {change} from the exact gradient")


# -- step 4 ----------------------------------------------------------------------------------
@CHECKS(step=4, title="on_layer_gradients calls fn once per layer, last layer first",
        nudge="one hook per layer that fires once all of that layer's parameter gradients are "
              "ready",
        pointer="on_layer_gradients; torch.autograd.graph.register_multi_grad_hook "
                "(docs.pytorch.org/docs/2.13/autograd.html#autograd-graph)",
        solution="for each layer with parameters: torch.autograd.graph.register_multi_grad_hook("
                 "params, lambda grads, name=name: fn(name, grads)); return the handles")
def layers_report_in_backward_order(ex, torch):
    model, loss_fn, inputs, target = mlp(torch)
    calls = []
    handles = ex.on_layer_gradients(dict(model.named_children()),
                                    lambda name, grads: calls.append((name, list(grads))))
    expect(len(handles) == 2, f"{len(handles)} handles; the two Linear layers need one "
           "each, and the ReLU, without parameters, none")
    loss_fn(model(inputs), target).backward()
    names = [name for name, _ in calls]
    expect(names == ["2", "0"], f"fn was called for {names}; backward reaches layer 2's "
           "gradients first, then layer 0's, once each")
    for name, grads in calls:
        params = list(model.get_submodule(name).parameters())
        expect(len(grads) == len(params),
               f"layer {name} has {len(params)} parameters; fn got {len(grads)} gradients")
        for param, grad in zip(params, grads):
            expect_close(grad, param.grad, f"a gradient fn got for layer {name}")


@CHECKS(step=4, title="frozen parameters are left out; the handles remove the hooks",
        nudge="a frozen parameter gets no gradient, so a hook waiting for it never fires; and "
              "every hook needs its handle back",
        pointer="on_layer_gradients; Tensor.requires_grad",
        solution="keep only the parameters with requires_grad, skip a layer that has none, "
                 "and return every handle")
def frozen_parameters_and_removal(ex, torch):
    model, loss_fn, inputs, target = mlp(torch)
    model[0].bias.requires_grad_(False)
    model[2].requires_grad_(False)
    calls = []
    handles = ex.on_layer_gradients(
        dict(model.named_children()),
        lambda name, grads: calls.append((name, [tuple(g.shape) for g in grads])))
    for _ in range(2):
        loss_fn(model(inputs), target).backward()
    expected = [("0", [(8, 4)])] * 2
    expect(calls == expected, f"fn was called as {calls} (name, gradient shapes); expected "
           f"{expected}: once per backward, for the one trainable parameter")
    for handle in handles:
        handle.remove()
    loss_fn(model(inputs), target).backward()
    expect(len(calls) == 2, "fn was still called after every handle was removed")
