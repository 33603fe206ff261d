"""What hooks keep alive, and what copying or pickling a hooked module does, on
minitorch_hooks and on real PyTorch.

A teaching tool that leaks teaches nothing about leaks. These scenarios watch objects
through weak references: a graph's intermediate tensors after ``backward()``, a module
that has hooks and handles and then is deleted. The copies: ``copy.deepcopy`` and
``pickle`` of modules and tensors with every kind of hook, with a lambda (which pickle
cannot save) and with a module-level function (which it can). How much memory a long
training run with hooks grows is measured in ``tests/test_memory.py``: tracemalloc sees
only Python's allocations, not PyTorch's, so that one has nothing to compare with.
"""

from __future__ import annotations

import copy
import functools
import gc
import pickle
import weakref
from typing import Any

import pytest
from harness import assert_same_outcome
from module_support import reset_global_backward_hook_kind


def module_level_hook(*args: Any) -> None:
    """A hook pickle can save: it finds it again by module and name."""


def _owned_hook(owner: Any, module: Any, args: tuple, output: Any) -> None:
    """A forward hook given its own module as well: it keeps the module referenced."""


def _every_module_hook(module: Any, hook: Any) -> None:
    """Register ``hook`` as every kind of module hook, with every flag."""
    module.register_forward_pre_hook(hook, with_kwargs=True, prepend=True)
    module.register_forward_hook(hook, with_kwargs=True, always_call=True)
    module.register_forward_hook(hook)
    module.register_full_backward_pre_hook(hook)
    module.register_full_backward_hook(hook)
    module.register_state_dict_pre_hook(hook)
    module.register_state_dict_post_hook(hook)
    module.register_load_state_dict_pre_hook(hook)
    module.register_load_state_dict_post_hook(hook)


def _hook_dicts(module: Any) -> dict:
    """Each hook attribute of ``module``: a dictionary's handle ids, or the flag's value."""
    return {name: list(value) if isinstance(value, dict) else value
            for name, value in sorted(vars(module).items()) if "hook" in name}


def _hook_counts(module: Any) -> dict:
    """How many hooks each dictionary holds (handle ids differ between the libraries)."""
    return {name: len(value) if isinstance(value, list) else value
            for name, value in _hook_dicts(module).items()}


def _linear(torch: Any) -> Any:
    torch.manual_seed(0)
    return torch.nn.Linear(2, 2)


# -- what is freed ------------------------------------------------------------------------

@pytest.mark.parametrize("hooked", [False, True], ids=["plain", "with hooks"])
def test_backward_frees_the_graphs_intermediate_tensors(hooked):
    """Before ``backward()`` the graph keeps the tensors its nodes saved (``tanh`` saves
    its output, the last layer its input); after it, nothing. With full backward hooks
    the layers' outputs pass through identity nodes, which save nothing."""
    def scenario(torch):
        torch.manual_seed(0)
        net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
        if hooked:
            for layer in net:
                layer.register_forward_hook(lambda module, args, output: None)
                layer.register_full_backward_hook(lambda module, gi, go: None)
        hidden = net[0](torch.ones(5, 3, requires_grad=True))
        activation = net[1](hidden)
        output = net[2](activation)
        output.register_hook(lambda grad: grad)
        loss = output.pow(2).sum()
        refs = {"hidden": weakref.ref(hidden), "activation": weakref.ref(activation),
                "output": weakref.ref(output)}
        del hidden, activation, output
        gc.collect()
        alive_before = sorted(name for name, ref in refs.items() if ref() is not None)
        loss.backward()
        gc.collect()
        return alive_before, sorted(name for name, ref in refs.items() if ref() is not None)

    assert_same_outcome(scenario)


def test_handles_and_global_hooks_do_not_keep_a_deleted_module_alive():
    """A handle holds its hook dictionary weakly; a global hook receives the module only
    while it runs; a hook that refers to its own module makes a cycle the collector
    frees. An output whose graph goes through the module's backward hooks does keep it:
    the hooks must be able to run."""
    def scenario(torch):
        reset_global_backward_hook_kind(torch)
        global_module = torch.nn.modules.module
        seen = []
        global_handles = [
            global_module.register_module_forward_hook(
                lambda module, args, output: seen.append(type(module).__name__)),
            global_module.register_module_full_backward_hook(
                lambda module, gi, go: seen.append(type(module).__name__))]
        layer = _linear(torch)
        # The hook holds its module, and the module the hook: a cycle.
        handles = [layer.register_forward_hook(functools.partial(_owned_hook, layer)),
                   layer.register_full_backward_hook(lambda module, gi, go: None)]
        output = layer(torch.ones(1, 2, requires_grad=True))
        ref = weakref.ref(layer)
        del layer
        gc.collect()
        alive_with_its_output = ref() is not None
        output.sum().backward()
        del output
        gc.collect()
        freed = ref() is None
        for handle in handles + global_handles:
            handle.remove()  # safe after the module is gone
        reset_global_backward_hook_kind(torch)
        return alive_with_its_output, freed, seen

    assert_same_outcome(scenario)


@pytest.mark.parametrize("kind", ["forward pre-hook", "forward hook", "full backward hook",
                                  "full backward pre-hook"])
def test_a_removed_module_hook_lets_go_at_once_of_what_it_refers_to(kind):
    """A hook of one module that refers to another module: once the hook has run (and
    its module remembers its records, in minitorch_hooks) and is removed, deleting the
    other module frees it before the hooked module is called again."""
    def scenario(torch):
        layer, other = _linear(torch), _linear(torch)
        hook = functools.partial(lambda held, *args: None, other)
        register = {"forward pre-hook": layer.register_forward_pre_hook,
                    "forward hook": layer.register_forward_hook,
                    "full backward hook": layer.register_full_backward_hook,
                    "full backward pre-hook": layer.register_full_backward_pre_hook}[kind]
        handle = register(hook)
        layer(torch.ones(1, 2, requires_grad=True)).sum().backward()
        handle.remove()
        ref = weakref.ref(other)
        del other, hook
        gc.collect()
        return ref() is None, len(layer._forward_hooks), len(layer._backward_hooks)

    assert_same_outcome(scenario)


def test_a_tensor_hook_handle_does_not_keep_the_tensor_alive():
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        handle = x.register_hook(lambda grad: grad)
        ref = weakref.ref(x)
        del x
        gc.collect()
        handle.remove()
        return ref() is None

    assert_same_outcome(scenario)


# -- copy.deepcopy ----------------------------------------------------------------------------

def test_deepcopy_copies_every_hook_dictionary_and_flag():
    """Same handle ids, same hook functions, except the load-state-dict pre-hook, which is
    wrapped with a weak reference to its module and so re-bound to the copy."""
    def scenario(torch):
        layer = _linear(torch)
        _every_module_hook(layer, lambda *args: None)
        clone = copy.deepcopy(layer)
        same_functions = {
            name: [a is b for a, b in zip(getattr(layer, name).values(),
                                          getattr(clone, name).values())]
            for name, value in _hook_dicts(layer).items() if isinstance(value, list)}
        return _hook_dicts(clone) == _hook_dicts(layer), same_functions

    assert_same_outcome(scenario)


def test_deepcopy_handles_follow_the_copy_they_were_copied_with():
    """A handle kept aside removes from the original only; a handle deep-copied together
    with its module removes from that copy only."""
    def scenario(torch):
        layer = _linear(torch)
        handle = layer.register_forward_hook(module_level_hook)
        clone = copy.deepcopy(layer)
        handle.remove()
        after_original_handle = (len(layer._forward_hooks), len(clone._forward_hooks))
        layer.register_forward_hook(module_level_hook)
        pair_clone, pair_handle = copy.deepcopy((layer, layer.register_forward_hook(print)))
        pair_handle.remove()
        return after_original_handle, len(layer._forward_hooks), len(pair_clone._forward_hooks)

    assert_same_outcome(scenario)


def test_hooks_of_a_deepcopy_fire_with_the_copy():
    """Also when the original had already run forward with backward hooks: the copy's
    hooks receive the copy, and registration hooks do not fire for a copy."""
    def scenario(torch):
        events = []
        layer = _linear(torch)
        layer.register_full_backward_hook(lambda module, gi, go: events.append(module is layer))
        pending = layer(torch.ones(1, 2, requires_grad=True))
        with torch.nn.modules.module.register_module_parameter_registration_hook(
                lambda module, name, param: events.append(("registered", name))):
            clone = copy.deepcopy(layer)
        clone(torch.ones(1, 2, requires_grad=True)).sum().backward()
        pending.sum().backward()
        return events

    assert_same_outcome(scenario)


def test_deepcopy_of_a_tensor_or_parameter_drops_its_hooks():
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        x.register_hook(lambda grad: grad * 10)
        layer = _linear(torch)
        layer.weight.register_hook(lambda grad: grad * 10)
        y, clone = copy.deepcopy(x), copy.deepcopy(layer)
        (y * 1).sum().backward()
        clone(torch.ones(1, 2)).sum().backward()
        return y.grad, y._backward_hooks, clone.weight.grad, clone.weight._backward_hooks

    assert_same_outcome(scenario)


# -- pickle ------------------------------------------------------------------------------------

def test_pickling_a_module_with_a_lambda_hook_fails():
    def scenario(torch):
        layer = _linear(torch)
        layer.register_forward_hook(lambda module, args, output: None)
        pickle.dumps(layer)

    assert_same_outcome(scenario)


def test_pickling_keeps_module_level_function_hooks_with_their_ids_and_flags():
    def scenario(torch):
        layer = _linear(torch)
        _every_module_hook(layer, module_level_hook)
        clone = pickle.loads(pickle.dumps(layer))
        hooks = [hook is module_level_hook for hook in clone._forward_hooks.values()]
        return _hook_dicts(clone) == _hook_dicts(layer), hooks, clone(torch.ones(1, 2))

    assert_same_outcome(scenario)


def test_a_pickled_handle_removes_from_what_was_pickled_with_it():
    """Pickled with its module, a handle removes from the unpickled module; pickled alone,
    it removes from a copy of the dictionary, which changes nothing."""
    def scenario(torch):
        layer = _linear(torch)
        handle = layer.register_forward_hook(module_level_hook, always_call=True)
        clone, clone_handle = pickle.loads(pickle.dumps((layer, handle)))
        clone_handle.remove()
        lone_handle = pickle.loads(pickle.dumps(handle))
        lone_handle.remove()
        return _hook_counts(clone), _hook_counts(layer), lone_handle.id == handle.id

    assert_same_outcome(scenario)


def test_pickling_drops_tensor_hooks_with_a_warning_and_parameter_hooks_silently():
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        x.register_hook(module_level_hook)
        x.register_post_accumulate_grad_hook(module_level_hook)
        layer = _linear(torch)
        layer.weight.register_hook(module_level_hook)
        y, clone = pickle.loads(pickle.dumps((x, layer)))
        return (y, y.requires_grad, y._backward_hooks, y._post_accumulate_grad_hooks,
                type(clone.weight).__name__, clone.weight._backward_hooks)

    assert_same_outcome(scenario)
