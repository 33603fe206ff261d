"""Chapter 15: the optimiser's hooks, around ``step`` and around its state dict."""

from __future__ import annotations

from types import ModuleType

from .chapter import Chapter


def example(torch: ModuleType) -> None:
    weight = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
    optimizer = torch.optim.SGD([weight], lr=0.1, momentum=0.9)

    def before_step(opt, args, kwargs):
        print(f"step pre-hook:  weight = {weight.detach()}, args[0] is the optimizer: "
              f"{args[0] is opt}, kwargs = {kwargs}")

    def after_step(opt, args, kwargs):
        print(f"step post-hook: weight = {weight.detach()}")

    def add_epoch(opt, state_dict):
        state_dict["epoch"] = 1  # edit in place, or return a new dict
        print("state_dict post-hook: keys =", list(state_dict))

    def read_epoch(opt, state_dict):
        print("load_state_dict pre-hook: epoch =", state_dict.pop("epoch"))

    optimizer.register_step_pre_hook(before_step)
    optimizer.register_step_post_hook(after_step)
    optimizer.register_state_dict_post_hook(add_epoch)
    optimizer.register_load_state_dict_pre_hook(read_epoch)

    (weight * weight).sum().backward()  # grad = 2 * weight = [2, -4]
    optimizer.step()
    checkpoint = optimizer.state_dict()
    print("state:", checkpoint["state"])
    optimizer.load_state_dict(checkpoint)


CHAPTER = Chapter(
    title="Optimizer hooks: around step and the state dict",
    intro="""
        An optimizer has hooks of its own. optimizer.register_step_pre_hook(hook) runs
        hook(optimizer, args, kwargs) before each optimizer.step(), and
        register_step_post_hook after it, once the parameters have changed: the place to
        measure what a step did. args are step's positional arguments, the optimizer
        itself first; a pre-hook may return (new_args, new_kwargs) to replace them.
        torch.optim.optimizer.register_optimizer_step_pre_hook and ..._post_hook register
        global ones, which every optimizer runs (pre-hooks before its own, post-hooks
        after).

        optimizer.state_dict() and load_state_dict() have pre- and post-hooks too. A
        state_dict post-hook, hook(optimizer, state_dict), may add to the checkpoint; a
        load_state_dict pre-hook, hook(optimizer, state_dict), sees a copy of what is
        being loaded and may edit it or return a replacement.
    """,
    example=example,
    outro="""
        The pre-hook saw the weight before the update and the post-hook after it:
        [1, -2] - 0.1 * [2, -4]. The state dict names parameters by index, 0 here, and
        holds the momentum buffer SGD keeps; the post-hook added an entry, and the load
        pre-hook took it out again before the optimizer checked what it was loading.
    """,
)
