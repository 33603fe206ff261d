"""Checks for exercise 4: activation statistics and dead-unit detection."""

from __future__ import annotations

from ..checking import Checks, expect, expect_close

CHECKS = Checks()


def known_model(torch):
    """Linear(2, 3) whose third unit can never fire (weights 0, bias -1), then ReLU;
    then Linear(3, 2) and ReLU. Inputs [[1, 2], [3, -1]] give the first ReLU
    [[1, 2, 0], [3, 0, 0]]: mean 1, unit 2 never fires."""
    model = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(),
                                torch.nn.Linear(3, 2), torch.nn.ReLU())
    with torch.no_grad():
        model[0].weight.copy_(torch.tensor([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]))
        model[0].bias.copy_(torch.tensor([0.0, 0.0, -1.0]))
        model[2].weight.copy_(torch.tensor([[1.0, 1.0, 1.0], [-1.0, 0.0, 0.0]]))
        model[2].bias.copy_(torch.tensor([0.0, 0.0]))
    return model


def inputs(torch):
    return torch.tensor([[1.0, 2.0], [3.0, -1.0]])


@CHECKS(step=1, title="every ReLU gets one forward hook, and nothing else does",
        nudge="walk every submodule and pick the ReLUs by their type; give each one its records "
              "and exactly one hook",
        pointer="ActivationMonitor.__init__; Module.named_modules; the course's how-to 'Activation"
                " statistics'",
        solution="loop over model.named_modules(); for isinstance(module, torch.nn.ReLU), "
                 "start the records and register_forward_hook(self._record(name))")
def relus_are_hooked(ex, torch):
    model = known_model(torch)
    monitor = ex.ActivationMonitor(model)
    hooked = [name for name, module in model.named_modules() if module._forward_hooks]
    expect(hooked == ["1", "3"], f"the hooked layers are {hooked}, expected ['1', '3']")
    expect(all(len(model[i]._forward_hooks) == 1 for i in (1, 3)),
           "a ReLU has more than one hook")
    expect(monitor.mean_activation == {"1": [], "3": []}
           and monitor.dead_fraction == {"1": [], "3": []},
           f"the records start as {monitor.mean_activation} and {monitor.dead_fraction}, "
           "expected an empty list per ReLU")
    expect(len(monitor.handles) == 2, f"{len(monitor.handles)} handles kept, not 2")


@CHECKS(step=2, title="a training batch records its mean and which units fired",
        nudge="per batch, two things: the output's mean, and for each unit whether it was positive"
              " for any example (keep that across batches)",
        pointer="ActivationMonitor._record; the exercise's text, step 2",
        solution="in the hook: self.mean_activation[name].append(output.mean().item()), then "
                 "OR (output.detach().numpy() > 0).any(axis=0) into self._fired[name]")
def training_batches_are_recorded(ex, torch):
    model = known_model(torch)
    monitor = ex.ActivationMonitor(model)
    model(inputs(torch))
    expect_close(monitor.mean_activation["1"], [1.0], "the first ReLU's batch means")
    # The second layer: [[3, 0], [3, 0]] after its ReLU, mean 1.5.
    expect_close(monitor.mean_activation["3"], [1.5], "the second ReLU's batch means")
    expect_close(monitor._fired["1"], [True, True, False], "which units of ReLU 1 fired")
    model(torch.tensor([[-1.0, -1.0]]))  # nothing fires; what fired before still counts
    expect_close(monitor._fired["1"], [True, True, False],
                 "which units of ReLU 1 fired after a second batch where none did")
    expect_close(monitor.mean_activation["1"], [1.0, 0.0], "the batch means after two")


@CHECKS(step=2, title="in eval() mode nothing is recorded",
        nudge="the module knows whether it is in training or evaluation mode; the hook can ask it "
              "first",
        pointer="ActivationMonitor._record; Module.training and Module.eval in PyTorch's docs",
        solution="return at once from the hook when not module.training")
def evaluation_is_ignored(ex, torch):
    model = known_model(torch)
    monitor = ex.ActivationMonitor(model)
    model.eval()
    with torch.no_grad():
        model(inputs(torch))
    expect(monitor.mean_activation == {"1": [], "3": []},
           f"an eval() pass was recorded: {monitor.mean_activation}")


@CHECKS(step=3, title="end_epoch reports the dead units and starts afresh",
        nudge="a dead unit never fired during the epoch; record the fraction of such units, then "
              "forget what fired",
        pointer="ActivationMonitor.end_epoch; the exercise's text, step 3; numpy.flatnonzero",
        solution="dead units are np.flatnonzero(~fired); append len(dead) / fired.size to "
                 "dead_fraction[name], then set self._fired[name] = None")
def end_epoch_reports_dead_units(ex, torch):
    model = known_model(torch)
    monitor = ex.ActivationMonitor(model)
    model(inputs(torch))
    dead = monitor.end_epoch()
    expect(dead == {"1": [2], "3": [1]}, f"end_epoch() returned {dead}, expected "
           "{'1': [2], '3': [1]}")
    expect_close(monitor.dead_fraction["1"], [1 / 3], "dead_fraction['1']")
    expect_close(monitor.dead_fraction["3"], [1 / 2], "dead_fraction['3']")
    model(torch.tensor([[-1.0, 5.0]]))  # a new epoch: only unit 1 of ReLU 1 fires
    expect(monitor.end_epoch()["1"] == [0, 2], "the second epoch still counted the first "
           "epoch's firing: reset self._fired[name] to None")


@CHECKS(step=4, title="remove() takes the hooks off and keeps the records",
        nudge="taking the hooks off is done through their handles; the records are separate and "
              "stay",
        pointer="ActivationMonitor.remove; RemovableHandle.remove",
        solution="call remove() on each handle in self.handles")
def remove_keeps_the_records(ex, torch):
    model = known_model(torch)
    monitor = ex.ActivationMonitor(model)
    model(inputs(torch))
    monitor.remove()
    model(inputs(torch))
    expect(not model[1]._forward_hooks and not model[3]._forward_hooks,
           "hooks are left on the model")
    expect_close(monitor.mean_activation["1"], [1.0], "the records after remove()")


@CHECKS(step=4, title="a short training run finds the unit that cannot fire",
        nudge="this check uses steps 1 to 3 together: make their own checks pass first",
        pointer="the failing checks of the earlier steps, and the exercise's text",
        solution="the earlier steps together: hooks, records, end_epoch; see their checks")
def training_finds_the_dead_unit(ex, torch):
    torch.manual_seed(0)
    model = known_model(torch)
    x, y = ex.make_rings(64)
    monitor, accuracies = ex.train(model, x, y, lr=0.1, epochs=2, batch_size=16)
    expect(len(monitor.mean_activation["1"]) == 8,
           f"{len(monitor.mean_activation['1'])} batches recorded, expected 2 epochs of 4")
    expect(len(monitor.dead_fraction["1"]) == 2 and monitor.dead_fraction["1"][-1] >= 1 / 3,
           f"dead_fraction['1'] is {monitor.dead_fraction['1']}: the third unit of the "
           "first layer has weights 0 and bias -1, and cannot fire")
    expect(len(accuracies) == 2 and not model[1]._forward_hooks,
           "train() should remove the monitor's hooks at the end")
