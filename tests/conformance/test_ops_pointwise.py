"""Element-wise operations against real PyTorch: forward value and dtype, the recorded
``grad_fn`` graph, and every input's gradient after a backward with a non-trivial upstream
gradient, broadcasting included. Then comparisons and type promotion."""

from __future__ import annotations

import numpy as np
import pytest
from harness import assert_same_outcome
from ops_support import leaf, run, values

# Shape pairs that broadcast in each way PyTorch allows.
BROADCAST_SHAPES = [
    ((3, 4), (3, 4)),
    ((3, 1), (1, 4)),
    ((2, 3), (3,)),
    ((), (2, 3)),
    ((2, 3), ()),
    ((4, 1, 3), (2, 1)),
]

TENSOR_TENSOR = [
    pytest.param(lambda torch, a, b: a + b, id="a + b"),
    pytest.param(lambda torch, a, b: a - b, id="a - b"),
    pytest.param(lambda torch, a, b: a * b, id="a * b"),
    pytest.param(lambda torch, a, b: a / b, id="a / b"),
    pytest.param(lambda torch, a, b: torch.add(a, b, alpha=2.5), id="add(alpha=2.5)"),
    pytest.param(lambda torch, a, b: a.sub(b, alpha=-3), id="sub(alpha=-3)"),
    pytest.param(lambda torch, a, b: torch.mul(a, b), id="torch.mul"),
    pytest.param(lambda torch, a, b: a.div(b), id="a.div(b)"),
    pytest.param(lambda torch, a, b: torch.maximum(a, b), id="maximum"),
]


@pytest.mark.parametrize("shapes", BROADCAST_SHAPES, ids=str)
@pytest.mark.parametrize("op", TENSOR_TENSOR)
def test_binary_op_between_tensors(op, shapes):
    a, b = values(shapes[0], seed=1), values(shapes[1], seed=2)
    assert_same_outcome(lambda torch: run(torch, op, a, b))


@pytest.mark.parametrize("shapes", BROADCAST_SHAPES, ids=str)
def test_tensor_to_the_power_of_a_tensor(shapes):
    base, exponent = values(shapes[0], seed=1, low=0.5, high=2), values(shapes[1], seed=2)
    assert_same_outcome(lambda torch: run(torch, lambda torch, a, b: a ** b, base, exponent))


TENSOR_NUMBER = [
    pytest.param(lambda torch, x: x + 2, id="x + 2"),
    pytest.param(lambda torch, x: x + 2.5, id="x + 2.5"),
    pytest.param(lambda torch, x: x - 1.5, id="x - 1.5"),
    pytest.param(lambda torch, x: x * 3, id="x * 3"),
    pytest.param(lambda torch, x: x * -0.5, id="x * -0.5"),
    pytest.param(lambda torch, x: x / 4, id="x / 4"),
    pytest.param(lambda torch, x: x ** 2, id="x ** 2"),
    pytest.param(lambda torch, x: x ** 3, id="x ** 3"),
    pytest.param(lambda torch, x: x ** 0, id="x ** 0"),
    pytest.param(lambda torch, x: x ** -1, id="x ** -1"),
    pytest.param(lambda torch, x: x.abs() ** 0.5, id="|x| ** 0.5"),
    pytest.param(lambda torch, x: x.abs() ** 2.5, id="|x| ** 2.5"),
    pytest.param(lambda torch, x: x.add(2, alpha=3), id="x.add(2, alpha=3)"),
    pytest.param(lambda torch, x: torch.pow(x, 2), id="torch.pow(x, 2)"),
    pytest.param(lambda torch, x: x.square(), id="x.square()"),
    pytest.param(lambda torch, x: 2 + x, id="2 + x"),
    pytest.param(lambda torch, x: 2.5 - x, id="2.5 - x"),
    pytest.param(lambda torch, x: 2.5 * x, id="2.5 * x"),
    pytest.param(lambda torch, x: 3 / x, id="3 / x"),
    pytest.param(lambda torch, x: 2 ** x, id="2 ** x"),
    pytest.param(lambda torch, x: 0.5 ** x, id="0.5 ** x"),
    pytest.param(lambda torch, x: torch.add(2, x), id="torch.add(2, x)"),
]


@pytest.mark.parametrize("shape", [(), (4,), (2, 3)], ids=str)
@pytest.mark.parametrize("op", TENSOR_NUMBER)
def test_binary_op_with_a_python_number(op, shape):
    assert_same_outcome(lambda torch: run(torch, op, values(shape, seed=3)))


UNARY = [
    pytest.param(lambda torch, x: -x, id="-x"),
    pytest.param(lambda torch, x: x.neg(), id="neg"),
    pytest.param(lambda torch, x: x.exp(), id="exp"),
    pytest.param(lambda torch, x: torch.exp(x), id="torch.exp"),
    pytest.param(lambda torch, x: x.abs(), id="abs"),
    pytest.param(lambda torch, x: abs(x), id="builtin abs"),
    pytest.param(lambda torch, x: x.relu(), id="relu"),
    pytest.param(lambda torch, x: torch.relu(x), id="torch.relu"),
    pytest.param(lambda torch, x: x.tanh(), id="tanh"),
    pytest.param(lambda torch, x: x.sigmoid(), id="sigmoid"),
    pytest.param(lambda torch, x: torch.sigmoid(x), id="torch.sigmoid"),
    pytest.param(lambda torch, x: x.reciprocal(), id="reciprocal"),
]

POSITIVE_UNARY = [
    pytest.param(lambda torch, x: x.log(), id="log"),
    pytest.param(lambda torch, x: torch.log(x), id="torch.log"),
    pytest.param(lambda torch, x: x.sqrt(), id="sqrt"),
    pytest.param(lambda torch, x: torch.sqrt(x), id="torch.sqrt"),
]


@pytest.mark.parametrize("shape", [(), (5,), (2, 3)], ids=str)
@pytest.mark.parametrize("op", UNARY)
def test_unary_op(op, shape):
    assert_same_outcome(lambda torch: run(torch, op, values(shape, seed=4)))


@pytest.mark.parametrize("shape", [(), (5,), (2, 3)], ids=str)
@pytest.mark.parametrize("op", POSITIVE_UNARY)
def test_unary_op_on_positive_values(op, shape):
    assert_same_outcome(lambda torch: run(torch, op, values(shape, seed=4, low=0.2, high=3)))


@pytest.mark.parametrize("op", [
    pytest.param(lambda torch, x: x.clamp(min=-0.5), id="clamp(min)"),
    pytest.param(lambda torch, x: x.clamp(max=0.5), id="clamp(max)"),
    pytest.param(lambda torch, x: x.clamp(-0.5, 0.5), id="clamp(min, max)"),
    pytest.param(lambda torch, x: torch.clamp(x, min=-1.0, max=1.0), id="torch.clamp"),
    pytest.param(lambda torch, x: x.clip(0.0, 1.0), id="clip"),
    pytest.param(lambda torch, x: torch.clamp(x, min=0), id="clamp(min=int 0)"),
])
def test_clamp(op):
    assert_same_outcome(lambda torch: run(torch, op, values((3, 4), seed=5)))


def test_clamp_without_limits_is_an_error():
    assert_same_outcome(lambda torch: torch.ones(2).clamp())


def test_clamp_of_an_int_tensor_keeps_its_dtype():
    assert_same_outcome(lambda torch: torch.arange(-3, 4).clamp(-1, 2))


@pytest.mark.parametrize("shapes", [((3, 4), (3, 4)), ((3, 1), (1, 4)), ((2, 3), (3,))],
                         ids=str)
def test_where_between_tensors(shapes):
    a, b = values(shapes[0], seed=6), values(shapes[1], seed=7)

    def scenario(torch):
        return run(torch, lambda torch, x, y: torch.where(x > y, x, y), a, b)

    assert_same_outcome(scenario)


def test_where_with_a_number():
    assert_same_outcome(lambda torch: run(
        torch, lambda torch, x: torch.where(x > 0, x, 0.0), values((2, 3), seed=8)))


@pytest.mark.parametrize("input, other", [(1.0, 0.0), (1, 0), (True, False), (1, 0.5)],
                         ids=str)
def test_where_between_two_numbers(input, other):
    assert_same_outcome(lambda torch: torch.where(torch.tensor([True, False]), input, other))


def test_where_refuses_a_condition_that_is_not_boolean():
    assert_same_outcome(lambda torch: torch.where(torch.tensor([1.0, 0.0]), 1.0, 0.0))


def test_maximum_splits_the_gradient_of_ties():
    a, b = values((2, 3), seed=9), values((2, 3), seed=10)
    b[0, 1] = a[0, 1]
    assert_same_outcome(lambda torch: run(torch, lambda torch, x, y: torch.maximum(x, y), a, b))


@pytest.mark.parametrize("shapes", [((2, 3), (4,)), ((3, 2), (2, 3)), ((2, 1, 3), (4, 2)),
                                    ((5,), (2, 4))], ids=str)
@pytest.mark.parametrize("op", [
    pytest.param(lambda torch, a, b: a + b, id="+"),
    pytest.param(lambda torch, a, b: a * b, id="*"),
    pytest.param(lambda torch, a, b: a ** b, id="**"),
    pytest.param(lambda torch, a, b: a < b, id="<"),
    pytest.param(lambda torch, a, b: torch.maximum(a, b), id="maximum"),
    pytest.param(lambda torch, a, b: torch.where(a > 0, a, b), id="where"),
    pytest.param(lambda torch, a, b: a.add_(b), id="add_"),
])
def test_shapes_that_do_not_broadcast(op, shapes):
    assert_same_outcome(lambda torch: op(torch, torch.ones(shapes[0]), torch.ones(shapes[1])))


# -- comparisons: boolean results, never any gradient --------------------------------------

COMPARISONS = [
    pytest.param(lambda torch, a, b: a == b, id="=="),
    pytest.param(lambda torch, a, b: a != b, id="!="),
    pytest.param(lambda torch, a, b: a < b, id="<"),
    pytest.param(lambda torch, a, b: a <= b, id="<="),
    pytest.param(lambda torch, a, b: a > b, id=">"),
    pytest.param(lambda torch, a, b: a >= b, id=">="),
    pytest.param(lambda torch, a, b: a.eq(b), id="eq"),
    pytest.param(lambda torch, a, b: torch.ne(a, b), id="torch.ne"),
    pytest.param(lambda torch, a, b: a.lt(b), id="lt"),
    pytest.param(lambda torch, a, b: a.le(b), id="le"),
    pytest.param(lambda torch, a, b: torch.gt(a, b), id="torch.gt"),
    pytest.param(lambda torch, a, b: a.ge(b), id="ge"),
]


@pytest.mark.parametrize("op", COMPARISONS)
def test_comparison_of_tensors(op):
    a, b = values((3, 1), seed=11).round(), values((1, 4), seed=12).round()
    assert_same_outcome(lambda torch: run(torch, op, a, b))


@pytest.mark.parametrize("op", COMPARISONS)
def test_comparison_with_a_number(op):
    assert_same_outcome(lambda torch: run(
        torch, lambda torch, x: op(torch, x, 1.0), values((2, 3), seed=13).round()))


def test_comparison_of_an_int_tensor_with_a_float_tensor():
    assert_same_outcome(lambda torch: torch.arange(4) < torch.tensor([0.5, 1.5, 1.0, 4.0]))


def test_logical_not_and_isnan():
    def scenario(torch):
        x = torch.tensor([1.0, float("nan"), 0.0])
        return torch.isnan(x), x.isnan().logical_not(), torch.logical_not(x)

    assert_same_outcome(scenario)


# -- type promotion ---------------------------------------------------------------------------

PROMOTION = [
    pytest.param(lambda torch: torch.ones(3) + torch.arange(3), id="float32 + int64"),
    pytest.param(lambda torch: torch.arange(3) * torch.ones(3), id="int64 * float32"),
    pytest.param(lambda torch: torch.ones(3) + torch.tensor(2.0, dtype=torch.float64),
                 id="float32 + 0-d float64"),
    pytest.param(lambda torch: torch.ones(3, dtype=torch.float64) + torch.tensor(2.0),
                 id="float64 + 0-d float32"),
    pytest.param(lambda torch: torch.ones(3) + torch.ones(3, dtype=torch.float64),
                 id="float32 + float64"),
    pytest.param(lambda torch: torch.arange(3) + torch.tensor(2.5, dtype=torch.float64),
                 id="int64 + 0-d float64"),
    pytest.param(lambda torch: torch.arange(3, dtype=torch.int32) + torch.tensor(7),
                 id="int32 + 0-d int64"),
    pytest.param(lambda torch: torch.arange(3, dtype=torch.int32) + torch.arange(3),
                 id="int32 + int64"),
    pytest.param(lambda torch: torch.arange(3) + 1.5, id="int64 + python float"),
    pytest.param(lambda torch: 1.5 * torch.arange(3), id="python float * int64"),
    pytest.param(lambda torch: torch.arange(3, dtype=torch.int32) + 7, id="int32 + python int"),
    pytest.param(lambda torch: torch.ones(3, dtype=torch.float64) * 2.5,
                 id="float64 * python float"),
    pytest.param(lambda torch: torch.arange(1, 7) / torch.tensor([4, 4, 2, 3, 5, 6]),
                 id="int64 / int64"),
    pytest.param(lambda torch: torch.arange(5) / 2, id="int64 / python int"),
    pytest.param(lambda torch: 7 / torch.arange(1, 4), id="python int / int64"),
    pytest.param(lambda torch: torch.arange(5) ** 2, id="int64 ** 2"),
    pytest.param(lambda torch: torch.arange(5) ** 0.5, id="int64 ** 0.5"),
    pytest.param(lambda torch: torch.arange(1, 5).exp(), id="int64.exp()"),
    pytest.param(lambda torch: torch.arange(1, 5).sqrt(), id="int64.sqrt()"),
    pytest.param(lambda torch: -torch.arange(3), id="-int64"),
    pytest.param(lambda torch: torch.tensor([True, False]) + torch.tensor([True, True]),
                 id="bool + bool"),
    pytest.param(lambda torch: torch.tensor([True, False]) * torch.tensor([True, True]),
                 id="bool * bool"),
    pytest.param(lambda torch: torch.tensor([True, False]) + 1, id="bool + python int"),
    pytest.param(lambda torch: torch.tensor([True, False]) * 2.5, id="bool * python float"),
    pytest.param(lambda torch: torch.tensor([True, False]) + torch.arange(2), id="bool + int64"),
    pytest.param(lambda torch: torch.tensor([True, False]) + torch.ones(2), id="bool + float32"),
    pytest.param(lambda torch: torch.tensor([True, False]) + True, id="bool + python bool"),
    pytest.param(lambda torch: torch.tensor([True, False]) / 2, id="bool / python int"),
    pytest.param(lambda torch: torch.arange(3) + torch.tensor(True), id="int64 + 0-d bool"),
    pytest.param(lambda torch: torch.arange(3, dtype=torch.uint8) + 1, id="uint8 + python int"),
    pytest.param(lambda torch: torch.ones(3) * torch.tensor([2.0], dtype=torch.float64),
                 id="float32 * 1-d float64"),
]


@pytest.mark.parametrize("op", PROMOTION)
def test_type_promotion(op):
    assert_same_outcome(op)


INTEGER_AND_BOOL_RULES = [
    pytest.param(lambda torch: torch.tensor([True, False]) - torch.tensor([True, True]),
                 id="bool - bool"),
    pytest.param(lambda torch: torch.tensor([True, False]) - 1, id="bool - 1"),
    pytest.param(lambda torch: 1 - torch.tensor([True, False]), id="1 - bool"),
    pytest.param(lambda torch: torch.ones(2) - True, id="float - True"),
    pytest.param(lambda torch: True - torch.tensor([True]), id="True - bool"),
    pytest.param(lambda torch: -torch.tensor([True, False]), id="-bool"),
    pytest.param(lambda torch: torch.tensor([True, False]) ** True, id="bool ** True"),
    pytest.param(lambda torch: torch.tensor([True, False]) ** 2, id="bool ** 2"),
    pytest.param(lambda torch: torch.tensor([True]) ** torch.tensor([True]), id="bool ** bool"),
    pytest.param(lambda torch: torch.tensor([1, -2, 3]) ** -1, id="int ** -1"),
    pytest.param(lambda torch: 2 ** torch.tensor([1, -2, 3]), id="2 ** int with a negative"),
    pytest.param(lambda torch: torch.tensor([2, 1, -1, 3]) ** torch.tensor([-1, -2, -3, 2]),
                 id="int ** negative ints"),
    pytest.param(lambda torch: torch.tensor([1, 2, 3], dtype=torch.uint8) - 2,
                 id="uint8 wraps around"),
    pytest.param(lambda torch: torch.tensor([1, 2, 3], dtype=torch.uint8) * -1, id="uint8 * -1"),
    pytest.param(lambda torch: torch.tensor([1, 2, 3], dtype=torch.uint8) / -1, id="uint8 / -1"),
    pytest.param(lambda torch: torch.tensor([100], dtype=torch.int32) + 2**40, id="int32 + 2**40"),
]


@pytest.mark.parametrize("op", INTEGER_AND_BOOL_RULES)
def test_integer_and_bool_arithmetic(op):
    assert_same_outcome(op)


# In-place arithmetic with nothing to record (plain tensors, or an optimiser's step under
# no_grad) follows the same rules as the operators: promotion, refusals, keywords.
UNRECORDED_IN_PLACE = [
    pytest.param(lambda torch, x: x.div_(torch.tensor(0.3)), id="div_ 0-d"),
    pytest.param(lambda torch, x: x.sub_(True), id="sub_ True"),
    pytest.param(lambda torch, x: x.add_(torch.tensor(0.1, dtype=torch.float64), alpha=2),
                 id="add_ 0-d float64 alpha"),
    pytest.param(lambda torch, x: x.sub_(torch.tensor(0.1, dtype=torch.float64)),
                 id="sub_ 0-d float64"),
    pytest.param(lambda torch, x: x.to(torch.int64).add_(0.5), id="int64 add_ float"),
    pytest.param(lambda torch, x: x.mul_(torch.ones(2, 4)), id="mul_ bigger shape"),
    pytest.param(lambda torch, x: x.requires_grad_().add_(x.detach(), alpha=-0.1),
                 id="leaf add_ under no_grad"),
]


@pytest.mark.parametrize("op", UNRECORDED_IN_PLACE)
def test_in_place_arithmetic_without_recording(op):
    def scenario(torch):
        x = torch.tensor([1.3, -2.7, 3.0, 1e-8])  # 0-d float64 operands compute in float32
        with torch.no_grad():
            out = op(torch, x)
        return out, out is x, out._version

    assert_same_outcome(scenario)


@pytest.mark.parametrize("other_dtype", ["float64", "int64"])
def test_gradients_come_back_in_each_inputs_dtype(other_dtype):
    def scenario(torch):
        x = leaf(torch, values((3,), seed=14))
        other = torch.tensor(2, dtype=getattr(torch, other_dtype),
                             requires_grad=other_dtype == "float64")
        out = x * other
        out.sum().backward()
        return out, x.grad, other.grad

    assert_same_outcome(scenario)


def test_float32_times_a_float64_tensor_with_dimensions_gives_float64_grads():
    def scenario(torch):
        x = leaf(torch, values((2, 3), seed=15))
        y = leaf(torch, values((3,), seed=16).astype("float64"))
        out = x * y
        out.sum().backward()
        return out, x.grad, y.grad

    assert_same_outcome(scenario)


SPECIAL = np.array([[1.5, -np.inf, np.nan], [np.inf, 0.0, -2.0]], dtype=np.float32)


@pytest.mark.parametrize("name", ["isinf", "isfinite", "isnan"])
def test_isinf_and_isfinite(name):
    def scenario(torch):
        x = torch.tensor(SPECIAL, requires_grad=True)
        out = getattr(x, name)()
        return (out, getattr(torch, name)(x), out.requires_grad,
                getattr(torch.arange(3), name)(), getattr(torch.tensor([True, False]), name)(),
                getattr(torch.tensor(np.float64("inf")), name)())

    assert_same_outcome(scenario)


@pytest.mark.parametrize("op", [
    pytest.param(lambda torch, x: x.sign(), id="sign()"),
    pytest.param(lambda torch, x: torch.sign(x), id="torch.sign"),
    pytest.param(lambda torch, x: (x * 3).sign() * x, id="sign(3x) * x"),
])
def test_sign_has_a_zero_gradient(op):
    data = np.array([[1.5, -0.5, 0.0], [-2.0, 3.0, 0.25]], dtype=np.float32)
    assert_same_outcome(lambda torch: run(torch, op, data))


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "bool", "float64"])
def test_sign_keeps_the_dtype(dtype):
    assert_same_outcome(lambda torch: torch.tensor([3, 0, -1, 0]).to(getattr(torch, dtype))
                        .sign())
