"""Chapter 13: hooks on ``state_dict`` and ``load_state_dict``, and migrating a checkpoint."""

from __future__ import annotations

from types import ModuleType

from .chapter import Chapter


def example(torch: ModuleType) -> None:
    class Scale(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.weight = torch.nn.Parameter(torch.tensor([2.0]))

        def forward(self, x):
            return x * self.weight

    model = torch.nn.Sequential(Scale())

    def before_saving(module, prefix, keep_vars):
        print(f"state_dict pre-hook:  prefix = {prefix!r}")

    def after_saving(module, state_dict, prefix, local_metadata):
        print(f"state_dict post-hook: keys = {list(state_dict)}, "
              f"metadata = {local_metadata}")

    model[0].register_state_dict_pre_hook(before_saving)
    model[0].register_state_dict_post_hook(after_saving)
    print("saved:", dict(model.state_dict()))

    # Saved when the weight was called scale:
    old_checkpoint = {"0.scale": torch.tensor([3.0])}

    def rename_old_keys(module, state_dict, prefix, local_metadata, strict,
                        missing_keys, unexpected_keys, error_msgs):
        if prefix + "scale" in state_dict:  # edit the state_dict in place: no return
            state_dict[prefix + "weight"] = state_dict.pop(prefix + "scale")

    def report(module, incompatible_keys):
        print("load post-hook:", incompatible_keys)

    try:
        model.load_state_dict(old_checkpoint)
    except RuntimeError as error:
        reasons = str(error).splitlines()[1:]
        print("without the pre-hook:", *(line.strip() for line in reasons))
    model[0].register_load_state_dict_pre_hook(rename_old_keys)
    model[0].register_load_state_dict_post_hook(report)
    model.load_state_dict(old_checkpoint)
    print("loaded: model[0].weight =", model[0].weight)


CHAPTER = Chapter(
    title="state_dict and load_state_dict hooks",
    intro="""
        Saving and loading a model go through hooks too. model.state_dict() walks the
        modules; at each one a pre-hook, hook(module, prefix, keep_vars), runs before the
        module's entries are collected and a post-hook, hook(module, state_dict, prefix,
        local_metadata), after, free to edit the dictionary in place. prefix is where the
        module sits in the model: "0." for model[0]. load_state_dict has the same pair: a
        pre-hook receives the state_dict it is about to load from (and the lists of
        missing and unexpected keys it fills), a post-hook receives those keys once the
        module is loaded.

        The classic use is loading an old checkpoint after a rename. PyTorch's own
        layers do this when their parameters change between releases. Here a parameter
        once called scale is now called weight, and a load pre-hook renames the key.
    """,
    example=example,
    outro="""
        The pre-hook ran before model[0]'s entry was collected and the post-hook after,
        with the keys so far and the version PyTorch records for each module. Loading
        the old checkpoint failed until the pre-hook renamed 0.scale to 0.weight in the
        state_dict being loaded; then every key matched and the post-hook was told so.
        These hooks return nothing: what they change, they change in place.
    """,
)
