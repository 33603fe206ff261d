"""Module hooks on the real layers (``nn.Linear``, ``nn.ReLU``, ``nn.Sequential``): what
learners register them on first. Weights are set explicitly, so no random numbers are
involved. Each scenario runs on minitorch_hooks and on real PyTorch (see ``harness.py``)."""

from __future__ import annotations

from harness import assert_same_outcome
from module_support import grads


def _mlp(torch):
    """``Linear(3, 4) -> ReLU -> Linear(4, 2)`` with fixed weights, and an input batch."""
    nn = torch.nn
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
    with torch.no_grad():
        for param in model.parameters():
            values = (torch.arange(float(param.numel())) - param.numel() / 2) / 4
            param.copy_(values.reshape(param.shape))
    x = torch.tensor([[1.0, -1.0, 2.0], [0.5, 0.0, -3.0]], requires_grad=True)
    return model, x


def test_every_hook_on_every_layer_of_a_sequential_in_order():
    def scenario(torch):
        model, x = _mlp(torch)
        events = []
        for name, module in model.named_modules():
            label = name or "model"
            module.register_forward_pre_hook(
                lambda mod, args, label=label: events.append(("pre", label, args[0].shape)))
            module.register_forward_hook(
                lambda mod, args, out, label=label: events.append(("fwd", label, out.shape)))
            module.register_full_backward_pre_hook(
                lambda mod, go, label=label: events.append(("bw pre", label, grads(go))))
            module.register_full_backward_hook(
                lambda mod, gi, go, label=label: events.append(("bw", label, grads(gi))))
        model(x).sum().backward()
        return events, x.grad, model[0].weight.grad, model[2].bias.grad

    assert_same_outcome(scenario)


def test_a_forward_hook_on_a_middle_layer_changes_what_the_next_layer_sees():
    def scenario(torch):
        model, x = _mlp(torch)
        seen = []
        model[1].register_forward_hook(lambda mod, args, out: out * 0.5)
        model[2].register_forward_pre_hook(lambda mod, args: seen.append(args[0].clone()))
        out = model(x)
        out.sum().backward()
        return out, seen, model[0].weight.grad

    assert_same_outcome(scenario)


def test_a_global_forward_hook_fires_for_the_container_and_each_layer():
    def scenario(torch):
        model, x = _mlp(torch)
        events = []
        with torch.nn.modules.module.register_module_forward_hook(
                lambda mod, args, out: events.append((type(mod).__name__, out.shape))):
            model(x)
        return events

    assert_same_outcome(scenario)


def test_full_backward_hook_on_linear_sees_the_input_gradient():
    def scenario(torch):
        model, x = _mlp(torch)
        events = []
        model[0].register_full_backward_hook(
            lambda mod, gi, go: events.append((grads(gi), grads(go))))
        model(x).sum().backward()
        return events, x.grad

    assert_same_outcome(scenario)


def test_legacy_backward_hook_on_linear_sees_addmms_three_gradients():
    """``Linear`` is one ``addmm``: the legacy hook's ``grad_input`` is the gradient of the
    bias, of the input and of the transposed weight, not the documented one."""
    def scenario(torch):
        model, x = _mlp(torch)
        events = []
        model[0].register_backward_hook(
            lambda mod, gi, go: events.append([None if g is None else tuple(g.shape)
                                               for g in gi]))
        model(x).sum().backward()
        return events

    assert assert_same_outcome(scenario) == [[[4], [2, 3], [3, 4]]]  # tuples read as lists


def test_a_backward_hook_on_relu_can_clip_the_gradient():
    def scenario(torch):
        model, x = _mlp(torch)
        model[1].register_full_backward_hook(lambda mod, gi, go: (gi[0].clamp(-0.1, 0.1),))
        model(x).sum().backward()
        return x.grad, model[0].weight.grad

    assert_same_outcome(scenario)


def test_state_dict_keys_and_loading_into_a_different_shape():
    def scenario(torch):
        model, _ = _mlp(torch)
        nn = torch.nn
        other = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(4, 2))
        result = other.load_state_dict(model.state_dict(), strict=False)
        return list(model.state_dict()), repr(result)

    assert_same_outcome(scenario)


def test_named_modules_parameters_and_repr_of_a_sequential():
    def scenario(torch):
        model, _ = _mlp(torch)
        return ([name for name, _ in model.named_modules()],
                [name for name, _ in model.named_parameters()],
                repr(model), model.get_submodule("2").in_features)

    assert_same_outcome(scenario)


def test_relu_inplace_inside_or_after_a_hooked_module_is_the_custom_function_view_error():
    """Full backward hooks hand ``forward`` views of its inputs and the caller views of the
    outputs; ``ReLU(inplace=True)`` changes one of them in place, which PyTorch forbids."""
    def scenario(torch):
        nn = torch.nn
        model, x = _mlp(torch)
        hooked_relu = nn.ReLU(inplace=True)
        for hooked in (hooked_relu, model[0]):
            hooked.register_full_backward_hook(lambda *a: None)
        errors = []
        for action in (lambda: hooked_relu(x * 1),  # changes its input view
                       lambda: nn.ReLU(inplace=True)(model[0](x))):  # changes an output view
            try:
                action()
            except RuntimeError as error:
                errors.append(str(error))
        return errors

    assert len(assert_same_outcome(scenario)) == 2
