"""``torch.multinomial`` and ``Tensor.multinomial`` against real PyTorch: the same indices
for the same seed, by both of PyTorch's algorithms (exponential ratios without
replacement or for one sample, the inverse CDF with replacement), in every float dtype,
with ties among zero weights, and the same number of random draws consumed (each
scenario draws ``randint`` once more afterwards). Then the argument errors, the checks of
the weights, and which draws a failing row has already used."""

from __future__ import annotations

import pytest
from harness import assert_same_outcome

WEIGHTS = {
    "two rows": [[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]],
    "unnormalised": [[3.0, 0.0, 1.0, 6.0]],
    "zeros among them": [[0.5, 0.0, 0.0, 0.5, 0.0]],
    "one row as a vector": [2.0, 1.0, 1.0],
}


def _draws_after(torch) -> list:
    """A few integers drawn next: equal only if as many numbers were drawn before."""
    return torch.randint(0, 2**31, (3,)).tolist()


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize(("num_samples", "replacement"), [(1, False), (1, True), (2, False),
                                                         (3, False), (7, True)])
@pytest.mark.parametrize("weights", WEIGHTS.values(), ids=WEIGHTS.keys())
def test_the_same_indices_for_the_same_seed(weights, num_samples, replacement, dtype):
    def scenario(torch):
        torch.manual_seed(5)
        probs = torch.tensor(weights, dtype=getattr(torch, dtype))
        try:
            samples = torch.multinomial(probs, num_samples, replacement)
        except RuntimeError as error:  # more samples than categories, without replacement
            return str(error), _draws_after(torch)
        return samples, samples.dtype, _draws_after(torch)

    assert_same_outcome(scenario)


@pytest.mark.parametrize("shape", [(4, 30), (1, 100)])
@pytest.mark.parametrize(("num_samples", "replacement"), [(30, False), (200, True)])
def test_many_random_weights(shape, num_samples, replacement):
    def scenario(torch):
        torch.manual_seed(11)
        probs = torch.rand(*shape, dtype=torch.float64)
        samples = torch.multinomial(probs, num_samples, replacement)
        return samples.tolist(), _draws_after(torch)

    assert_same_outcome(scenario)


def test_inputs_laid_out_otherwise_draw_in_their_memory_order():
    """The exponentials are made ``empty_like`` the weights: transposed, they are filled
    in the transposed memory's order; expanded (not dense), row by row."""
    def scenario(torch):
        torch.manual_seed(4)
        transposed = torch.multinomial(torch.arange(1.0, 13.0).reshape(3, 4).t(), 2)
        expanded = torch.multinomial(torch.tensor([[0.2], [0.5], [0.3]]).expand(3, 4).t(), 2)
        return transposed, expanded, _draws_after(torch)

    assert_same_outcome(scenario)


def test_the_method_a_generator_and_a_transposed_input():
    def scenario(torch):
        generator = torch.Generator().manual_seed(3)
        probs = torch.arange(1.0, 13.0).reshape(4, 3).t()  # not contiguous
        with_generator = probs.multinomial(5, replacement=True, generator=generator)
        torch.manual_seed(3)
        by_keyword = torch.multinomial(input=probs, num_samples=2)
        return with_generator, by_keyword, _draws_after(torch)

    assert_same_outcome(scenario)


def test_no_rows_gives_an_empty_result():
    def scenario(torch):
        torch.manual_seed(0)
        empty = torch.multinomial(torch.ones(0, 3), 2)
        return empty, empty.dtype, _draws_after(torch)

    assert_same_outcome(scenario)


BAD_ARGUMENTS = {
    "0-d": lambda torch: torch.multinomial(torch.tensor(1.0), 1),
    "3-d": lambda torch: torch.multinomial(torch.ones(1, 1, 2), 1),
    "int64 weights": lambda torch: torch.multinomial(torch.ones(3, dtype=torch.long), 1),
    "bool weights": lambda torch: torch.ones(3, dtype=torch.bool).multinomial(1),
    "no samples": lambda torch: torch.multinomial(torch.ones(3), 0),
    "negative count": lambda torch: torch.multinomial(torch.ones(3), -1),
    "too many without replacement": lambda torch: torch.multinomial(torch.ones(3), 4),
    "no categories": lambda torch: torch.multinomial(torch.ones(0), 1),
    "float count": lambda torch: torch.multinomial(torch.ones(3), 1.0),
    "float count, method": lambda torch: torch.ones(3).multinomial(1.0),
    "bool count by keyword": lambda torch: torch.ones(3).multinomial(num_samples=True),
    "a list": lambda torch: torch.multinomial([1.0, 2.0], 1),
}


@pytest.mark.parametrize("call", BAD_ARGUMENTS.values(), ids=BAD_ARGUMENTS.keys())
def test_bad_arguments(call):
    def scenario(torch):
        try:
            call(torch)
        except (RuntimeError, TypeError) as error:
            return type(error).__name__, str(error).split("\n")[0]
        return "no error"

    assert_same_outcome(scenario)


BAD_WEIGHTS = {
    "negative": [[1.0, 2.0], [1.0, -1.0]],
    "infinite": [[1.0, 2.0], [float("inf"), 1.0]],
    "nan": [[1.0, 2.0], [float("nan"), 1.0]],
    "a row of zeros": [[1.0, 2.0], [0.0, 0.0]],
    "empty rows": [[], []],
}


@pytest.mark.parametrize(("num_samples", "replacement"), [(1, False), (1, True), (3, True)])
@pytest.mark.parametrize("weights", BAD_WEIGHTS.values(), ids=BAD_WEIGHTS.keys())
def test_bad_weights_and_the_draws_used_before_the_error(weights, num_samples, replacement):
    """With replacement and several samples, the rows before the bad one have drawn."""
    def scenario(torch):
        torch.manual_seed(2)
        try:
            torch.multinomial(torch.tensor(weights), num_samples, replacement)
        except RuntimeError as error:
            return str(error), _draws_after(torch)
        return "no error"

    assert_same_outcome(scenario)
