"""``torch.save`` and ``torch.load`` against real PyTorch 2.13: checkpoints cross between the
libraries in both directions with equal values, dtypes, shapes, strides, storage offsets and
shared memory; ``weights_only`` refuses what PyTorch refuses, with its messages (a real
malicious file included); whole modules load with ``weights_only=False``; paths, file
objects and ``BytesIO``; a damaged file is an error and leaves the model untouched."""

from __future__ import annotations

import collections
import copy
import io
import os
import pickle
import re
import sys
import warnings

import numpy as np
import pytest
from harness import assert_same_outcome, real_torch

import minitorch_hooks


def _state(torch):
    """What checkpoints hold: tensors of every dtype, views that share a storage (a
    transpose, a row, an expanded scalar), a Parameter, a module state dict with its
    ``_metadata``, an optimiser state dict, and plain Python values."""
    base = torch.arange(12.0).reshape(3, 4)
    net = torch.nn.Linear(3, 2)
    with torch.no_grad():
        net.weight.copy_(torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -3.0]]))
        net.bias.copy_(torch.tensor([0.1, -0.2]))
    opt = torch.optim.Adam(net.parameters(), lr=0.1, amsgrad=True)
    net(torch.ones(1, 3)).sum().backward()
    opt.step()
    return {
        "base": base, "t": base.t(), "row": base[1], "column": base[:, 2],
        "expanded": torch.tensor(5.0).expand(3),
        "float64": torch.tensor([1.5, -2.5], dtype=torch.float64),
        "float16": torch.tensor([0.5, 2.0], dtype=torch.float16),
        "int64": torch.tensor([1, -2, 3]), "int32": torch.tensor([4], dtype=torch.int32),
        "uint8": torch.tensor([255, 0], dtype=torch.uint8),
        "bool": torch.tensor([True, False]), "scalar": torch.tensor(3.25),
        "empty": torch.zeros(0, 2),
        "parameter": torch.nn.Parameter(torch.tensor([1.0, 2.0])),
        "frozen": torch.nn.Parameter(torch.tensor([1.0]), requires_grad=False),
        "model": net.state_dict(), "optimizer": opt.state_dict(),
        "plain": [1, 2.5, "text", (3, None), {"nested": True}, b"bytes"],
        "dtype": torch.float16, "size": torch.Size([2, 3]),
    }


def _describe(value):
    """Everything the round trip must keep, library-independent."""
    if hasattr(value, "stride") and hasattr(value, "dtype"):
        return (type(value).__name__, str(value.dtype), tuple(value.shape), value.stride(),
                value.storage_offset(), value.requires_grad, value.detach().numpy().tolist())
    if isinstance(value, dict):
        described = {key: _describe(item) for key, item in value.items()}
        if hasattr(value, "_metadata"):
            described["_metadata"] = dict(value._metadata)
        return (type(value).__name__, described)
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [_describe(item) for item in value])
    return repr(value)


def _sharing(loaded):
    """Whether the views still share memory with ``base``: written through one, read
    through the others."""
    loaded["base"][1, 2] = 100.0
    return (float(loaded["t"][2, 1]), float(loaded["row"][2]), float(loaded["column"][1]),
            float(loaded["expanded"][2]))


LIBRARIES = {"minitorch_hooks": lambda: minitorch_hooks, "torch": real_torch}


@pytest.mark.parametrize(("saver", "loader"), [("minitorch_hooks", "torch"),
                                               ("torch", "minitorch_hooks"),
                                               ("minitorch_hooks", "minitorch_hooks")])
def test_a_checkpoint_round_trip(saver, loader):
    """Saved by one library and loaded by the other: the same as the loader's own state."""
    save_with, load_with = LIBRARIES[saver](), LIBRARIES[loader]()
    buffer = io.BytesIO()
    save_with.save(_state(save_with), buffer)
    buffer.seek(0)
    loaded = load_with.load(buffer)
    assert _describe(loaded) == _describe(_state(load_with))
    assert _sharing(loaded) == (100.0, 100.0, 100.0, 5.0)


def test_a_checkpoint_saved_here_memory_maps_in_torch(tmp_path):
    """PyTorch memory-maps only files whose storages are aligned as it aligns them."""
    torch = real_torch()
    minitorch_hooks.save(_state(minitorch_hooks), tmp_path / "ours.pt")
    loaded = torch.load(tmp_path / "ours.pt", mmap=True)
    assert _describe(loaded) == _describe(_state(torch))


def test_a_state_dict_saved_by_torch_trains_on_here_and_back():
    """A model and optimiser checkpointed in PyTorch resume here, and the result, saved
    here, loads into PyTorch: the same parameters as training there all along."""
    torch = real_torch()

    def train(lib, net, opt, steps):
        x = lib.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]])
        for _ in range(steps):
            opt.zero_grad()
            (net(x) ** 2).sum().backward()
            opt.step()

    def fresh(lib):
        lib.manual_seed(0)
        net = lib.nn.Linear(3, 2)
        return net, lib.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)

    net, opt = fresh(torch)
    train(torch, net, opt, 2)
    buffer = io.BytesIO()
    torch.save({"model": net.state_dict(), "optimizer": opt.state_dict()}, buffer)
    train(torch, net, opt, 2)

    buffer.seek(0)
    checkpoint = minitorch_hooks.load(buffer)
    ours, our_opt = fresh(minitorch_hooks)
    ours.load_state_dict(checkpoint["model"])
    our_opt.load_state_dict(checkpoint["optimizer"])
    train(minitorch_hooks, ours, our_opt, 2)
    back = io.BytesIO()
    minitorch_hooks.save({"model": ours.state_dict(), "optimizer": our_opt.state_dict()}, back)

    back.seek(0)
    again, again_opt = fresh(torch)
    checkpoint = torch.load(back)
    again.load_state_dict(checkpoint["model"])
    again_opt.load_state_dict(checkpoint["optimizer"])
    for theirs, mine in zip(net.parameters(), again.parameters()):
        np.testing.assert_allclose(mine.detach().numpy(), theirs.detach().numpy(), rtol=1e-6)
    assert again_opt.state_dict()["param_groups"] == opt.state_dict()["param_groups"]


def test_path_file_object_bytesio_and_map_location(tmp_path):
    def scenario(torch):
        state = {"w": torch.tensor([1.0, 2.0])}
        path = tmp_path / f"{torch.__name__}.pt"
        torch.save(state, path)
        torch.save(state, str(path) + ".str")
        with open(tmp_path / f"{torch.__name__}.file", "wb") as file:
            torch.save(state, file)
        loaded = [torch.load(path), torch.load(str(path) + ".str", map_location="cpu"),
                  torch.load(path, map_location=torch.device("cpu"))]
        with open(tmp_path / f"{torch.__name__}.file", "rb") as file:
            loaded.append(torch.load(file, map_location="cpu"))
        buffer = io.BytesIO()
        torch.save(state, buffer)
        loaded.append(torch.load(io.BytesIO(buffer.getvalue()), weights_only=True))
        return loaded

    assert_same_outcome(scenario)


def test_saving_where_it_cannot_and_loading_what_is_missing(tmp_path):
    def scenario(torch):
        results = []
        for call in (lambda: torch.save({"w": torch.ones(1)}, tmp_path / "no" / "x.pt"),
                     lambda: torch.save({"w": torch.ones(1)}, 42),
                     lambda: torch.load(tmp_path / "missing.pt")):
            try:
                call()
            except (RuntimeError, AttributeError, FileNotFoundError) as error:
                # (the temporary folder differs from run to run, and from the recording's)
                results.append((type(error).__name__, str(error).replace(str(tmp_path), "TMP")))
        return results

    assert_same_outcome(scenario)


def test_identity_and_grad_requirements_survive_the_round_trip():
    def scenario(torch):
        p = torch.nn.Parameter(torch.ones(2))
        x = torch.ones(3, requires_grad=True)
        buffer = io.BytesIO()
        buffer.write(b"data before the checkpoint")
        start = buffer.tell()
        torch.save({"a": p, "b": p, "pair": (p, x), "y": x * 2}, buffer)
        buffer.seek(start)
        d = torch.load(buffer)
        return (d["a"] is d["b"], d["pair"][0] is d["a"], type(d["a"]).__name__,
                d["y"].requires_grad, d["y"].is_leaf, d["y"])

    assert_same_outcome(scenario)


def test_a_whole_module_loads_only_without_weights_only():
    def scenario(torch):
        torch.manual_seed(0)
        net = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Tanh())
        buffer = io.BytesIO()
        torch.save(net, buffer)
        buffer.seek(0)
        try:
            torch.load(buffer)
        except pickle.UnpicklingError as error:
            refusal = str(error).replace(torch.__name__ + ".nn.", "LIB.nn.")
        buffer.seek(0)
        loaded = torch.load(buffer, weights_only=False)
        x = torch.tensor([[1.0, -1.0]])
        return refusal, repr(loaded), loaded(x), net(x)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("missing", ["_load_state_dict_post_hooks", "_forward_hooks_always_called",
                                     "_backward_pre_hooks", "_state_dict_pre_hooks"])
def test_a_module_pickled_without_a_newer_hook_dictionary_gets_an_empty_one(tmp_path, missing):
    """A module saved by an older release lacks hook dictionaries added since; loaded with
    ``weights_only=False`` it gets empty ones, and every hook works on it."""
    def scenario(torch):
        results = []
        for module in (torch.nn.Softmax(1), torch.nn.LogSoftmax(1), torch.nn.Linear(2, 2)):
            state = copy.deepcopy(module.state_dict())
            delattr(module, missing)
            path = tmp_path / f"{torch.__name__}-{type(module).__name__}.pt"
            torch.save(module, path)
            loaded = torch.load(path, weights_only=False)
            called = []
            record = called.append
            loaded.register_load_state_dict_post_hook(lambda m, keys, r=record: r("post"))
            loaded.register_state_dict_pre_hook(lambda m, prefix, keep, r=record: r("pre"))
            loaded.register_forward_hook(lambda m, a, out, r=record: r("forward"),
                                         always_call=True)
            loaded.register_full_backward_pre_hook(lambda m, g, r=record: r("backward"))
            results.append((str(loaded.load_state_dict(state)), sorted(loaded.state_dict()),
                            called))
            loaded(torch.ones(1, 2, requires_grad=True)).sum().backward()
            results.append(called)
        return results

    assert_same_outcome(scenario)


def test_a_module_saved_by_torch_loads_here_with_weights_only_false():
    torch = real_torch()
    net = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU())
    buffer = io.BytesIO()
    torch.save(net, buffer)
    buffer.seek(0)
    loaded = minitorch_hooks.load(buffer, weights_only=False)
    assert isinstance(loaded, minitorch_hooks.nn.Sequential)
    x = [[1.0, -2.0, 0.5]]
    np.testing.assert_allclose(loaded(minitorch_hooks.tensor(x)).detach().numpy(),
                               net(torch.tensor(x)).detach().numpy(), rtol=1e-6)


def test_loading_options_torch_refuses_or_warns_about():
    def scenario(torch):
        buffer = io.BytesIO()
        torch.save({"w": torch.ones(1)}, buffer)
        results = []
        for kwargs in ({"pickle_module": pickle, "weights_only": True},
                       {"encoding": "latin1"}):
            buffer.seek(0)
            try:
                results.append(sorted(torch.load(buffer, **kwargs)))
            except RuntimeError as error:
                results.append(str(error))
        buffer.seek(0)
        results.append(sorted(torch.load(buffer, pickle_module=pickle)))
        return results

    assert_same_outcome(scenario)


@pytest.mark.parametrize("variables", [{"TORCH_FORCE_WEIGHTS_ONLY_LOAD": "1"},
                                       {"TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD": "true"},
                                       {"TORCH_FORCE_WEIGHTS_ONLY_LOAD": "yes",
                                        "TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD": "1"}])
def test_environment_variables_that_force_weights_only(monkeypatch, variables):
    for name, value in variables.items():
        monkeypatch.setenv(name, value)

    def scenario(torch):
        net = torch.nn.Linear(1, 1)
        buffer = io.BytesIO()
        torch.save(net, buffer)
        results = []
        for kwargs in ({}, {"weights_only": False}):
            buffer.seek(0)
            try:
                results.append(type(torch.load(buffer, **kwargs)).__name__)
            except (pickle.UnpicklingError, RuntimeError) as error:
                results.append(type(error).__name__)
        return results

    assert_same_outcome(scenario)


def test_saving_a_tensor_with_hooks_warns():
    """The warning names the hook with its address, the one part that differs."""
    def scenario(torch):
        x = torch.ones(2, requires_grad=True)
        x.register_hook(lambda grad: grad)
        buffer = io.BytesIO()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            torch.save({"x": x}, buffer)
        buffer.seek(0)
        return torch.load(buffer), [(w.category.__name__, re.sub(" at 0x[0-9a-f]+", "",
                                                                 str(w.message)))
                                    for w in caught]

    assert_same_outcome(scenario)


# -- weights_only refuses code -------------------------------------------------------------------

class _Payload:
    """A malicious object: unpickling it calls ``os.system`` (or ``exec``) with a command
    that creates a file, the proof that code ran."""

    def __init__(self, marker, via):
        self.marker, self.via = str(marker), via

    def __reduce__(self):
        if self.via == "os.system":
            return (os.system, (f"touch '{self.marker}'",))
        return (exec, (f"open({self.marker!r}, 'w').close()",))


@pytest.mark.parametrize("via", ["os.system", "exec"])
@pytest.mark.parametrize("saver", ["minitorch_hooks", "torch"])
def test_a_malicious_checkpoint_is_refused_and_its_code_never_runs(tmp_path, via, saver):
    """A real exploit, written by either library's ``save``: ``weights_only=True`` (the
    default) refuses it with PyTorch's message and the command never runs; loaded the
    unsafe way it does run, which proves the file is really malicious."""
    torch = real_torch()
    marker = tmp_path / "code-ran"
    path = tmp_path / "evil.pt"
    LIBRARIES[saver]().save({"weights": torch.ones(1) if saver == "torch"
                             else minitorch_hooks.ones(1),
                             "payload": _Payload(marker, via)}, path)
    errors = {}
    for name, lib in (("torch", torch), ("minitorch_hooks", minitorch_hooks)):
        with pytest.raises(pickle.UnpicklingError) as caught:
            lib.load(path)
        errors[name] = (type(caught.value).__name__, str(caught.value))
        assert not marker.exists(), f"{name} ran the payload"
    assert errors["minitorch_hooks"] == errors["torch"]
    assert "Weights only load failed" in errors["torch"][1]
    minitorch_hooks.load(path, weights_only=False)
    assert marker.exists()


class _Custom:
    pass


def test_weights_only_refuses_builds_and_unknown_globals_with_torchs_messages():
    def scenario(torch):
        results = []
        for obj in (_Custom(), {"f": print}, [pickle.loads], {1, 2}, b"bytes", 2 + 1j,
                    collections.Counter("abca"), {"array": np.arange(3)}):
            buffer = io.BytesIO()
            torch.save(obj, buffer)
            buffer.seek(0)
            try:
                torch.load(buffer)
            except pickle.UnpicklingError as error:
                results.append(str(error))
            else:
                buffer.seek(0)
                results.append(torch.load(buffer))
        return results

    assert_same_outcome(scenario)


def test_safe_globals_allow_a_trusted_class():
    def scenario(torch):
        buffer = io.BytesIO()
        torch.save({"point": _Point(1, 2)}, buffer)
        serialization = sys.modules[torch.__name__ + ".serialization"]
        buffer.seek(0)
        with serialization.safe_globals([_Point]):
            point = torch.load(buffer)["point"]
            during = _Point in serialization.get_safe_globals()
        after = _Point in serialization.get_safe_globals()
        buffer.seek(0)
        try:
            torch.load(buffer)
        except pickle.UnpicklingError:
            refused_again = True
        return (point.x, point.y), during, after, refused_again

    assert_same_outcome(scenario)


class _Point:
    def __init__(self, x, y):
        self.x, self.y = x, y


# -- damaged files -----------------------------------------------------------------------------

def _checkpoint_bytes(lib):
    buffer = io.BytesIO()
    lib.save({"weight": lib.ones(2, 3), "bias": lib.zeros(2)}, buffer)
    return buffer.getvalue()


@pytest.mark.parametrize("damage", ["truncated_half", "truncated_end", "not_a_zip"])
def test_a_damaged_file_is_an_error_and_the_model_is_untouched(damage):
    """PyTorch and minitorch_hooks both raise RuntimeError before anything reaches the
    model (PyTorch's text is miniz's; ours says what is wrong in the same first words)."""
    torch = real_torch()
    for lib in (torch, minitorch_hooks):
        data = _checkpoint_bytes(lib)
        damaged = {"truncated_half": data[:len(data) // 2], "truncated_end": data[:-10],
                   "not_a_zip": b"PK\x03\x04" + b"\x00" * 50}[damage]
        net = lib.nn.Linear(3, 2)
        before = {k: v.clone() for k, v in net.state_dict().items()}
        with pytest.raises(RuntimeError, match="^PytorchStreamReader failed reading zip"):
            net.load_state_dict(lib.load(io.BytesIO(damaged)))
        assert all(lib.equal(before[k], v) for k, v in net.state_dict().items())


def test_a_corrupted_storage_is_caught_by_its_checksum():
    """DEVIATION: a flipped byte inside a tensor's record. PyTorch does not check the zip
    checksums by default and loads the wrong number; minitorch_hooks reads through Python's
    ``zipfile``, which checks them, and raises."""
    torch = real_torch()
    data = _checkpoint_bytes(minitorch_hooks)
    one = np.float32(1.0).tobytes()
    at = data.index(one)
    damaged = data[:at] + b"\x01" + data[at + 1:]
    assert torch.load(io.BytesIO(damaged))["weight"][0, 0].item() != 1.0
    with pytest.raises(RuntimeError, match="Bad CRC-32"):
        minitorch_hooks.load(io.BytesIO(damaged))


def test_an_empty_file():
    def scenario(torch):
        results = []
        for weights_only in (True, False):
            try:
                torch.load(io.BytesIO(b""), weights_only=weights_only)
            except EOFError as error:
                results.append(str(error))
        return results

    assert_same_outcome(scenario)


def test_a_view_past_the_end_of_its_storage_is_refused():
    """A hand-made file whose tensor claims more elements than its storage holds: PyTorch
    refuses it, and so must we (it would read memory outside the file)."""
    torch = real_torch()
    buffer = io.BytesIO()
    minitorch_hooks.save({"w": minitorch_hooks.ones(2)}, buffer)
    import zipfile

    source = zipfile.ZipFile(io.BytesIO(buffer.getvalue()))
    forged = io.BytesIO()
    with zipfile.ZipFile(forged, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename.endswith("data.pkl"):
                data = data.replace(b"K\x02\x85", b"K\x09\x85", 1)  # size (2,) -> (9,)
            target.writestr(info.filename, data)
    for lib in (torch, minitorch_hooks):
        with pytest.raises(RuntimeError, match="^Trying to resize storage that is not resizable$"):
            lib.load(io.BytesIO(forged.getvalue()))
