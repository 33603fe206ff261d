"""One training step of the Grad-CAM recipe's digits CNN, minitorch_hooks against PyTorch
(issue 18).

Run: ``python benchmarks/bench_digits.py``. The workload is the model of
``docs/how-to/grad-cam.md`` (``Conv2d(1, 8)``, ReLU, max pool, ``Conv2d(8, 16)``, ReLU, max
pool, ``Linear(64, 10)``) on a batch of 64 bundled 8x8 digits: zero the gradients,
forward, cross-entropy, backward and an SGD step with momentum. Target: within 2x of
PyTorch. Single-threaded on both sides.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from _timing import compare, limit_blas_threads  # noqa: E402 - after the thread limit

import minitorch_hooks.datasets  # noqa: E402


def training_step(torch):
    images, labels = minitorch_hooks.datasets.load_digits()
    inputs = torch.tensor(images[:64], dtype=torch.float32).unsqueeze(1) / 16
    targets = torch.tensor(labels[:64])
    torch.manual_seed(0)
    nn = torch.nn
    model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Flatten(), nn.Linear(64, 10))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

    def step():
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(inputs), targets).backward()
        optimizer.step()
    return step


WORKLOADS = {"digits CNN, one SGD step on 64 8x8 images": (training_step, 50)}

if __name__ == "__main__":
    limit_blas_threads()
    compare(WORKLOADS)
