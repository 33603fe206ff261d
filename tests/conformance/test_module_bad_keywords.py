"""A bad keyword to any method of ``nn.Module`` names the method as ``Module.<name>()``,
against real PyTorch. In minitorch_hooks Module is written in several files (its tree,
its conversions, its state dict); they are parts of one class, as in PyTorch, and no
error message may show the seams."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome

# Every public method Module has in PyTorch 2.13 that takes no ``**kwargs`` (so that a bad
# keyword cannot be passed on and do something) and that minitorch_hooks implements.
METHODS = [
    "add_module", "apply", "buffers", "children", "cpu", "double", "eval",
    "extra_repr", "float", "get_buffer", "get_extra_state", "get_parameter",
    "get_submodule", "half", "load_state_dict", "modules", "named_buffers",
    "named_children", "named_modules", "named_parameters", "parameters",
    "register_backward_hook", "register_buffer", "register_forward_hook",
    "register_forward_pre_hook", "register_full_backward_hook",
    "register_full_backward_pre_hook", "register_load_state_dict_post_hook",
    "register_load_state_dict_pre_hook", "register_module", "register_parameter",
    "register_state_dict_post_hook", "register_state_dict_pre_hook", "requires_grad_",
    "set_extra_state", "set_submodule", "state_dict", "train", "type",
    "zero_grad",
]


@pytest.mark.parametrize("name", METHODS)
def test_a_bad_keyword_names_the_method_as_modules(name):
    def scenario(torch):
        method = getattr(torch.nn.Linear(2, 2), name)
        try:
            method(no_such_argument=1)
        except TypeError as error:
            return str(error), method.__qualname__
        return "no error"

    assert_same_outcome(scenario)
