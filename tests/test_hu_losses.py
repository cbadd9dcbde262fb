"""Losses (reference/losses/) and records (reference/records.py): gradients, extreme inputs, bad input."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.arora.data import glm_loss
from reference.losses import (
    LOSS_NAMES,
    BiweightLoss,
    LogisticLoss,
    Loss,
    RegularizedLogisticLoss,
    SquaredLoss,
    get_loss,
    logistic_of_margin,
    squared_of_residual,
)
from reference.records import partition_records, split_records

LOSSES = [SquaredLoss(), BiweightLoss(c=2.0), LogisticLoss(), RegularizedLogisticLoss(lam=0.3)]


@pytest.mark.parametrize("loss", LOSSES, ids=lambda l: l.name)
def test_gradient_matches_central_differences(loss):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(7, 4))
    y = np.sign(rng.normal(size=7)) if "logistic" in loss.name else rng.normal(size=7)
    w = rng.normal(size=4) * 0.3
    G = loss.gradient(w, X, y)
    h = 1e-6
    for j in range(4):
        e = np.zeros(4)
        e[j] = h
        fd = (loss.value(w + e, X, y) - loss.value(w - e, X, y)) / (2 * h)
        np.testing.assert_allclose(G[:, j], fd, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("loss", LOSSES, ids=lambda l: l.name)
def test_gradient_batch_equals_rowwise(loss):
    rng = np.random.default_rng(2)
    X, y, W = rng.normal(size=(5, 3)), np.sign(rng.normal(size=5)), rng.normal(size=(4, 3))
    B = loss.gradient_batch(W, X, y)
    for p in range(4):
        np.testing.assert_allclose(B[p], loss.gradient(W[p], X, y), rtol=1e-13, atol=1e-15)


def test_biweight_values():
    # psi(r) = c^2/6 (1 - (1 - (r/c)^2)^3) inside, c^2/6 outside ([002 Thm. 3] footnote); hand values.
    loss = BiweightLoss(c=2.0)
    X = np.array([[1.0], [1.0], [1.0]])
    y = np.array([0.0, -1.0, -5.0])
    v = loss.value(np.array([0.0]), X, y)
    np.testing.assert_allclose(v, [0.0, 4 / 6 * (1 - (1 - 0.25) ** 3), 4 / 6])
    g = loss.gradient(np.array([0.0]), X, y)[:, 0]
    np.testing.assert_allclose(g, [0.0, 1.0 * (1 - 0.25) ** 2, 0.0])


finite = st.floats(min_value=-1.7e308, max_value=1.7e308, allow_nan=False, allow_infinity=False)


@given(st.lists(finite, min_size=3, max_size=3), st.lists(st.floats(-1, 1), min_size=2, max_size=2))
def test_no_nan_on_extreme_records(rec, w):
    X = np.array([rec[:2]])
    w = np.array(w)
    for loss in LOSSES:
        y = np.array([np.sign(rec[2])]) if "logistic" in loss.name else np.array([rec[2]])
        g = loss.gradient(w, X, y)
        v = loss.value(w, X, y)
        assert not np.any(np.isnan(g)) and not np.any(np.isnan(v))
        if loss.name in ("biweight", "logistic", "logistic_l2"):
            assert np.all(np.isfinite(g))  # bounded psi' / sigmoid times a finite x


def test_zero_feature_times_overflowed_residual_is_zero():
    X = np.array([[0.0, 1.7e308]])
    g = SquaredLoss().gradient(np.array([1.0, 1.0]), X, np.array([-1.7e308]))
    assert g[0, 0] == 0.0 and np.isinf(g[0, 1])


def test_logistic_label_zero_gives_zero_gradient():
    g = LogisticLoss().gradient(np.array([1.0]), np.array([[1e308]]), np.array([0.0]))
    assert g[0, 0] == 0.0


def test_bad_input():
    with pytest.raises(ValueError, match="loss"):
        get_loss("hinge")
    with pytest.raises(ValueError, match="c"):
        BiweightLoss(c=0.0)
    with pytest.raises(ValueError, match="lam"):
        RegularizedLogisticLoss(lam=-1.0)
    with pytest.raises(ValueError, match="w"):
        SquaredLoss().gradient(np.zeros(3), np.zeros((2, 2)), np.zeros(2))
    with pytest.raises(ValueError, match="data"):
        split_records(np.zeros((3, 1)))
    with pytest.raises(ValueError, match="finite"):
        split_records(np.array([[1.0, np.nan]]))
    with pytest.raises(ValueError, match="d \\+ 1 = 4 columns"):
        split_records(np.zeros((3, 3)), d=3)
    with pytest.raises(ValueError, match="loss"):
        get_loss(["squared"])
    with pytest.raises(ValueError, match="W"):
        SquaredLoss().gradient_batch(np.zeros((2, 3)), np.zeros((2, 2)), np.zeros(2))
    with pytest.raises(ValueError, match="X and y"):
        LogisticLoss().value(np.zeros(2), np.zeros((2, 2)), np.zeros(3))
    with pytest.raises(TypeError, match="parts"):
        partition_records(np.zeros((4, 2)), 2.0)


def test_get_loss_names():
    assert tuple(get_loss(name).name for name in LOSS_NAMES) == LOSS_NAMES
    loss = BiweightLoss(c=3.0)
    assert get_loss(loss) is loss


def test_split_and_partition_records():
    data = np.arange(15.0).reshape(5, 3)
    X, y = split_records(data, d=2)
    np.testing.assert_array_equal(X, data[:, :2])
    np.testing.assert_array_equal(y, data[:, 2])
    chunks = partition_records(data, 2)
    assert len(chunks) == 2 and all(c.shape == (2, 3) for c in chunks)
    np.testing.assert_array_equal(np.concatenate(chunks), data[:4])  # the remainder row is dropped


def test_glm_loss_is_the_shared_elementwise_loss():
    # 004's glm_loss and the losses package share one formula per family, bit for bit on any CPU: the same
    # product w @ x.T on the same operands (one BLAS call, whichever kernel) and the same element-wise function
    rng = np.random.default_rng(3)
    z = rng.standard_t(1.5, size=(30, 4)) * 1e100
    z[:, -1] = np.sign(z[:, -1])
    W = rng.normal(size=(3, 3))
    m = W @ z[:, :-1].T
    with np.errstate(over="ignore"):
        assert glm_loss(W, z, "squared").tobytes() == squared_of_residual(m - z[:, -1]).tobytes()
    assert glm_loss(W, z, "logistic").tobytes() == logistic_of_margin(z[:, -1] * m).tobytes()
    X, y = z[:1, :-1] / 1e100, z[:1, -1]
    # one record, two routes to the margin m = -9.5: x.w (a BLAS dot, whose order and FMA the CPU chooses)
    # and ((x/S).w) S, each dot within gamma_3 of sum |x_i w_i| = |m| (the three products have one sign), the
    # scaling 2u more: 8u |m|.  logaddexp(0, -m) = -m + log1p(e^m) (the log1p part 7e-5, its function
    # error negligible) passes that on and rounds once on each side: 10u relative in all
    np.testing.assert_allclose(
        glm_loss(W[0], z[:1] / [1e100, 1e100, 1e100, 1], "logistic"),
        LogisticLoss().value(W[0], X, y),
        rtol=10 * 2.0**-53,
    )


class _Absolute(Loss):
    """A user-defined loss without a vectorised gradient_batch: |<w, x> - y|."""

    name = "absolute"

    def value(self, w, X, y):
        w, X, y = self._check(w, X, y)
        return np.abs(X @ w - y)

    def gradient(self, w, X, y):
        w, X, y = self._check(w, X, y)
        return np.sign(X @ w - y)[:, None] * X


def test_fallback_gradient_batch_for_user_losses():
    rng = np.random.default_rng(4)
    X, y, W = rng.normal(size=(5, 2)), rng.normal(size=5), rng.normal(size=(3, 2))
    B = _Absolute().gradient_batch(W, X, y)
    assert B.shape == (3, 5, 2)
    np.testing.assert_array_equal(B[1], _Absolute().gradient(W[1], X, y))
    assert _Absolute().empirical_risk(W[0], X, y) == pytest.approx(np.mean(np.abs(X @ W[0] - y)))
