"""``docs/reference/index.md``, the API map, lists what the code implements today.

The map is generated from the package and from real PyTorch (a name is listed when both
have it), so the check needs PyTorch and skips visibly without it.
"""

from __future__ import annotations

from harness import real_torch

from docs_tools import api_map


def test_the_committed_api_map_is_current() -> None:
    real_torch()
    assert api_map.PAGE.read_text(encoding="utf-8") == api_map.render(), (
        "docs/reference/index.md is not current: run python -m docs_tools.api_map")


def test_the_map_lists_the_hook_apis_with_their_files_and_pages() -> None:
    real_torch()
    text = api_map.render()
    for row in [
        "| [`torch.Tensor.register_hook`](https://docs.pytorch.org/docs/2.13/generated/"
        "torch.Tensor.register_hook.html) | `minitorch_hooks/_tensor.py` |",
        "| [`torch.nn.Module.register_forward_pre_hook`](https://docs.pytorch.org/docs/2.13/"
        "generated/torch.nn.Module.html#torch.nn.Module.register_forward_pre_hook) | "
        "`minitorch_hooks/nn/modules/module.py` |",
        "| [`torch.add`](https://docs.pytorch.org/docs/2.13/generated/torch.add.html) | "
        "`minitorch_hooks/_ops/pointwise.py` |",
    ]:
        assert row in text
    assert "call_hooks" not in text  # ours only: not a PyTorch API
    # torch.trace is PyTorch's matrix trace, and ours is that too, not the hook recorder.
    assert ("| [`torch.trace`](https://docs.pytorch.org/docs/2.13/generated/torch.trace.html) | "
            "`minitorch_hooks/_ops/reduction.py` |") in text
    assert "hook_trace" not in text
