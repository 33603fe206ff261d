"""``state_dict`` and ``load_state_dict`` with their hooks, the global registration hooks,
and registration through attributes: names, types and error messages, traversal,
``apply``, ``train``/``eval`` and ``zero_grad``. Each scenario runs on minitorch_hooks and
on real PyTorch (see ``harness.py``)."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome
from module_support import modules, x2


def _nested(torch):
    """``Outer`` with a persistent buffer, a non-persistent one and an empty parameter."""
    outer = modules(torch).Outer()
    outer.register_buffer("count", torch.tensor(3.0))
    outer.register_buffer("scratch", torch.zeros(2), persistent=False)
    outer.register_parameter("unused", None)
    outer.bias = torch.nn.Parameter(torch.tensor([0.5]))
    return outer


# -- state_dict --------------------------------------------------------------------------------

def test_state_dict_keys_order_values_and_metadata():
    def scenario(torch):
        outer = _nested(torch)
        sd = outer.state_dict()
        kept = outer.state_dict(keep_vars=True, prefix="model.")
        return (list(sd), sd["inner.w"], sd["inner.w"].requires_grad, type(sd).__name__,
                dict(sd._metadata), list(kept), kept["model.inner.w"] is outer.inner.w)

    assert_same_outcome(scenario)


def test_state_dict_hooks_run_in_order_with_their_arguments():
    def scenario(torch):
        outer = _nested(torch)
        events = []
        for mod in (outer, outer.inner):
            name = type(mod).__name__
            mod.register_state_dict_pre_hook(
                lambda m, prefix, keep_vars, name=name: events.append(
                    ("pre", name, type(m).__name__, prefix, keep_vars)))
            mod.register_state_dict_post_hook(
                lambda m, sd, prefix, metadata, name=name: events.append(
                    ("post", name, list(sd), prefix, metadata)))
        outer.state_dict(prefix="p.", keep_vars=True)
        return events

    assert_same_outcome(scenario)


@pytest.mark.parametrize("returned", ["edits_in_place", "returns_a_dict"])
def test_state_dict_post_hook_edits_in_place_and_must_return_none(returned):
    def scenario(torch):
        scale = modules(torch).Scale()

        def post_hook(module, sd, prefix, metadata):
            sd[prefix + "extra"] = torch.tensor(1.0)
            return {"edits_in_place": None, "returns_a_dict": sd}[returned]

        scale.register_state_dict_post_hook(post_hook)
        return list(scale.state_dict())

    assert_same_outcome(scenario)


# -- load_state_dict -----------------------------------------------------------------------------

def _loadable(torch, **changes):
    """A state dict for ``_nested`` with entries replaced (``None`` removes one)."""
    sd = {"count": torch.tensor(4.0), "bias": torch.tensor([1.5]),
          "inner.w": torch.tensor([7.0, 8.0])}
    for key, value in changes.items():
        key = key.replace("__", ".")
        if value is None:
            del sd[key]
        else:
            sd[key] = value
    return sd


def test_load_state_dict_copies_values_in_place_and_returns_no_incompatible_keys():
    def scenario(torch):
        outer = _nested(torch)
        w = outer.inner.w
        result = outer.load_state_dict(_loadable(torch))
        return (repr(result), str(result), result.missing_keys, outer.inner.w is w,
                outer.inner.w, outer.count, outer.bias, w.requires_grad, w.grad_fn is None)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("case", ["missing", "unexpected", "unexpected_child", "size",
                                  "not_a_tensor", "missing_and_unexpected", "none_param"])
@pytest.mark.parametrize("strict", [True, False])
def test_load_state_dict_errors(case, strict):
    def scenario(torch):
        outer = _nested(torch)
        sd = {
            "missing": lambda: _loadable(torch, inner__w=None),
            "unexpected": lambda: _loadable(torch, extra=torch.ones(1)),
            "unexpected_child": lambda: _loadable(torch, inner__v=torch.ones(1),
                                                  other__w=torch.ones(1)),
            "size": lambda: _loadable(torch, inner__w=torch.ones(3), bias=torch.ones(2, 2)),
            "not_a_tensor": lambda: _loadable(torch, count=[4.0]),
            "missing_and_unexpected": lambda: _loadable(torch, inner__w=None, bias=None,
                                                        inner__x=torch.ones(2)),
            "none_param": lambda: _loadable(torch, unused=torch.ones(1)),
        }[case]()
        result = outer.load_state_dict(sd, strict=strict)
        return repr(result), result.missing_keys, result.unexpected_keys, outer.inner.w

    assert_same_outcome(scenario)


def test_load_state_dict_refuses_a_non_mapping_and_loads_a_scalar_from_shape_one():
    def scenario(torch):
        outer = _nested(torch)
        outer.load_state_dict(_loadable(torch, count=torch.tensor([9.0])))
        try:
            outer.load_state_dict([("count", torch.tensor(1.0))])
        except TypeError as error:
            return outer.count, str(error)

    assert_same_outcome(scenario)


def test_load_state_dict_round_trips_through_state_dict():
    def scenario(torch):
        source, target = _nested(torch), _nested(torch)
        with torch.no_grad():
            source.inner.w.mul_(10)
            source.count.add_(1)
        target.load_state_dict(source.state_dict())
        return target.inner.w, target.count, list(target.state_dict())

    assert_same_outcome(scenario)


def _with_extra_state(torch, get=True, set=True):  # noqa: A002 - the method's name
    """``Outer`` whose ``inner`` keeps a step counter through extra state."""
    outer = _nested(torch)
    methods = {}
    if get:
        methods["get_extra_state"] = lambda self: {"steps": self.steps}
    if set:
        methods["set_extra_state"] = lambda self, state: setattr(self, "steps", state["steps"])
    inner = type("Counting", (type(outer.inner),), methods)()
    inner.steps = 7
    outer.inner = inner
    return outer


def test_extra_state_is_saved_after_the_buffers_and_loaded_back():
    def scenario(torch):
        source, target = _with_extra_state(torch), _with_extra_state(torch)
        source.inner.steps = 8
        seen = []
        target.inner.register_load_state_dict_pre_hook(
            lambda sd, prefix, *rest: seen.append(sorted(k for k in sd if k.startswith(prefix))))
        state = source.state_dict(prefix="m.")
        keys = target.load_state_dict({k[2:]: v for k, v in state.items()})
        return list(state), state["m.inner._extra_state"], target.inner.steps, keys, seen

    assert_same_outcome(scenario)


@pytest.mark.parametrize("get, set, strict", [
    (True, True, True), (True, True, False),   # a missing _extra_state key
    (True, False, True), (True, False, False),  # a key nobody takes back
], ids=["missing, strict", "missing", "unexpected, strict", "unexpected"])
def test_extra_state_missing_or_unexpected(get, set, strict):  # noqa: A002
    def scenario(torch):
        source = _with_extra_state(torch, get=get, set=set)
        state = source.state_dict()
        if set:
            del state["inner._extra_state"]
        return source.load_state_dict(state, strict=strict), source.inner.steps

    assert_same_outcome(scenario)


def test_load_state_dict_hooks_arguments_order_and_in_place_edits():
    def scenario(torch):
        outer = _nested(torch)
        events = []

        def pre_hook(module, sd, prefix, metadata, strict, missing, unexpected, errors):
            events.append(("pre", type(module).__name__, sorted(sd), prefix, metadata, strict,
                           list(missing), list(unexpected), list(errors)))
            if prefix + "old_w" in sd:  # a renamed key, fixed up before loading
                sd[prefix + "w"] = sd.pop(prefix + "old_w")

        def post_hook(module, keys):
            events.append(("post", type(module).__name__, type(keys).__name__,
                           list(keys.missing_keys), list(keys.unexpected_keys)))

        for mod in (outer, outer.inner):
            mod.register_load_state_dict_pre_hook(pre_hook)
            mod.register_load_state_dict_post_hook(post_hook)
        sd = _loadable(torch, inner__w=None, extra=torch.ones(1))
        sd["inner.old_w"] = torch.tensor([5.0, 6.0])
        result = outer.load_state_dict(sd, strict=False)
        return events, outer.inner.w, repr(result)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("case", ["clears_missing", "adds_unexpected", "returns_a_value"])
def test_load_state_dict_post_hook_rules(case):
    def scenario(torch):
        scale = modules(torch).Scale()

        def post_hook(module, keys):
            if case == "clears_missing":
                keys.missing_keys.clear()
            elif case == "adds_unexpected":
                keys.unexpected_keys.append("made.up")
            else:
                return keys

        scale.register_load_state_dict_post_hook(post_hook)
        result = scale.load_state_dict({} if case == "clears_missing" else
                                        {"w": torch.tensor([1.0, 1.0])})
        return repr(result), scale.w

    assert_same_outcome(scenario)


def test_state_dict_accepts_deprecated_positional_arguments():
    def scenario(torch):
        outer = _nested(torch)
        destination = {}
        returned = outer.state_dict(destination, "p.", True)
        return returned is destination, list(destination), destination["p.bias"] is outer.bias

    assert_same_outcome(scenario)


def test_load_state_dict_with_assign_uses_the_given_tensors():
    def scenario(torch):
        outer = _nested(torch)
        outer.bias.requires_grad_(False)
        sd = _loadable(torch, inner__w=torch.nn.Parameter(torch.tensor([7.0, 8.0]),
                                                          requires_grad=False))
        outer.load_state_dict(sd, assign=True)
        sd["bias"].add_(1)  # the new Parameter shares the checkpoint tensor's memory
        return (outer.count is sd["count"], outer.inner.w is sd["inner.w"],
                type(outer.bias).__name__, outer.bias.requires_grad,
                outer.inner.w.requires_grad, outer.bias, list(outer.state_dict()))

    assert_same_outcome(scenario)


def test_load_state_dict_pre_hook_at_the_root_sees_the_metadata():
    def scenario(torch):
        outer = _nested(torch)
        seen = []
        for mod in (outer, outer.inner):
            mod.register_load_state_dict_pre_hook(
                lambda module, sd, prefix, metadata, *rest: seen.append(
                    (prefix, dict(getattr(sd, "_metadata", {"none": None})), metadata)))
        outer.load_state_dict(outer.state_dict())
        return seen

    assert_same_outcome(scenario)


def test_copying_a_module_binds_its_hooks_to_the_copy():
    def scenario(torch):
        import copy

        outer = _nested(torch)
        seen = []
        outer.register_load_state_dict_pre_hook(lambda module, *rest: seen.append(module))
        outer.register_forward_hook(lambda module, args, out: seen.append(module))
        clone = copy.deepcopy(outer)
        clone.load_state_dict(clone.state_dict())
        clone(x2(torch))
        return [module is clone for module in seen], len(outer._forward_hooks)

    assert_same_outcome(scenario)


# -- the global registration hooks ---------------------------------------------------------------

def test_registration_hooks_see_every_registration_and_may_replace_the_value():
    def scenario(torch):
        g = torch.nn.modules.module
        m = modules(torch)
        events = []
        replacement = m.Scale(9.0)

        def on_module(module, name, sub):
            events.append(("module", type(module).__name__, name, type(sub).__name__))
            return replacement if name == "swap" else None

        def on_param(module, name, param):
            events.append(("param", type(module).__name__, name, param))
            return torch.nn.Parameter(param * 10) if name == "w" else None

        def on_buffer(module, name, buffer):
            events.append(("buffer", type(module).__name__, name, buffer))
            return torch.zeros(1) if name == "zeroed" else None

        with g.register_module_module_registration_hook(on_module), \
                g.register_module_parameter_registration_hook(on_param), \
                g.register_module_buffer_registration_hook(on_buffer):
            outer = m.Outer()
            outer.swap = m.Scale(1.0)
            outer.add_module("nothing", None)
            outer.register_parameter("empty", None)
            outer.register_buffer("zeroed", torch.ones(1))
            outer.register_buffer("none", None)
            outer.count = torch.ones(1) * 0  # not a buffer: a plain attribute, no hook
        after = m.Scale(1.0)
        return (events, outer.inner.w, outer.swap is replacement, outer.zeroed,
                after.w, list(outer.state_dict()))

    assert_same_outcome(scenario)


# -- registration rules and errors -----------------------------------------------------------------

@pytest.mark.parametrize("call", [
    "param_dot", "param_empty", "param_not_str", "param_exists", "param_wrong_type",
    "buffer_dot", "buffer_empty", "buffer_not_str", "buffer_exists", "buffer_wrong_type",
    "module_dot", "module_empty", "module_not_str", "module_exists", "module_wrong_type",
    "module_wrong_type_and_name",
])
def test_register_parameter_buffer_and_add_module_errors(call):
    def scenario(torch):
        scale = modules(torch).Scale()
        scale.plain = 1
        kind, problem = call.split("_", 1)
        register = {"param": scale.register_parameter, "buffer": scale.register_buffer,
                    "module": scale.add_module}[kind]
        value = {"param": torch.nn.Parameter(torch.ones(1)), "buffer": torch.ones(1),
                 "module": modules(torch).Scale()}[kind]
        name = {"dot": "a.b", "empty": "", "not_str": 3, "exists": "plain"}.get(problem, "ok")
        if problem.startswith("wrong_type"):
            value = torch.ones(1) if kind == "param" else 5
        if problem == "wrong_type_and_name":
            name = 3
        register(name, value)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("call", ["buffer_on_parameter", "parameter_on_buffer",
                                  "module_on_parameter", "module_assigned_over_parameter",
                                  "double_tensor_as_parameter", "tensor_as_module",
                                  "list_as_module", "none_name", "float_buffer_name",
                                  "tensor_module_name"])
def test_registration_name_clashes_and_type_names_in_errors(call):
    def scenario(torch):
        scale = modules(torch).Scale()
        scale.register_buffer("b", torch.ones(1))
        {
            "buffer_on_parameter": lambda: scale.register_buffer("w", torch.ones(1)),
            "parameter_on_buffer": lambda: scale.register_parameter(
                "b", torch.nn.Parameter(torch.ones(1))),
            "module_on_parameter": lambda: scale.add_module("w", modules(torch).Scale()),
            "module_assigned_over_parameter": lambda: setattr(scale, "w",
                                                              modules(torch).Scale()),
            "double_tensor_as_parameter": lambda: scale.register_parameter(
                "p", torch.ones(1, dtype=torch.float64)),
            "tensor_as_module": lambda: scale.add_module("m", torch.ones(1)),
            "list_as_module": lambda: scale.add_module("m", [1]),
            "none_name": lambda: scale.register_parameter(None, None),
            "float_buffer_name": lambda: scale.register_buffer(1.5, None),
            "tensor_module_name": lambda: scale.add_module(torch.ones(1), None),
        }[call]()

    assert_same_outcome(scenario)


def test_re_registering_under_an_existing_name_replaces_the_entry():
    def scenario(torch):
        scale = modules(torch).Scale()
        scale.register_parameter("w", torch.nn.Parameter(torch.ones(1)))
        scale.register_buffer("buf", torch.ones(1))
        scale.register_buffer("buf", torch.zeros(2), persistent=False)
        scale.add_module("sub", modules(torch).Scale())
        scale.add_module("sub", None)
        return (scale.w, scale.buf, list(scale.state_dict()), list(dict(scale.named_buffers())),
                scale.sub, list(scale._modules))

    assert_same_outcome(scenario)


@pytest.mark.parametrize("case", ["parameter", "module", "register_buffer",
                                  "register_parameter", "plain"])
def test_assignment_before_init_is_an_error(case):
    def scenario(torch):
        class Early(torch.nn.Module):
            def __init__(self):
                if case == "parameter":
                    self.w = torch.nn.Parameter(torch.ones(1))
                elif case == "module":
                    self.sub = torch.nn.Module()
                elif case == "register_buffer":
                    self.register_buffer("b", torch.ones(1))
                elif case == "register_parameter":
                    self.register_parameter("w", None)
                else:
                    self.plain = 1  # a plain attribute is fine before __init__
                super().__init__()

        return Early().plain

    assert_same_outcome(scenario)


@pytest.mark.parametrize("case", ["tensor_to_param", "int_to_module", "int_to_buffer",
                                  "none_to_each", "param_over_buffer", "module_over_param"])
def test_assigning_attributes_over_registered_names(case):
    def scenario(torch):
        outer = _nested(torch)
        if case == "tensor_to_param":
            outer.bias = torch.ones(1)
        elif case == "int_to_module":
            outer.inner = 5
        elif case == "int_to_buffer":
            outer.count = 5
        elif case == "none_to_each":
            outer.bias, outer.inner, outer.count = None, None, None
        elif case == "param_over_buffer":
            outer.count = torch.nn.Parameter(torch.ones(1))
        else:
            outer.bias = modules(torch).Scale()
        return (list(outer._parameters), list(outer._buffers), list(outer._modules),
                list(outer.state_dict()), list(dict(outer.named_parameters())))

    assert_same_outcome(scenario)


def test_getattr_and_delattr():
    def scenario(torch):
        outer = _nested(torch)
        results = [outer.inner.w, outer.count, type(outer.inner).__name__]
        del outer.bias, outer.count, outer.inner
        outer.plain = 1
        del outer.plain
        results.append((list(outer._parameters), list(outer._buffers), list(outer._modules)))
        for action in (lambda: outer.bias, lambda: delattr(outer, "bias"),
                       lambda: outer.nothing):
            try:
                action()
            except AttributeError as error:
                results.append(str(error))
        return results

    assert_same_outcome(scenario)


@pytest.mark.parametrize("hooked", [False, True])
def test_a_module_without_forward_raises(hooked):
    def scenario(torch):
        class NoForward(torch.nn.Module):
            pass

        module = NoForward()
        if hooked:
            module.register_forward_pre_hook(lambda *a: None)
        module(x2(torch))

    assert_same_outcome(scenario)


@pytest.mark.parametrize("args", ["positional", "keyword"])
def test_module_init_refuses_arguments(args):
    def scenario(torch):
        class Sub(torch.nn.Module):
            def __init__(self):
                if args == "positional":
                    super().__init__(1, 2)
                else:
                    super().__init__(size=3)

        Sub()

    assert_same_outcome(scenario)


# -- traversal -------------------------------------------------------------------------------------

def test_named_parameters_and_modules_list_shared_ones_once():
    def scenario(torch):
        m = modules(torch)
        shared = m.Scale()
        chain = m.Chain(shared, m.Affine(), shared)
        chain.extra = m.Scale(1.0)
        chain.extra.w = shared.w  # a parameter shared by two modules
        return (list(dict(chain.named_parameters())),
                [name for name, _ in chain.named_parameters(remove_duplicate=False)],
                list(dict(chain.named_parameters(prefix="net", recurse=False))),
                [name for name, _ in chain.named_modules()],
                [name for name, _ in chain.named_modules(prefix="root",
                                                         remove_duplicate=False)],
                [name for name, _ in chain.named_children()],
                len(list(chain.parameters())), len(list(chain.modules())))

    assert_same_outcome(scenario)


def test_named_buffers_and_buffers():
    def scenario(torch):
        outer = _nested(torch)
        outer.inner.register_buffer("steps", torch.tensor(0))
        return (list(dict(outer.named_buffers())), list(outer.buffers()),
                list(dict(outer.named_buffers(recurse=False))))

    assert_same_outcome(scenario)


@pytest.mark.parametrize("target", ["", "inner", "inner.w", "missing", "inner.missing",
                                    "count", "inner..w", "renamed.x"])
def test_get_submodule(target):
    def scenario(torch):
        outer = _nested(torch)
        outer.renamed = modules(torch).Scale()
        outer.renamed._get_name = lambda: "Renamed"  # errors name a module by _get_name()
        return type(outer.get_submodule(target)).__name__

    assert_same_outcome(scenario)


@pytest.mark.parametrize("strict", [False, True], ids=["", "strict"])
@pytest.mark.parametrize("target", ["inner", "added", "inner.added", "", "count", "inner.w",
                                    "missing.x", "count.x", "inner..x"])
def test_set_submodule(target, strict):
    def scenario(torch):
        outer = _nested(torch)
        registered = []
        hook = torch.nn.modules.module.register_module_module_registration_hook(
            lambda module, name, sub: registered.append((type(module).__name__, name)))
        try:
            outer.set_submodule(target, torch.nn.Identity(), strict=strict)
        finally:
            hook.remove()
        return registered, [name for name, _ in outer.named_modules()]

    assert_same_outcome(scenario)


def test_set_submodule_refuses_what_is_not_a_module():
    assert_same_outcome(lambda torch: _nested(torch).set_submodule("inner", 3))


def test_apply_visits_children_first_and_returns_the_module():
    def scenario(torch):
        m = modules(torch)
        chain = m.Chain(m.Outer(), m.Chain(m.Scale(), m.Affine()))
        visited = []
        returned = chain.apply(lambda mod: visited.append(type(mod).__name__))
        return visited, returned is chain

    assert_same_outcome(scenario)


def test_train_and_eval_set_every_module_and_check_the_mode():
    def scenario(torch):
        outer = _nested(torch)
        states = [(outer.training, outer.inner.training)]
        returned = outer.eval()
        states.append((outer.training, outer.inner.training, returned is outer))
        outer.inner.train()
        states.append((outer.training, outer.inner.training))
        try:
            outer.train("yes")
        except ValueError as error:
            states.append(str(error))
        return states

    assert_same_outcome(scenario)


@pytest.mark.parametrize("set_to_none", [True, False])
def test_zero_grad(set_to_none):
    def scenario(torch):
        outer = _nested(torch)
        (outer(x2(torch)) * outer.bias).sum().backward()
        before = outer.inner.w.grad
        outer.zero_grad(set_to_none=set_to_none)
        return before, outer.inner.w.grad, outer.bias.grad, outer.unused

    assert_same_outcome(scenario)


def test_requires_grad_and_parameters_after_freezing():
    def scenario(torch):
        outer = _nested(torch)
        returned = outer.inner.requires_grad_(False)
        out = outer(x2(torch, requires_grad=False))
        return (returned is outer.inner, outer.inner.w.requires_grad, outer.bias.requires_grad,
                out.requires_grad)

    assert_same_outcome(scenario)


def test_repr_of_nested_modules():
    def scenario(torch):
        m = modules(torch)

        class Described(torch.nn.Module):
            def extra_repr(self):
                return "size=2,\nmode=fast"

        chain = m.Chain(m.Outer(), Described(), m.Chain())
        return repr(chain), repr(Described())

    assert_same_outcome(scenario)
