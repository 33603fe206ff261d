"""Checks for exercise 3: a feature extractor collecting named activations."""

from __future__ import annotations

from ..checking import Checks, expect, expect_close, expect_raises

CHECKS = Checks()


def small_model(torch):
    """Linear(2, 2) with known weights, ReLU, then a nested block: easy to work by hand."""
    model = torch.nn.Sequential(
        torch.nn.Linear(2, 2),
        torch.nn.ReLU(),
        torch.nn.Sequential(torch.nn.Linear(2, 1)),
    )
    with torch.no_grad():
        model[0].weight.copy_(torch.tensor([[1.0, -1.0], [2.0, 0.0]]))
        model[0].bias.copy_(torch.tensor([0.0, -1.0]))
        model[2][0].weight.copy_(torch.tensor([[1.0, 1.0]]))
        model[2][0].bias.copy_(torch.tensor([0.5]))
    return model


def hook_count(model):
    return sum(len(module._forward_hooks) for module in model.modules())


@CHECKS(step=1, title="the hook stores the detached output and returns None",
        nudge="keep the output under the layer's name without its graph; a forward hook that "
              "returns something replaces the output",
        pointer="FeatureExtractor._save in your file; Tensor.detach in PyTorch's docs; the "
                "course's how-to 'Extract features'",
        solution="self.features[name] = output.detach(); return nothing")
def save_stores_the_output(ex, torch):
    # __init__ is step 2, so this check makes an extractor without running it.
    extractor = ex.FeatureExtractor.__new__(ex.FeatureExtractor)
    extractor.features = {}
    layer = torch.nn.Linear(2, 1)
    x = torch.ones(1, 2)
    output = layer(x)
    result = extractor._save("head")(layer, (x,), output)
    expect(result is None, f"the hook returned {result!r}: it would replace the output")
    expect(list(extractor.features) == ["head"],
           f"features has the keys {list(extractor.features)}, expected ['head']")
    stored = extractor.features["head"]
    expect_close(stored, output, "the stored output")
    expect(stored.grad_fn is None and not stored.requires_grad,
           "the stored output is still part of the graph: store output.detach()")


@CHECKS(step=2, title="__init__ hooks exactly the named layers, nested names included",
        nudge="a name like '0.1' is a nested layer: look it up among every submodule by its full "
              "name, then hook each one",
        pointer="FeatureExtractor.__init__; Module.named_modules in PyTorch's docs "
                "(docs.pytorch.org/docs/2.13/generated/torch.nn.Module.html)",
        solution="look the names up in dict(model.named_modules()) and call "
                 "register_forward_hook(self._save(name)) on each")
def init_hooks_the_named_layers(ex, torch):
    model = small_model(torch)
    extractor = ex.FeatureExtractor(model, ["2.0", "1"])
    hooked = [name for name, module in model.named_modules() if module._forward_hooks]
    expect(sorted(hooked) == ["1", "2.0"], f"the hooked layers are {hooked}, "
           "expected '1' and '2.0'")
    expect(len(extractor.handles) == 2, f"{len(extractor.handles)} handles kept, not 2")


@CHECKS(step=2, title="an unknown layer name raises KeyError listing the real names",
        nudge="a name that is not one of the model's modules is an error before anything is "
              "hooked; which names could the learner have meant?",
        pointer="FeatureExtractor.__init__; the exercise's text, step 2, for the error's type and "
                "message",
        solution="raise KeyError(f'... its layers are {names}') when a name is missing")
def unknown_layer_is_refused(ex, torch):
    error = expect_raises(KeyError, lambda: ex.FeatureExtractor(small_model(torch), ["3"]),
                          "FeatureExtractor(model, ['3']) did not raise KeyError")
    expect("2.0" in str(error), f"the message {error} does not list the layer '2.0'")


@CHECKS(step=3, title="calling it returns the features, in the order asked for",
        nudge="one forward pass fills the features; the result is a dict in the order the layers "
              "were asked for, and no graph is needed",
        pointer="FeatureExtractor.__call__; torch.no_grad in PyTorch's docs",
        solution="clear self.features, run self.model(x) under torch.no_grad(), then build "
                 "{name: self.features[name] for name in self.layers}")
def call_returns_the_features(ex, torch):
    model = small_model(torch)
    extractor = ex.FeatureExtractor(model, ["2", "1", "0"])
    features = extractor(torch.tensor([[3.0, 1.0]]))
    expect(list(features) == ["2", "1", "0"],
           f"the keys are {list(features)}, expected ['2', '1', '0']")
    # Linear: [3 - 1, 6 - 1] = [2, 5]; ReLU keeps it; the head: 2 + 5 + 0.5.
    expect_close(features["0"], [[2.0, 5.0]], "features['0']")
    expect_close(features["1"], [[2.0, 5.0]], "features['1']")
    expect_close(features["2"], [[7.5]], "features['2']")
    again = extractor(torch.tensor([[0.0, 1.0]]))
    expect_close(again["1"], [[0.0, 0.0]], "features['1'] of a second call")
    expect(features["1"] is not again["1"], "the second call changed the first call's dict")


@CHECKS(step=4, title="remove() takes every hook off the model",
        nudge="every register_forward_hook gave you a handle; each one takes its own hook off",
        pointer="FeatureExtractor.remove; RemovableHandle.remove; the course's how-to 'Clean up "
                "handles'",
        solution="call remove() on each handle in self.handles")
def remove_takes_the_hooks_off(ex, torch):
    model = small_model(torch)
    ex.FeatureExtractor(model, ["0", "2.0"]).remove()
    expect(hook_count(model) == 0, f"{hook_count(model)} forward hooks are left")
