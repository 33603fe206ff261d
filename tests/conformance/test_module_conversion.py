"""Moving and casting a module (``to``, ``cpu``, ``float``/``double``/``half``, ``type``)
and ``get_parameter``/``get_buffer``, against real PyTorch: which tensors change dtype,
which objects stay the same, what happens to gradients and hooks, and the errors."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome
from module_support import modules, x2


def _model(torch):
    """``Affine`` inside a ``Chain`` with an int64 buffer (a step counter, never cast), a
    float buffer, an empty parameter slot and a gradient on ``w``."""
    m = modules(torch)
    affine = m.Affine()
    model = m.Chain(affine, m.Scale(4.0, 5.0))
    model.register_buffer("steps", torch.tensor(7))
    model.register_buffer("running", torch.tensor([0.25, 0.5]))
    model.register_parameter("unused", None)
    model(x2(torch)).sum().backward()
    return model, affine


def _state(model):
    """What a conversion may change: each parameter's and buffer's dtype and values, the
    gradients and their dtypes."""
    return ({name: p for name, p in model.named_parameters()},
            {name: b for name, b in model.named_buffers()},
            {name: p.grad for name, p in model.named_parameters()})


CONVERSIONS = {
    "double()": lambda torch, model: model.double(),
    "half()": lambda torch, model: model.half(),
    "float() after double()": lambda torch, model: model.double().float(),
    "to(float64)": lambda torch, model: model.to(torch.float64),
    "to(dtype=float64)": lambda torch, model: model.to(dtype=torch.float64),
    "to('cpu', float64)": lambda torch, model: model.to("cpu", torch.float64),
    "to(device='cpu', dtype=float16)": lambda torch, model: model.to(device="cpu",
                                                                     dtype=torch.float16),
    "to(a float64 tensor)": lambda torch, model: model.to(torch.zeros(1, dtype=torch.float64)),
    "to('cpu')": lambda torch, model: model.to("cpu"),
    "to(device('cpu'))": lambda torch, model: model.to(torch.device("cpu")),
    "cpu()": lambda torch, model: model.cpu(),
    "float()": lambda torch, model: model.float(),
    "type(float64)": lambda torch, model: model.type(torch.float64),
    "type('torch.DoubleTensor')": lambda torch, model: model.type("torch.DoubleTensor"),
}


@pytest.mark.parametrize("convert", list(CONVERSIONS))
def test_conversion_casts_floating_tensors_and_keeps_the_parameter_objects(convert):
    def scenario(torch):
        model, affine = _model(torch)
        params = dict(model.named_parameters())
        grads = {name: p.grad for name, p in params.items()}
        buffers = dict(model.named_buffers())
        returned = CONVERSIONS[convert](torch, model)
        return (returned is model, _state(model),
                [p is params[name] for name, p in model.named_parameters()],
                [p.grad is grads[name] for name, p in model.named_parameters()],
                [b is buffers[name] for name, b in model.named_buffers()],
                [(p.is_leaf, p.requires_grad, type(p).__name__) for p in model.parameters()],
                model._parameters["unused"], affine.w is model.get_parameter("0.w"))

    assert_same_outcome(scenario)


def test_type_casts_integer_buffers_too():
    def scenario(torch):
        model, _ = _model(torch)
        model.type(torch.float64)
        return model.steps, model.running

    assert_same_outcome(scenario)


def test_a_converted_module_runs_in_the_new_dtype_with_its_hooks():
    def scenario(torch):
        model, affine = _model(torch)
        events = []
        affine.register_forward_hook(lambda m, args, out: events.append(("forward", out.dtype)))
        affine.register_full_backward_hook(
            lambda m, gin, gout: events.append(("backward", [g.dtype for g in gout])))
        affine.w.register_hook(lambda g: events.append(("w hook", g.dtype)))
        model.zero_grad()
        model.double()
        x = torch.tensor([1.0, -2.0], dtype=torch.float64, requires_grad=True)
        out = model(x)
        out.sum().backward()
        return events, out, x.grad, affine.w.grad, affine.b.grad

    assert_same_outcome(scenario)


def test_an_optimizer_made_before_the_conversion_still_steps_the_parameters():
    def scenario(torch):
        model, affine = _model(torch)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
        model.double()
        optimizer.step()
        return affine.w, affine.b, [p.dtype for group in optimizer.param_groups
                                    for p in group["params"]]

    assert_same_outcome(scenario)


@pytest.mark.parametrize("args", [
    pytest.param(lambda torch: (torch.int64,), id="int64"),
    pytest.param(lambda torch: ("cpu", torch.bool), id="cpu, bool"),
    pytest.param(lambda torch: (torch.arange(2),), id="an int64 tensor"),
])
def test_to_an_integer_dtype_is_an_error(args):
    def scenario(torch):
        model, _ = _model(torch)
        try:
            model.to(*args(torch))
        except TypeError as error:
            return str(error), _state(model)

    assert_same_outcome(scenario)


def test_type_with_an_unknown_name_is_an_error():
    assert_same_outcome(lambda torch: modules(torch).Scale().type("torch.NoSuchTensor"))


def test_to_a_cuda_device_fails_as_in_a_cpu_only_build():
    """``model.to("cuda")``, ``model.cuda()`` and a tensor's ``to("cuda")`` raise a CPU-only
    PyTorch's ``AssertionError: Torch not compiled with CUDA enabled``; ``cuda(0)`` names an
    accelerator, and fails first because there is none. The module is left as it was, and a
    module without parameters or buffers has nothing to move."""
    def scenario(torch):
        model, affine = _model(torch)
        results = []
        for call in (lambda: model.to("cuda"), lambda: model.to(device="cuda"),
                     lambda: model.to("cuda:0", torch.float64), lambda: model.cuda(),
                     lambda: model.cuda(0), lambda: affine.w.to("cuda"),
                     lambda: affine.w.cuda(), lambda: affine.w.cuda(device="cuda:1"),
                     lambda: affine.w.to(torch.device("cuda"))):
            try:
                call()
            except (RuntimeError, AssertionError) as error:
                results.append((type(error).__name__, str(error)))
        return results, affine.w, affine.w.dtype, type(torch.nn.ReLU().cuda()).__name__

    assert_same_outcome(scenario)


@pytest.mark.parametrize("target", ["steps", "running", "extra", "empty", "0.w", "unused",
                                    "nothing", "0.nothing", "0", "2.steps", "training"])
def test_get_buffer(target):
    def scenario(torch):
        model, _ = _model(torch)
        model[0].register_buffer("extra", torch.ones(1), persistent=False)
        model.register_buffer("empty", None)
        return model.get_buffer(target), model.get_buffer("0.extra")

    assert_same_outcome(scenario)


@pytest.mark.parametrize("target", ["0.w", "1.w", "0.b", "unused", "0.nothing", "nothing",
                                    "0", "steps", "2.w", "0.w.data"])
def test_get_parameter(target):
    def scenario(torch):
        model, _ = _model(torch)
        param = model.get_parameter(target)
        return type(param).__name__, param

    assert_same_outcome(scenario)
