"""``torch.cuda`` and ``torch.device``, against a CPU-only PyTorch: model code asks where
it can run (``is_available``, ``device_count``), seeds and empties caches that do not exist,
and makes ``torch.device("cuda:0")`` objects; all of that works without a GPU. What needs a
device raises ``AssertionError: Torch not compiled with CUDA enabled``."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome

ANSWERED = {
    "is_available": lambda torch: torch.cuda.is_available(),
    "device_count": lambda torch: torch.cuda.device_count(),
    "is_initialized": lambda torch: torch.cuda.is_initialized(),
    "empty_cache": lambda torch: torch.cuda.empty_cache(),
    "memory_allocated": lambda torch: torch.cuda.memory_allocated(),
    "memory_allocated(device)": lambda torch: torch.cuda.memory_allocated("cuda:0"),
    "max_memory_allocated": lambda torch: torch.cuda.max_memory_allocated(),
    "memory_reserved": lambda torch: torch.cuda.memory_reserved(),
    "max_memory_reserved": lambda torch: torch.cuda.max_memory_reserved(),
    "memory_stats": lambda torch: dict(torch.cuda.memory_stats()),
    "manual_seed": lambda torch: torch.cuda.manual_seed(0),
    "manual_seed(float)": lambda torch: torch.cuda.manual_seed(1.5),
    "manual_seed_all": lambda torch: torch.cuda.manual_seed_all(1234),
    "seed": lambda torch: torch.cuda.seed(),
    "seed_all": lambda torch: torch.cuda.seed_all(),
    "get_rng_state_all": lambda torch: torch.cuda.get_rng_state_all(),
    "get_arch_list": lambda torch: torch.cuda.get_arch_list(),
    "is_bf16_supported": lambda torch: torch.cuda.is_bf16_supported(),
    # errors: what needs a device
    "current_device": lambda torch: torch.cuda.current_device(),
    "init": lambda torch: torch.cuda.init(),
    "synchronize": lambda torch: torch.cuda.synchronize(),
    "get_device_name": lambda torch: torch.cuda.get_device_name(0),
    "get_device_properties": lambda torch: torch.cuda.get_device_properties(0),
    "get_device_capability": lambda torch: torch.cuda.get_device_capability(),
    "initial_seed": lambda torch: torch.cuda.initial_seed(),
    "get_rng_state": lambda torch: torch.cuda.get_rng_state(),
    "manual_seed(str)": lambda torch: torch.cuda.manual_seed("a"),
}


@pytest.mark.parametrize("ask", ANSWERED.values(), ids=ANSWERED.keys())
def test_what_a_cpu_only_build_answers(ask):
    def scenario(torch):
        answer = ask(torch)
        return answer, type(answer).__name__

    assert_same_outcome(scenario)


def test_seeding_cuda_leaves_the_cpu_generator_alone():
    def scenario(torch):
        torch.manual_seed(3)
        torch.cuda.manual_seed_all(0)
        torch.cuda.manual_seed(7)
        return torch.rand(3)

    assert_same_outcome(scenario)


def test_the_usual_device_choice_picks_the_cpu():
    def scenario(torch):
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(2, 1).to(device)
        x = torch.ones(1, 2, device=device)
        return str(device), model.weight.device.type, x.device.type, x.is_cuda

    assert_same_outcome(scenario)


DEVICES = {
    "cuda:0": lambda torch: torch.device("cuda:0"),
    "cuda": lambda torch: torch.device("cuda"),
    "cuda,1": lambda torch: torch.device("cuda", 1),
    "keywords": lambda torch: torch.device(type="cuda", index=2),
    "cpu": lambda torch: torch.device("cpu"),
    "cpu:0": lambda torch: torch.device("cpu:0"),
    "cpu,0": lambda torch: torch.device("cpu", 0),
    "meta": lambda torch: torch.device("meta"),
    "mps": lambda torch: torch.device("mps"),
    "of a device": lambda torch: torch.device(torch.device("cuda:3")),
}


@pytest.mark.parametrize("make", DEVICES.values(), ids=DEVICES.keys())
def test_a_device_is_only_a_name(make):
    def scenario(torch):
        device = make(torch)
        return (device.type, device.index, str(device), repr(device),
                device == make(torch), hash(device) == hash(make(torch)))

    assert_same_outcome(scenario)


BAD_DEVICES = {
    "empty": lambda torch: torch.device(""),
    "unknown type": lambda torch: torch.device("foo"),
    "upper case": lambda torch: torch.device("CUDA"),
    "space": lambda torch: torch.device(" cuda"),
    "no index": lambda torch: torch.device("cuda:"),
    "leading zero": lambda torch: torch.device("cuda:01"),
    "negative in string": lambda torch: torch.device("cuda:-1"),
    "two indices": lambda torch: torch.device("cuda:1:2"),
    "index twice": lambda torch: torch.device("cuda:0", 1),
    "negative index": lambda torch: torch.device("cuda", -1),
    "float index": lambda torch: torch.device("cuda", 1.5),
    "str index": lambda torch: torch.device("cuda", "1"),
    "bare index": lambda torch: torch.device(0),
    "None": lambda torch: torch.device(None),
    "float": lambda torch: torch.device(1.0),
    "set an attribute": lambda torch: setattr(torch.device("cpu"), "type", "cuda"),
}


@pytest.mark.parametrize("make", BAD_DEVICES.values(), ids=BAD_DEVICES.keys())
def test_bad_device_names(make):
    assert_same_outcome(make)


def test_devices_compare_by_type_and_index():
    def scenario(torch):
        cuda, cuda0, cpu = torch.device("cuda"), torch.device("cuda:0"), torch.device("cpu")
        return (cuda == cuda0, cuda != cpu, cpu == "cpu", cpu == torch.device("cpu:0"),
                {cpu: 1}[torch.device("cpu")], torch.ones(1, device="cpu:0").device == cpu)

    assert_same_outcome(scenario)


def test_cudnn_switches_exist_and_can_be_set():
    def scenario(torch):
        cudnn = torch.backends.cudnn
        results = [(cudnn.enabled, cudnn.benchmark, cudnn.benchmark_limit, cudnn.deterministic,
                    cudnn.allow_tf32, cudnn.is_available(), cudnn.version(),
                    cudnn.is_acceptable(torch.ones(1)))]
        with cudnn.flags(enabled=False, benchmark=True, deterministic=True):
            results.append((cudnn.enabled, cudnn.benchmark, cudnn.deterministic))
        results.append((cudnn.enabled, cudnn.benchmark, cudnn.deterministic))
        cudnn.benchmark = True
        cudnn.deterministic = True
        results.append((cudnn.benchmark, cudnn.deterministic))
        cudnn.benchmark = False
        cudnn.deterministic = False
        return results

    assert_same_outcome(scenario)


def test_mixed_precision_is_switched_off_and_says_so():
    """A training loop written for a GPU, with ``autocast`` and a ``GradScaler``, runs in
    float32: the scaler scales nothing and calls the optimiser's step."""
    def scenario(torch):
        torch.manual_seed(0)
        model = torch.nn.Linear(2, 1)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        scaler = torch.cuda.amp.GradScaler()
        log = []
        optimizer.register_step_post_hook(lambda opt, args, kwargs: log.append("stepped"))
        with torch.cuda.amp.autocast() as context:
            loss = model(torch.ones(3, 2)).pow(2).mean()
        scaled = scaler.scale(loss)
        scaled.backward()
        scaler.unscale_(optimizer)
        result = scaler.step(optimizer)
        scaler.update()
        return (type(context).__name__, loss.dtype, scaled is loss, result, log, model.weight,
                scaler.get_scale(), scaler.is_enabled(), scaler.state_dict(),
                scaler.load_state_dict({}), torch.cuda.amp.GradScaler(enabled=False).is_enabled())

    assert_same_outcome(scenario)


def test_autocast_as_a_decorator():
    def scenario(torch):
        @torch.cuda.amp.autocast()
        def double(x):
            return x * 2

        results = [double(torch.ones(2)), double.__name__,
                   torch.cuda.amp.autocast(enabled=False).__enter__() is not None]
        try:
            torch.cuda.amp.autocast(enabled=False)(3)
        except TypeError as error:
            results.append(str(error))
        return results

    assert_same_outcome(scenario)


@pytest.mark.parametrize("where", ["cuda", "cuda:0", "device"])
def test_loading_onto_cuda(where, tmp_path):
    def scenario(torch):
        path = tmp_path / "weights.pt"
        torch.save({"w": torch.ones(2)}, path)
        return torch.load(path, map_location=torch.device("cuda") if where == "device" else where)

    assert_same_outcome(scenario)
