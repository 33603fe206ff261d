"""``nn.DataParallel`` and ``torch.nn.parallel`` on a machine without a GPU, against real
PyTorch: the wrapper calls the module itself, with every hook of both, and its state dict
puts the module's keys under ``module.``; ``DistributedDataParallel`` is importable but
needs a process group."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome


def _hooked(torch, log):
    torch.manual_seed(0)
    inner = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU())
    wrapper = torch.nn.DataParallel(inner)
    for name, module in (("wrapper", wrapper), ("inner", inner), ("linear", inner[0])):
        module.register_forward_pre_hook(
            lambda m, args, kwargs, name=name: log.append(
                ("pre", name, len(args), sorted(kwargs))), with_kwargs=True)
        module.register_forward_hook(lambda m, args, out, name=name: log.append(("forward", name)))
        module.register_full_backward_hook(
            lambda m, grad_in, grad_out, name=name: log.append(("backward", name)))
    return wrapper, inner


def test_the_wrapper_calls_the_module_with_every_hook():
    def scenario(torch):
        log = []
        wrapper, inner = _hooked(torch, log)
        x = torch.ones(4, 2, requires_grad=True)
        out = wrapper(x)
        out.sum().backward()
        return log, out, inner[0].weight.grad, wrapper.module is inner, wrapper.device_ids

    assert_same_outcome(scenario)


def test_keyword_arguments_reach_the_module():
    def scenario(torch):
        log = []
        wrapper, _ = _hooked(torch, log)
        return wrapper(input=torch.ones(1, 2)), log

    assert_same_outcome(scenario)


def test_state_dict_keys_are_prefixed_with_module():
    def scenario(torch):
        log = []
        wrapper, inner = _hooked(torch, log)
        results = [list(wrapper.state_dict()), [n for n, _ in wrapper.named_parameters()],
                   [n for n, _ in wrapper.named_modules()], repr(wrapper)]
        wrapper.load_state_dict({"module." + k: v * 0 for k, v in inner.state_dict().items()})
        results.append(inner[0].bias)
        try:
            wrapper.load_state_dict(inner.state_dict())
        except RuntimeError as error:
            results.append(str(error))
        return results

    assert_same_outcome(scenario)


def test_mode_and_conversion_reach_the_module():
    def scenario(torch):
        wrapper, inner = _hooked(torch, [])
        wrapper.eval()
        wrapper.double()
        return inner.training, inner[0].weight.dtype, wrapper.training

    assert_same_outcome(scenario)


@pytest.mark.parametrize("arguments", [{"device_ids": [0]}, {"device_ids": []},
                                       {"output_device": 0}, {"dim": 1}],
                         ids=["device_ids", "no_devices", "output_device", "dim"])
def test_device_arguments_are_ignored_without_a_gpu(arguments):
    def scenario(torch):
        wrapper = torch.nn.DataParallel(torch.nn.Linear(2, 2), **arguments)
        return (wrapper.device_ids, hasattr(wrapper, "output_device"), hasattr(wrapper, "dim"),
                isinstance(wrapper, torch.nn.parallel.DataParallel))

    assert_same_outcome(scenario)


def test_a_non_module_is_kept_as_an_attribute():
    def scenario(torch):
        wrapper = torch.nn.DataParallel(3)
        return repr(wrapper), wrapper.module, list(wrapper.children())

    assert_same_outcome(scenario)


def test_the_functional_form_needs_an_accelerator():
    def scenario(torch):
        return torch.nn.parallel.data_parallel(torch.nn.Linear(2, 2), torch.ones(1, 2))

    assert_same_outcome(scenario)


def test_distributed_data_parallel_needs_a_process_group():
    def scenario(torch):
        ddp = torch.nn.parallel.DistributedDataParallel
        results = [issubclass(ddp, torch.nn.Module)]
        try:
            ddp(torch.nn.Linear(2, 2))
        except ValueError as error:
            results.append(str(error))
        return results

    assert_same_outcome(scenario)
