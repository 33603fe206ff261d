"""``minitorch_hooks.hook_trace``: what it records, how it names things, and how it renders.

The expected timelines below were worked out by hand from PyTorch's documented hook order
(forward: pre-hooks, forward, hooks; backward: from the loss back to the leaves, a tensor's
hooks before its grad_fn runs, a module's backward hook once the gradient reaches its
inputs). The conformance tests run the same scenarios on real PyTorch, traced by wrapping
its hooks as they are registered, and compare the two timelines (graph-node hooks, which
PyTorch does not let us watch, left out).
"""

from __future__ import annotations

import copy
import importlib
import json
import xml.etree.ElementTree as ElementTree

import pytest
from harness import pytorch_answer, real_torch

import minitorch_hooks
from minitorch_hooks.tracing import HookEvent, hook_trace
from minitorch_hooks.tracing.events import events_from_json
from minitorch_hooks.tracing.registration import NOT_SEEN
from minitorch_hooks.utils import hooks as dispatch


def _net(torch):
    """A model with a nested container: modules named encoder, encoder.0, encoder.1, head."""
    torch.manual_seed(0)

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.encoder = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU())
            self.head = torch.nn.Linear(2, 1)

        def forward(self, x):
            return self.head(self.encoder(x))

    return Net()


def every_local_hook(torch):
    """Every kind of local hook once, on a nested model: returns the trace."""
    def double_input(module, args):
        return (args[0] * 2,)

    def watch_output(module, args, output):
        return None

    def with_kwargs(module, args, kwargs, output):
        output.register_hook(on_hidden)  # a hook registered by a hook, on a non-leaf

    def on_hidden(grad):
        return None

    def before_head(module, grad_output):
        return None

    def after_first(module, grad_input, grad_output):
        return None

    def legacy(module, grad_input, grad_output):
        return None

    def on_x(grad):
        return grad * 1

    def after_accumulate(param):
        return None

    def node_pre(grad_outputs):
        return None

    def node_post(grad_inputs, grad_outputs):
        return None

    model = _net(torch)
    x = torch.ones(4, 3, requires_grad=True)
    with hook_trace(model, names={"x": x}, torch=torch) as recorded:
        model.encoder[0].register_forward_pre_hook(double_input)
        model.encoder[0].register_forward_hook(watch_output)
        model.encoder.register_forward_hook(with_kwargs, with_kwargs=True)
        model.head.register_full_backward_pre_hook(before_head)
        model.encoder[0].register_full_backward_hook(after_first)
        model.encoder[1].register_backward_hook(legacy)  # ReLU: a single operation
        x.register_hook(on_x)
        model.head.weight.register_post_accumulate_grad_hook(after_accumulate)
        loss = model(x).sum()
        loss.grad_fn.register_prehook(node_pre)
        loss.grad_fn.register_hook(node_post)
        loss.backward()
    return recorded


EVERY_LOCAL_HOOK = [
    # forward: the pre-hook doubles x (same shape), then the hooks from the inside out
    "forward: forward pre-hook on encoder.0 (Linear): double_input(args=([4, 3],)) "
    "-> replaced",
    "forward: forward hook on encoder.0 (Linear): watch_output(args=([4, 3],), output=[4, 2])",
    "forward: forward hook on encoder (Sequential): with_kwargs(args=([4, 3],), kwargs={}, "
    "output=[4, 2])",
    # backward: the loss's node first; its gradient is a single number, []
    "backward: node pre-hook on SumBackward0: node_pre(grad_outputs=([],))",
    "backward: node hook on SumBackward0: node_post(grad_inputs=([4, 1],), grad_outputs=([],))",
    "backward: backward pre-hook on head (Linear): before_head(grad_output=([4, 1],))",
    # head's weight accumulates as soon as its gradient is ready (leaves go first)
    "backward: post-accumulate-grad hook on head.weight: after_accumulate(tensor=[1, 2])",
    # the encoder's output (made by ReLU): its tensor hook, then ReLU's node ran the legacy
    "backward: tensor hook on output of ReluBackward0: on_hidden(grad=[4, 2])",
    "backward: backward hook (legacy) on encoder.1 (ReLU): legacy(grad_input=([4, 2],), "
    "grad_output=([4, 2],))",
    "backward: backward hook on encoder.0 (Linear): after_first(grad_input=([4, 3],), "
    "grad_output=([4, 2],))",
    "backward: tensor hook on x: on_x(grad=[4, 3]) -> replaced",
]


def test_every_local_hook_kind_on_a_nested_model():
    recorded = every_local_hook(minitorch_hooks)
    assert [event.line() for event in recorded.events] == EVERY_LOCAL_HOOK
    assert [event.index for event in recorded.events] == list(range(1, 12))
    first = recorded.events[0]
    assert (first.phase, first.kind, first.where, first.hook, first.received, first.replaced,
            first.raised) == ("forward", "forward pre-hook", "encoder.0 (Linear)",
                              "double_input", (("args", "([4, 3],)"),), True, None)


def test_every_local_hook_kind_matches_pytorch():
    theirs = pytorch_answer(lambda torch: [e.line() for e in every_local_hook(torch).events])
    ours = every_local_hook(minitorch_hooks)
    assert theirs == [e.line() for e in ours.events if e.kind not in NOT_SEEN]


def every_global_hook(torch):
    """The four global module hooks beside one local hook of each kind, on encoder[0]."""
    def log(module, *received):
        return None

    model = _net(torch)
    x = torch.ones(1, 3, requires_grad=True)
    registry = torch.nn.modules.module
    with hook_trace(model, torch=torch) as recorded:
        handles = [registry.register_module_forward_pre_hook(log),
                   registry.register_module_forward_hook(log),
                   registry.register_module_full_backward_pre_hook(log),
                   registry.register_module_full_backward_hook(log),
                   model.encoder[0].register_forward_pre_hook(log),
                   model.encoder[0].register_forward_hook(log),
                   model.encoder[0].register_full_backward_pre_hook(log),
                   model.encoder[0].register_full_backward_hook(log)]
        try:
            model(x).sum().backward()
        finally:
            for handle in handles:
                handle.remove()
    return recorded


def _where_and_kind(recorded):
    return [f"{event.where}: {event.kind}" for event in recorded.events]


def test_global_hooks_fire_for_every_module_before_the_local_ones():
    recorded = every_global_hook(minitorch_hooks)
    assert _where_and_kind(recorded) == [
        "Net: global forward pre-hook",
        "encoder (Sequential): global forward pre-hook",
        "encoder.0 (Linear): global forward pre-hook",
        "encoder.0 (Linear): forward pre-hook",
        "encoder.0 (Linear): global forward hook",
        "encoder.0 (Linear): forward hook",
        "encoder.1 (ReLU): global forward pre-hook",
        "encoder.1 (ReLU): global forward hook",
        "encoder (Sequential): global forward hook",
        "head (Linear): global forward pre-hook",
        "head (Linear): global forward hook",
        "Net: global forward hook",
        # backward: pre-hooks from the outside in as the gradient reaches each output
        "Net: global backward pre-hook",
        "head (Linear): global backward pre-hook",
        "head (Linear): global backward hook",
        "encoder (Sequential): global backward pre-hook",
        "encoder.1 (ReLU): global backward pre-hook",
        "encoder.1 (ReLU): global backward hook",
        "encoder.0 (Linear): global backward pre-hook",
        "encoder.0 (Linear): backward pre-hook",
        "encoder.0 (Linear): global backward hook",
        "encoder.0 (Linear): backward hook",
        "encoder (Sequential): global backward hook",
        "Net: global backward hook",
    ]
    assert {e.phase for e in recorded.events[:12]} == {"forward"}
    assert {e.phase for e in recorded.events[12:]} == {"backward"}


def test_every_global_hook_matches_pytorch():
    assert pytorch_answer(lambda torch: [e.line() for e in every_global_hook(torch).events]) == \
        [e.line() for e in every_global_hook(minitorch_hooks).events]


def building_and_saving(torch):
    """Registration hooks while the model is built inside the trace (which names it from
    them), then every state_dict hook."""
    registry = torch.nn.modules.module

    def on_module(module, name, submodule):
        return None

    def on_parameter(module, name, param):
        return None

    def before(module, prefix, keep_vars):
        return None

    def after(module, state_dict, prefix, local_metadata):
        return None

    def before_load(module, state_dict, *rest):
        return None

    def after_load(module, incompatible_keys):
        return None

    with hook_trace(torch=torch) as recorded:
        handles = [registry.register_module_module_registration_hook(on_module),
                   registry.register_module_parameter_registration_hook(on_parameter)]
        try:
            model = torch.nn.Sequential(torch.nn.Linear(2, 1))
        finally:
            for handle in handles:
                handle.remove()
        model[0].register_state_dict_pre_hook(before)
        model[0].register_state_dict_post_hook(after)
        model[0].register_load_state_dict_pre_hook(before_load)
        model[0].register_load_state_dict_post_hook(after_load)
        model.load_state_dict(model.state_dict())
    return recorded


def test_registration_and_state_dict_hooks():
    assert [event.line() for event in building_and_saving(minitorch_hooks).events] == [
        # Linear is built (and registers its parameters) before Sequential takes it in
        "registration: parameter registration hook on Linear: on_parameter(name='weight', "
        "param=[1, 2])",
        "registration: parameter registration hook on Linear: on_parameter(name='bias', "
        "param=[1])",
        "registration: module registration hook on Sequential: on_module(name='0', "
        "module=Linear)",
        # once registered, the Linear is named 0 and its entries are 0.weight and 0.bias
        "state_dict: state_dict pre-hook on 0 (Linear): before(prefix='0.', keep_vars=False)",
        "state_dict: state_dict post-hook on 0 (Linear): after(state_dict={'0.weight': "
        "[1, 2], '0.bias': [1]}, prefix='0.', local_metadata={'version': 1})",
        "state_dict: load_state_dict pre-hook on 0 (Linear): before_load(state_dict="
        "{'0.weight': [1, 2], '0.bias': [1]}, prefix='0.', local_metadata={'version': 1}, "
        "strict=True, missing_keys=[], unexpected_keys=[], error_msgs=[])",
        "state_dict: load_state_dict post-hook on 0 (Linear): after_load(incompatible_keys="
        "_IncompatibleKeys(missing_keys=[], unexpected_keys=[]))",
    ]


def test_registration_and_state_dict_hooks_match_pytorch():
    assert pytorch_answer(lambda torch: [e.line() for e in building_and_saving(torch).events]) == \
        [e.line() for e in building_and_saving(minitorch_hooks).events]


def training_and_checkpointing(torch):
    """Every optimiser hook: a global step pre-hook, the optimiser's own step hooks, and its
    state-dict and load-state-dict hooks, around one step and a checkpoint round trip."""
    optimizer_module = importlib.import_module(torch.__name__ + ".optim.optimizer")
    param = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    with hook_trace(torch=torch) as recorded:
        opt = torch.optim.SGD([param], lr=0.1, momentum=0.9)

        def count_steps(optimizer, args, kwargs):
            pass

        def before_step(optimizer, args, kwargs):
            pass

        def after_step(optimizer, args, kwargs):
            pass

        def before_save(optimizer):
            pass

        def after_save(optimizer, state_dict):
            state_dict["note"] = "edited"

        def before_load(optimizer, state_dict):
            return {key: value for key, value in state_dict.items() if key != "note"}

        def after_load(optimizer):
            pass

        handle = optimizer_module.register_optimizer_step_pre_hook(count_steps)
        opt.register_step_pre_hook(before_step)
        opt.register_step_post_hook(after_step)
        opt.register_state_dict_pre_hook(before_save)
        opt.register_state_dict_post_hook(after_save)
        opt.register_load_state_dict_pre_hook(before_load)
        opt.register_load_state_dict_post_hook(after_load)
        try:
            param.grad = torch.ones(2)
            opt.step()
            opt.load_state_dict(opt.state_dict())
        finally:
            handle.remove()
    return recorded


def test_optimizer_hooks():
    state = ("{'state': {0: {'momentum_buffer': [2]}}, 'param_groups': [{'lr': 0.1, "
             "'momentum': 0.9, 'dampening': 0, 'weight_decay': 0, 'nesterov': False, "
             "'maximize': False, 'foreach': None, 'differentiable': False, 'fused': None, "
             "'params': [0]}]")
    assert [event.line() for event in training_and_checkpointing(minitorch_hooks).events] == [
        "step: global step pre-hook on SGD: count_steps(args=(SGD,), kwargs={})",
        "step: step pre-hook on SGD: before_step(args=(SGD,), kwargs={})",
        "step: step post-hook on SGD: after_step(args=(SGD,), kwargs={})",
        "state_dict: optimizer state_dict pre-hook on SGD: before_save()",
        f"state_dict: optimizer state_dict post-hook on SGD: after_save(state_dict={state}}})",
        "state_dict: optimizer load_state_dict pre-hook on SGD: before_load(state_dict="
        f"{state}, 'note': 'edited'}}) -> replaced",
        "state_dict: optimizer load_state_dict post-hook on SGD: after_load()",
    ]


def test_optimizer_hooks_match_pytorch():
    theirs = pytorch_answer(lambda torch: [e.line() for e in
                                           training_and_checkpointing(torch).events])
    assert theirs == [e.line() for e in training_and_checkpointing(minitorch_hooks).events]


def saving_for_backward(torch):
    """Saved-tensor hooks around a forward pass, then backward; and ``save_on_cpu``, whose
    hooks are the library's own."""
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    with hook_trace(torch=torch) as recorded:
        def pack(tensor):
            return tensor.detach()

        def unpack(packed):
            return packed

        with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
            y = (a * a).tanh()
        with torch.autograd.graph.save_on_cpu():
            z = y.exp()
        z.sum().backward()
    return recorded


def test_saved_tensor_hooks():
    assert [event.line() for event in saving_for_backward(minitorch_hooks).events] == [
        "forward: pack hook on saved_tensors_hooks: pack(tensor=[2]) -> replaced",
        "forward: pack hook on saved_tensors_hooks: pack(tensor=[2]) -> replaced",
        "forward: pack hook on saved_tensors_hooks: pack(tensor=[2]) -> replaced",
        "backward: unpack hook on saved_tensors_hooks: unpack(packed=[2]) -> replaced",
        "backward: unpack hook on saved_tensors_hooks: unpack(packed=[2]) -> replaced",
        "backward: unpack hook on saved_tensors_hooks: unpack(packed=[2]) -> replaced",
    ]


def test_saved_tensor_hooks_match_pytorch():
    assert pytorch_answer(lambda torch: [e.line() for e in saving_for_backward(torch).events]) == \
        [e.line() for e in saving_for_backward(minitorch_hooks).events]


def test_pytorch_s_saved_tensors_hooks_is_put_back_afterwards():
    torch = real_torch()
    original = torch.autograd.graph.saved_tensors_hooks
    with hook_trace(torch=torch):
        assert torch.autograd.graph.saved_tensors_hooks is not original
    assert torch.autograd.graph.saved_tensors_hooks is original


# -- naming ---------------------------------------------------------------------------------
def _hook_names(torch, *roots, names=None, build=False):
    model = None if build else _net(torch)
    with hook_trace(*(model,) if roots else (), names=names or {}, torch=torch) as recorded:
        model = model or _net(torch)
        model.encoder[0].register_forward_hook(lambda module, args, output: None)
        model.encoder[0].weight.register_hook(lambda grad: None)
        model(torch.ones(1, 3)).sum().backward()
    return [event.where for event in recorded.events]


def test_modules_and_parameters_are_named_from_the_roots_given():
    assert _hook_names(minitorch_hooks, "root") == ["encoder.0 (Linear)", "encoder.0.weight"]


def test_a_model_built_inside_the_trace_is_named_without_roots():
    assert _hook_names(minitorch_hooks, build=True) == ["encoder.0 (Linear)",
                                                        "encoder.0.weight"]


def test_without_roots_a_model_built_before_is_named_by_class_and_shape():
    assert _hook_names(minitorch_hooks) == ["Linear", "parameter [2, 3]"]


def test_names_given_to_the_trace_win():
    x = minitorch_hooks.ones(2, requires_grad=True)
    y = x * 3
    with hook_trace(names={"the input": x, "y": y}) as recorded:
        x.register_hook(lambda grad: None)
        y.register_hook(lambda grad: None)
        (y * y).sum().backward()
    assert [event.where for event in recorded.events] == ["y", "the input"]


@pytest.mark.parametrize("library", ["minitorch_hooks", "torch"])
def test_a_tensor_made_by_an_operation_is_named_by_it(library):
    where = named_by_operation(minitorch_hooks) if library == "minitorch_hooks" \
        else pytorch_answer(named_by_operation)
    assert where == ["output 1 of TwiceBackward"]


def named_by_operation(torch) -> list:
    class Twice(torch.autograd.Function):  # two outputs: the second is "output 1"
        @staticmethod
        def forward(ctx, x):
            return x * 1, x * 2

        @staticmethod
        def backward(ctx, grad_first, grad_second):
            return grad_first + 2 * grad_second

    x = torch.ones(2, requires_grad=True)
    with hook_trace(torch=torch) as recorded:
        first, second = Twice.apply(x)
        second.register_hook(lambda grad: None)
        (first.sum() + second.sum()).backward()
    return [event.where for event in recorded.events]


# -- what is and is not recorded ----------------------------------------------------------
def test_the_library_s_own_identity_node_hooks_are_left_out_but_a_users_are_kept():
    model = minitorch_hooks.nn.Linear(2, 2)
    model.register_full_backward_hook(lambda module, grad_input, grad_output: None)
    x = minitorch_hooks.ones(1, 2, requires_grad=True)
    with hook_trace(model) as recorded:
        output = model(x)
        assert output.grad_fn.name() == "BackwardHookFunctionBackward"
        output.grad_fn.register_hook(lambda grad_inputs, grad_outputs: None)
        output.sum().backward()
    assert [(e.kind, e.where) for e in recorded.events] == [
        ("node hook", "BackwardHookFunctionBackward"), ("backward hook", "Linear")]


def _pruned(torch):
    prune = importlib.import_module(f"{torch.__name__}.nn.utils.prune")
    layer = torch.nn.Linear(2, 2)
    with hook_trace(layer, torch=torch) as recorded:
        prune.l1_unstructured(layer, "weight", amount=0.5)
        layer(torch.ones(1, 2))
        prune.remove(layer, "weight")  # finds its hook by isinstance
    return recorded, layer


@pytest.mark.parametrize("library", ["minitorch_hooks", "torch"])
def test_pruning_s_pre_hook_is_a_user_visible_hook(library):
    def pruned(torch) -> tuple:
        recorded, layer = _pruned(torch)
        return [event.line() for event in recorded.events], len(layer._forward_pre_hooks)

    lines, pre_hooks_left = pruned(minitorch_hooks) if library == "minitorch_hooks" \
        else pytorch_answer(pruned)
    assert lines == ["forward: forward pre-hook on Linear: L1Unstructured(args=([1, 2],))"]
    assert pre_hooks_left == 0  # prune.remove found the wrapped hook


def test_a_hook_that_raises_is_recorded_and_its_error_propagates():
    x = minitorch_hooks.ones(2, requires_grad=True)

    def broken(grad):
        raise ValueError("broken hook")

    x.register_hook(broken)
    with hook_trace() as recorded, pytest.raises(ValueError, match="broken hook"):
        x.sum().backward()
    assert (recorded.events[0].raised, recorded.events[0].result()) == (
        "ValueError", "raised ValueError")


def test_errors_about_a_hook_still_name_the_hook():
    x = minitorch_hooks.ones(2, requires_grad=True)

    def wrong_size(grad):
        return minitorch_hooks.ones(3)

    x.register_hook(wrong_size)
    with hook_trace(), pytest.raises(RuntimeError, match="hook 'wrong_size' has changed the size"):
        x.sum().backward()


def test_tracing_stops_at_the_end_of_the_block_even_after_an_error():
    with pytest.raises(KeyError), hook_trace():
        assert dispatch._active_tracer is not None
        raise KeyError("stop")
    assert dispatch._active_tracer is None
    x = minitorch_hooks.ones(2, requires_grad=True)
    x.register_hook(lambda grad: None)
    with hook_trace() as recorded:
        pass
    x.sum().backward()  # after the block: not recorded
    assert recorded.events == []


def test_the_tracer_does_not_shadow_pytorch_s_matrix_trace():
    # torch.trace is the sum of a matrix's diagonal, here as in PyTorch (see the
    # conformance tests of reductions); the hook recorder is hook_trace.
    assert minitorch_hooks.trace(minitorch_hooks.eye(3)).item() == 3.0
    with pytest.raises(TypeError, match=r"hook_trace\(\) takes modules to name, not Tensor"):
        hook_trace(minitorch_hooks.eye(2))


def test_traces_do_not_nest():
    with hook_trace(), pytest.raises(RuntimeError, match="do not nest"), hook_trace():
        pass
    assert dispatch._active_tracer is None


def test_hooks_registered_before_the_trace_are_seen_on_minitorch_hooks():
    x = minitorch_hooks.ones(2, requires_grad=True)
    x.register_hook(lambda grad: None)
    with hook_trace() as recorded:
        x.sum().backward()
    assert [event.kind for event in recorded.events] == ["tensor hook"]


def test_pytorch_s_registration_functions_are_put_back_afterwards():
    torch = real_torch()
    originals = (torch.Tensor.register_hook, torch.nn.Module.register_forward_hook,
                 torch.nn.modules.module.register_module_forward_hook)
    with hook_trace(torch=torch):
        assert torch.Tensor.register_hook is not originals[0]
    assert (torch.Tensor.register_hook, torch.nn.Module.register_forward_hook,
            torch.nn.modules.module.register_module_forward_hook) == originals


def test_a_copied_pytorch_model_reports_to_the_same_trace_with_the_copy_as_owner():
    torch = real_torch()
    with hook_trace(torch=torch) as recorded:
        model = torch.nn.Sequential(torch.nn.Linear(2, 2))
        model[0].register_forward_hook(lambda module, args, output: None)
        copy.deepcopy(model)[0](torch.ones(1, 2))
    assert [event.where for event in recorded.events] == ["Linear"]


# -- renders --------------------------------------------------------------------------------
def _events() -> list[HookEvent]:
    return every_local_hook(minitorch_hooks).events


def test_text_is_an_aligned_table():
    text = hook_trace().text()
    assert text == "(no hook fired)"
    recorded = every_local_hook(minitorch_hooks)
    lines = recorded.text().splitlines()
    assert lines[0].split() == ["#", "phase", "kind", "where", "hook(what", "it", "received)",
                                "->", "result"]
    assert lines[1] == (" 1  forward   forward pre-hook           encoder.0 (Linear)       "
                        "double_input(args=([4, 3],)) -> replaced")
    assert len(lines) == 12 and str(recorded) == recorded.text()
    assert len({line.index(" forward ") if " forward " in line else line.index(" backward ")
                for line in lines[1:]}) == 1  # the phase column lines up


def test_mermaid_is_a_sequence_diagram_with_a_participant_per_owner():
    recorded = every_local_hook(minitorch_hooks)
    lines = recorded.mermaid().splitlines()
    assert lines[:3] == ["sequenceDiagram", "    participant forward as forward",
                         "    participant backward as backward"]
    owners = [line for line in lines if line.startswith("    participant o")]
    assert len(owners) == len({e.where for e in recorded.events}) == 8
    assert "    participant o1 as encoder.0 (Linear)" in lines
    assert "    forward->>o1: 1. forward pre-hook: double_input(args=([4, 3],))" in lines
    assert sum("-->>" in line for line in lines) == 2  # two hooks replaced a value


def test_mermaid_escapes_what_it_would_read_as_syntax():
    event = HookEvent(1, "backward", "node hook", "torch::autograd::AccumulateGrad",
                      "<lambda>", (("grad_inputs", "(None,)"),))
    recorded = hook_trace()
    recorded.events.append(event)
    text = recorded.mermaid()
    assert "participant o1 as torch#58;#58;autograd#58;#58;AccumulateGrad" in text
    assert "#lt;lambda#gt;" in text and "<lambda>" not in text


def test_svg_is_self_contained_xml_with_a_mark_per_call():
    recorded = every_local_hook(minitorch_hooks)
    svg = recorded.svg()
    root = ElementTree.fromstring(svg)
    namespace = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{namespace}svg"
    assert svg.count("http") == 1  # the namespace, and nothing fetched from anywhere
    circles = root.findall(f"{namespace}circle")
    assert len(circles) == 11
    assert [c.get("fill") != "white" for c in circles] == [e.replaced for e in recorded.events]
    texts = [t.text for t in root.iter(f"{namespace}text")]
    assert "encoder.0 (Linear)" in texts
    assert "11. tensor hook: on_x(grad=[4, 3])  (replaced)" in texts


def test_svg_of_an_empty_trace_and_of_a_hook_that_raised():
    assert "no hook fired" in hook_trace().svg()
    recorded = hook_trace()
    recorded.events.append(HookEvent(1, "forward", "forward hook", "<Net>", "h", (),
                                     raised="TypeError"))
    root = ElementTree.fromstring(recorded.svg())
    assert root.find("{http://www.w3.org/2000/svg}path") is not None  # the cross
    assert "&lt;Net&gt;" in recorded.svg()


def test_json_round_trips():
    events = _events()
    recorded = hook_trace()
    recorded.events.extend(events)
    assert events_from_json(recorded.json()) == events
    assert json.loads(recorded.json())[0]["hook"] == "double_input"


def test_svg_lanes_follow_the_model_not_the_order_of_the_calls():
    torch = minitorch_hooks
    model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU(), torch.nn.Linear(2, 1))
    for layer in model:
        layer.register_full_backward_hook(lambda module, grad_input, grad_output: None)
    x = torch.ones(1, 2, requires_grad=True)
    output = model(x)
    with hook_trace(model) as recorded:
        output.sum().backward()  # backward meets the layers last to first
    assert [e.where for e in recorded.events] == ["2 (Linear)", "1 (ReLU)", "0 (Linear)"]
    root = ElementTree.fromstring(recorded.svg())
    titles = [t for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("transform")]
    assert [t.text for t in titles] == ["0 (Linear)", "1 (ReLU)", "2 (Linear)"]


def test_svg_legend_sits_above_the_slanted_lane_titles_and_labels_beside_the_lanes():
    recorded = every_local_hook(minitorch_hooks)
    root = ElementTree.fromstring(recorded.svg())
    texts = list(root.iter("{http://www.w3.org/2000/svg}text"))
    legend = next(t for t in texts if t.text.startswith("filled dot"))
    titles = [t for t in texts if t.get("transform")]
    lane_xs = [float(c.get("cx")) for c in root.iter("{http://www.w3.org/2000/svg}circle")]
    labels = [t for t in texts if t.text[:1].isdigit()]
    # a slanted title rises from its foot by its length times sin(35 degrees)
    highest = min(float(t.get("y")) - len(t.text) * 7.2 * 0.574 for t in titles)
    assert float(legend.get("y")) + 4 < highest - 10
    assert all(float(t.get("x")) - max(lane_xs) < 40 for t in labels)
