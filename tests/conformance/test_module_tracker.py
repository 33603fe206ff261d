"""``torch.utils.module_tracker.ModuleTracker``, against real PyTorch: which modules it
reports as running from inside every kind of module hook, in forward and in backward, and
that it leaves no hook behind. Its backward half queues a callback on the engine
(``torch.autograd.Variable._execution_engine.queue_callback``)."""

from __future__ import annotations

from harness import assert_same_outcome


def _model(torch):
    torch.manual_seed(0)
    return torch.nn.Sequential(
        torch.nn.Linear(2, 3),
        torch.nn.Sequential(torch.nn.ReLU(), torch.nn.Linear(3, 1)))


def _track(torch, model, run):
    from_module_tracker = __import__(torch.__name__ + ".utils.module_tracker",
                                     fromlist=["ModuleTracker"])
    log = []
    with from_module_tracker.ModuleTracker() as tracker:
        def record(where):
            return lambda *args: log.append((where, sorted(tracker.parents), tracker.is_bw))

        handles = []
        for name, module in model.named_modules():
            handles.append(module.register_forward_pre_hook(record("forward pre " + name)))
            handles.append(module.register_forward_hook(record("forward " + name)))
            handles.append(module.register_full_backward_pre_hook(record("backward pre " + name)))
            handles.append(module.register_full_backward_hook(record("backward " + name)))
        run(log, tracker)
        for handle in handles:
            handle.remove()
    return log


def test_parents_in_forward_and_backward():
    def scenario(torch):
        model = _model(torch)

        def run(log, tracker):
            out = model(torch.ones(4, 2, requires_grad=True))
            log.append(("after forward", sorted(tracker.parents), tracker.is_bw))
            out.sum().backward()
            log.append(("after backward", sorted(tracker.parents), tracker.is_bw))

        return _track(torch, model, run)

    assert_same_outcome(scenario)


def test_an_input_without_gradient_is_never_left_in_backward():
    """With an input that needs no gradient, the first module's input-side multi-grad hook
    is never registered; the engine callback still resets ``parents`` at the end."""
    def scenario(torch):
        model = _model(torch)

        def run(log, tracker):
            out = model(torch.ones(4, 2))
            out.sum().backward()
            log.append(("after backward", sorted(tracker.parents), tracker.is_bw))

        return _track(torch, model, run)

    assert_same_outcome(scenario)


def test_two_iterations_and_a_forward_without_grad():
    def scenario(torch):
        model = _model(torch)

        def run(log, tracker):
            for _ in range(2):
                model(torch.ones(1, 2, requires_grad=True)).sum().backward()
                log.append(("iteration done", sorted(tracker.parents)))
            with torch.no_grad():
                model(torch.ones(1, 2))
            log.append(("no_grad done", sorted(tracker.parents)))

        return _track(torch, model, run)

    assert_same_outcome(scenario)


def test_names_of_shared_and_tuple_returning_modules():
    """A module used twice is one name; a module whose output is a tuple is entered in
    backward when the gradients of all its tensor outputs are ready."""
    def scenario(torch):
        torch.manual_seed(0)

        class Split(torch.nn.Module):
            def forward(self, x):
                return x * 2, (x.sin(), 3)

        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.shared = torch.nn.Linear(2, 2)
                self.split = Split()

            def forward(self, x):
                a, (b, _) = self.split(self.shared(self.shared(x)))
                return a + b

        model = Net()

        def run(log, tracker):
            model(torch.ones(1, 2, requires_grad=True)).sum().backward()

        return _track(torch, model, run)

    assert_same_outcome(scenario)


def test_leaving_removes_every_hook():
    def scenario(torch):
        model = _model(torch)
        tracker_module = __import__(torch.__name__ + ".utils.module_tracker",
                                    fromlist=["ModuleTracker"])
        x = torch.ones(1, 2, requires_grad=True)
        with tracker_module.ModuleTracker() as tracker:
            out = model(x)
        seen = []
        model[0].register_full_backward_hook(lambda *a: seen.append(sorted(tracker.parents)))
        out.sum().backward()
        return seen, sorted(tracker.parents)

    assert_same_outcome(scenario)
