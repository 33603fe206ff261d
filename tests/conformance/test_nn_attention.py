"""``F.scaled_dot_product_attention`` against real PyTorch: values and gradients with
boolean, float and causal masks, a custom scale, fully masked rows, dropout under the same
seed, second derivatives, and the errors for bad inputs."""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import leaf, upstream, values

Q, K, V = (2, 3, 4), (2, 5, 4), (2, 5, 6)


def qkv(torch, q=Q, k=K, v=V):
    return (leaf(torch, values(q, seed=1)), leaf(torch, values(k, seed=2)),
            leaf(torch, values(v, seed=3)))


def attention_and_grads(torch, q, k, v, **kwargs):
    out = torch.nn.functional.scaled_dot_product_attention(q, k, v, **kwargs)
    (out * upstream(torch, out)).sum().backward()
    return out, q.grad, k.grad, v.grad


BOOL_MASK = np.array([[1, 1, 0, 0, 1], [0, 0, 0, 0, 0], [1, 0, 1, 0, 1]], dtype=bool)
FLOAT_MASK = values((3, 5), seed=4)
FLOAT_MASK[1] = -np.inf

CASES = {
    "plain": (Q, K, V, {}),
    "scale": (Q, K, V, {"scale": 0.3}),
    "bool_mask_with_a_fully_masked_row": (Q, K, V, {"attn_mask": BOOL_MASK}),
    "float_mask_with_a_fully_masked_row": (Q, K, V, {"attn_mask": FLOAT_MASK}),
    "causal_square": ((2, 4, 3), (2, 4, 3), (2, 4, 2), {"is_causal": True}),
    "causal_more_keys": (Q, K, V, {"is_causal": True}),
    "heads": ((2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 6), {"attn_mask": BOOL_MASK}),
    "two_dims": ((3, 4), (5, 4), (5, 6), {}),
}


@pytest.mark.parametrize("q, k, v, kwargs", CASES.values(), ids=CASES.keys())
def test_attention_values_and_gradients(q, k, v, kwargs):
    def scenario(torch):
        args = {key: torch.tensor(val) if isinstance(val, np.ndarray) else val
                for key, val in kwargs.items()}
        return attention_and_grads(torch, *qkv(torch, q, k, v), **args)

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-5)


def test_attention_dropout_draws_as_pytorch_does():
    def scenario(torch):
        torch.manual_seed(0)
        return attention_and_grads(torch, *qkv(torch), dropout_p=0.4)

    assert_same_outcome(scenario, rtol=1e-5, atol=1e-5)


def test_attention_second_derivatives():
    def scenario(torch):
        q, k, v = qkv(torch)
        out = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        grads = torch.autograd.grad((out * upstream(torch, out)).sum(), (q, k, v),
                                    create_graph=True)
        total = sum((g * g).sum() for g in grads)
        return torch.autograd.grad(total, (q, k, v))

    assert_same_outcome(scenario, rtol=1e-4, atol=1e-5)


BAD = {
    "mask_and_causal": (Q, K, V, {"attn_mask": np.ones((3, 5), bool), "is_causal": True}),
    "one_dim_query": ((4,), K, V, {}),
    "dtypes_differ": (Q, K, V, {"value_dtype": "float64"}),
    "dropout_above_one": (Q, K, V, {"dropout_p": 1.5}),
    "dropout_below_zero": (Q, K, V, {"dropout_p": -0.1}),
    "long_mask": (Q, K, V, {"attn_mask": np.zeros((3, 5), np.int64)}),
    "mask_shape": (Q, K, V, {"attn_mask": np.zeros((4, 5), np.float32)}),
}


@pytest.mark.parametrize("q, k, v, kwargs", BAD.values(), ids=BAD.keys())
def test_attention_bad_inputs(q, k, v, kwargs):
    def scenario(torch):
        query, key, value = qkv(torch, q, k, v)
        args = dict(kwargs)
        if args.pop("value_dtype", None):
            value = value.double()
        args = {name: torch.tensor(val) if isinstance(val, np.ndarray) else val
                for name, val in args.items()}
        return torch.nn.functional.scaled_dot_product_attention(query, key, value, **args)

    assert_same_outcome(scenario)
