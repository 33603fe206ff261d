"""``torch.utils.checkpoint``, against real PyTorch: both variants (``use_reentrant=True``,
a Function that reruns the function in its backward; ``False``, saved-tensor hooks that
rerun it on unpack), with module and tensor hooks inside. Forward hooks fire once in
forward and again in the recomputation; the gradients are those without checkpointing;
dropout draws the same mask again when the RNG state is preserved."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome, outcome, pytorch_outcome

import minitorch_hooks

MODES = pytest.mark.parametrize("reentrant", [True, False], ids=["reentrant", "non_reentrant"])


def _block(torch, log, dropout=0.5):
    """Linear -> Tanh -> Dropout, every hook kind logging with its module's name."""
    torch.manual_seed(0)
    layers = {"lin": torch.nn.Linear(3, 3), "act": torch.nn.Tanh(),
              "drop": torch.nn.Dropout(dropout)}
    for name, module in layers.items():
        module.register_forward_pre_hook(
            lambda m, args, name=name: log.append(("pre", name, torch.is_grad_enabled())))
        module.register_forward_hook(
            lambda m, args, out, name=name: log.append(("forward", name, out.requires_grad)))
        module.register_full_backward_pre_hook(
            lambda m, grad_out, name=name: log.append(("backward pre", name)))
        module.register_full_backward_hook(
            lambda m, grad_in, grad_out, name=name: log.append(
                ("backward", name, [g is None for g in grad_in])))
    return torch.nn.Sequential(*layers.values())


@MODES
@pytest.mark.parametrize("input_requires_grad", [True, False], ids=["x_grad", "x_no_grad"])
def test_module_hooks_fire_in_forward_and_again_in_the_recomputation(reentrant,
                                                                     input_requires_grad):
    """The reentrant variant with an input that needs no gradient gives an output that
    needs none either: backward cannot run, and the modules' backward hooks never fire."""
    def scenario(torch):
        log = []
        block = _block(torch, log)
        x = torch.ones(2, 3, requires_grad=input_requires_grad)
        out = torch.utils.checkpoint.checkpoint(block, x, use_reentrant=reentrant)
        log.append(("output requires grad", out.requires_grad))
        if out.requires_grad:
            log.append("backward starts")
            out.sum().backward()
        return log, block[0].weight.grad, x.grad, torch.rand(2)

    assert_same_outcome(scenario)


@MODES
def test_gradients_equal_those_without_checkpointing(reentrant):
    def scenario(torch):
        results = []
        for checkpointed in (False, True):
            block = _block(torch, [])
            x = (torch.arange(6.0).reshape(2, 3) / 3 - 1).requires_grad_()
            out = (torch.utils.checkpoint.checkpoint(block, x, use_reentrant=reentrant)
                   if checkpointed else block(x))
            (out * out).sum().backward()
            results.append((out, x.grad, block[0].weight.grad, block[0].bias.grad))
        return results

    assert_same_outcome(scenario)


@MODES
@pytest.mark.parametrize("preserve", [True, False], ids=["preserve_rng", "fresh_rng"])
def test_dropout_mask_in_the_recomputation(reentrant, preserve):
    """With ``preserve_rng_state=True`` the recomputation draws forward's mask again and
    the generator is left where backward found it; with False it draws a new mask, and the
    gradient no longer matches the output."""
    def scenario(torch):
        block = _block(torch, [])
        x = torch.ones(4, 3, requires_grad=True)
        out = torch.utils.checkpoint.checkpoint(block, x, use_reentrant=reentrant,
                                                preserve_rng_state=preserve)
        torch.manual_seed(123)
        out.sum().backward()
        return out, x.grad, torch.rand(3)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("sequential", [False, True], ids=["checkpoint", "sequential"])
def test_use_reentrant_not_given_warns_and_means_true(sequential):
    def scenario(torch):
        log = []
        block = _block(torch, log)
        x = torch.ones(1, 3, requires_grad=True)
        if sequential:
            out = torch.utils.checkpoint.checkpoint_sequential(block, 2, x)
        else:
            out = torch.utils.checkpoint.checkpoint(block, x)
        out.sum().backward()
        return log, x.grad

    assert_same_outcome(scenario)


@MODES
@pytest.mark.parametrize("segments", [1, 2, 3])
def test_checkpoint_sequential_recomputes_all_segments_but_the_last(reentrant, segments):
    def scenario(torch):
        log = []
        block = _block(torch, log, dropout=0.0)
        x = torch.ones(1, 3, requires_grad=True)
        out = torch.utils.checkpoint.checkpoint_sequential(block, segments, x,
                                                           use_reentrant=reentrant)
        log.append("backward starts")
        out.sum().backward()
        return log, x.grad

    assert_same_outcome(scenario)


@MODES
def test_autograd_grad_and_backward_inputs(reentrant):
    """Only the non-reentrant variant works under ``autograd.grad`` and
    ``backward(inputs=...)``: the reentrant one runs a whole backward of its own."""
    def scenario(torch):
        torch.manual_seed(0)
        results = []
        for run in ("grad", "inputs"):
            lin = torch.nn.Linear(2, 2)
            x = torch.ones(1, 2, requires_grad=True)
            out = torch.utils.checkpoint.checkpoint(lambda t, lin=lin: lin(t).tanh(), x,
                                                    use_reentrant=reentrant)
            try:
                if run == "grad":
                    results.append(torch.autograd.grad(out.sum(), x))
                else:
                    out.sum().backward(inputs=[x])
                    results.append((x.grad, lin.weight.grad))
            except RuntimeError as error:
                results.append(str(error))
        return results

    assert_same_outcome(scenario)


@MODES
def test_tensor_hooks_registered_inside_the_function(reentrant):
    """Inside the reentrant forward there is no graph (``requires_grad`` is False), so a
    hook can only be registered in the recomputation, where it fires; in the non-reentrant
    variant the forward's tensor is the one in the graph, so its hook fires, and the
    recomputed tensor's hook does not."""
    def scenario(torch):
        torch.manual_seed(0)
        log = []
        lin = torch.nn.Linear(2, 2)

        def fn(x):
            hidden = lin(x)
            log.append(("hidden requires grad", hidden.requires_grad))
            if hidden.requires_grad:
                run = sum(1 for event in log if event[0] == "hidden requires grad")
                hidden.register_hook(lambda g, run=run: log.append(("hook of run", run)))
            return hidden.relu()

        x = torch.ones(1, 2, requires_grad=True)
        out = torch.utils.checkpoint.checkpoint(fn, x, use_reentrant=reentrant)
        out.sum().backward()
        return log

    assert_same_outcome(scenario)


def test_saved_tensor_hooks_see_only_the_checkpoint_inputs():
    """Non-reentrant: the checkpoint's own pack hook is innermost, so a user's
    ``saved_tensors_hooks`` around the call packs only the inputs the checkpoint keeps
    (and what is saved after it), and unpacks them when backward recomputes."""
    def scenario(torch):
        torch.manual_seed(0)
        log = []

        def pack(t):
            log.append(("pack", tuple(t.shape)))
            return t

        def unpack(t):
            log.append(("unpack", tuple(t.shape)))
            return t

        lin = torch.nn.Linear(3, 2)
        x = torch.ones(4, 3, requires_grad=True)
        with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
            hidden = torch.utils.checkpoint.checkpoint(lambda t: lin(t).tanh(), x,
                                                       use_reentrant=False)
            out = (hidden * hidden).sum()
        log.append("backward starts")
        out.backward()
        return log, x.grad

    assert_same_outcome(scenario)


def test_nested_non_reentrant_checkpoints():
    def scenario(torch):
        torch.manual_seed(0)
        log = []
        inner = torch.nn.Linear(2, 2)
        outer = torch.nn.Linear(2, 2)
        inner.register_forward_hook(lambda m, a, o: log.append("inner forward"))
        outer.register_forward_hook(lambda m, a, o: log.append("outer forward"))
        checkpoint = torch.utils.checkpoint.checkpoint

        def fn(x):
            return outer(checkpoint(lambda t: inner(t).sin(), x, use_reentrant=False)).cos()

        x = torch.ones(1, 2, requires_grad=True)
        out = checkpoint(fn, x, use_reentrant=False)
        log.append("backward starts")
        out.sum().backward()
        return log, x.grad, inner.weight.grad, outer.weight.grad

    assert_same_outcome(scenario)


@MODES
def test_a_second_backward_recomputes_again(reentrant):
    def scenario(torch):
        torch.manual_seed(0)
        log = []
        lin = torch.nn.Linear(2, 2)
        lin.register_forward_hook(lambda m, a, o: log.append("forward"))
        x = torch.ones(1, 2, requires_grad=True)
        out = torch.utils.checkpoint.checkpoint(lambda t: lin(t).exp(), x,
                                                use_reentrant=reentrant)
        for _ in range(2):
            log.append("backward starts")
            out.sum().backward(retain_graph=True)
        return log, x.grad

    assert_same_outcome(scenario)


@MODES
def test_under_no_grad_nothing_is_recorded(reentrant):
    def scenario(torch):
        log = []
        block = _block(torch, log)
        with torch.no_grad():
            out = torch.utils.checkpoint.checkpoint(block, torch.ones(1, 3, requires_grad=True),
                                                    use_reentrant=reentrant)
        return log, out.requires_grad

    assert_same_outcome(scenario)


def test_keyword_arguments_and_options_by_variant():
    def scenario(torch):
        torch.manual_seed(0)
        checkpoint = torch.utils.checkpoint.checkpoint
        x = torch.ones(2, requires_grad=True)
        results = [checkpoint(lambda t, scale: t * scale, x, scale=3.0, use_reentrant=False)]
        attempts = (
            lambda: checkpoint(lambda t, scale: t * scale, x, scale=3.0, use_reentrant=True),
            lambda: checkpoint(torch.sin, x, use_reentrant=True,
                               context_fn=torch.utils.checkpoint.noop_context_fn),
            lambda: checkpoint(torch.sin, x, use_reentrant=True, context_fn=lambda: (1, 2)),
            lambda: checkpoint(torch.sin, x, use_reentrant=True, debug=True),
            lambda: checkpoint(torch.sin, x, use_reentrant=False, determinism_check="all"),
            lambda: torch.utils.checkpoint.checkpoint_sequential(
                [torch.sin], 1, x, use_reentrant=False, extra=1),
        )
        for attempt in attempts:
            try:
                results.append(attempt())
            except ValueError as error:
                results.append(("ValueError", str(error)))
        return results

    assert_same_outcome(scenario)


def test_context_fn_wraps_the_forward_and_the_recomputation():
    def scenario(torch):
        torch.manual_seed(0)
        log = []

        class Where:
            def __init__(self, name):
                self.name = name

            def __enter__(self):
                log.append(("enter", self.name))

            def __exit__(self, *exc):
                log.append(("exit", self.name))

        x = torch.ones(2, requires_grad=True)
        out = torch.utils.checkpoint.checkpoint(
            lambda t: t.sin().exp(), x, use_reentrant=False,
            context_fn=lambda: (Where("forward"), Where("recompute")))
        log.append("backward starts")
        out.sum().backward()
        return log, x.grad

    assert_same_outcome(scenario)


def test_a_recomputation_that_saves_other_tensors_is_an_error():
    def scenario(torch):
        torch.manual_seed(0)
        calls = []

        def fn(x):
            calls.append(1)
            return x.exp() if len(calls) == 1 else x[:1].exp()

        def fewer(x):
            calls.append(1)
            return x.exp().exp() if len(calls) == 1 else x.exp() * 2

        results = []
        for function in (fn, fewer):
            calls.clear()
            out = torch.utils.checkpoint.checkpoint(function, torch.ones(2, requires_grad=True),
                                                    use_reentrant=False)
            try:
                out.sum().backward()
            except RuntimeError as error:
                results.append((type(error).__name__, str(error)))
        return results

    assert_same_outcome(scenario)


def test_early_stop_can_be_switched_off():
    """Without early stop the whole function runs again, so the last module's forward
    hook fires in the recomputation too."""
    def scenario(torch):
        log = []
        block = _block(torch, log, dropout=0.0)
        x = torch.ones(1, 3, requires_grad=True)
        with torch.utils.checkpoint.set_checkpoint_early_stop(False):
            out = torch.utils.checkpoint.checkpoint(block, x, use_reentrant=False)
        log.append("backward starts")
        out.sum().backward()
        return log, x.grad

    assert_same_outcome(scenario)


def test_detach_variable_and_backward_validity():
    def scenario(torch):
        torch.manual_seed(0)
        utils = torch.utils.checkpoint
        x = torch.ones(2, requires_grad=True) * 2
        detached = utils.detach_variable((x, 3, torch.zeros(1)))
        results = [[(type(d).__name__, getattr(d, "requires_grad", None),
                     getattr(d, "is_leaf", None)) for d in detached]]
        try:
            utils.detach_variable([x])
        except RuntimeError as error:
            results.append(str(error))
        utils.check_backward_validity([torch.ones(1), 2])
        return results

    assert_same_outcome(scenario)


def test_debug_mode_is_not_implemented_deviation():
    """DEVIATION: ``debug=True`` (and ``set_checkpoint_debug_enabled(True)``) makes PyTorch
    log every operator of the forward and the recomputation through a dispatch mode, to
    explain a failed determinism check; minitorch_hooks has no dispatch modes, so it raises
    NotImplementedError. The checkpoint itself works as without debug in PyTorch."""
    def scenario(torch):
        checkpoint = torch.utils.checkpoint
        x = torch.ones(2, requires_grad=True)
        results = []
        for run in (lambda: checkpoint.checkpoint(torch.sin, x, use_reentrant=False, debug=True),
                    lambda: checkpoint.checkpoint(torch.sin, x, use_reentrant=False)):
            with checkpoint.set_checkpoint_debug_enabled(True):
                try:
                    results.append(run().sum().item())
                except NotImplementedError as error:
                    results.append(str(error))
        with checkpoint.set_checkpoint_debug_enabled(False):
            results.append(checkpoint.checkpoint(torch.sin, x, use_reentrant=False,
                                                 debug=True).sum().item())
        return results

    theirs, _ = pytorch_outcome(scenario)
    ours, _ = outcome(scenario, minitorch_hooks)
    message = ("torch.utils.checkpoint's debug=True is not implemented by minitorch_hooks: it "
               "logs every operator through a dispatch mode, which minitorch_hooks does not have")
    assert theirs == [pytest.approx(1.6829419), pytest.approx(1.6829419),
                      pytest.approx(1.6829419)]
    assert ours == [message, message, pytest.approx(1.6829419)]
