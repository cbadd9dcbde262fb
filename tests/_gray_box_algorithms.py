"""Small algorithms built from the recorded primitives, each correct and with its mutants, for the gray-box tests.

Every function is ``algorithm(data, rng)``; the mutants differ from the correct version in one place, named in
their docstring.  ``EPSILON`` is the claim of all of them (with ``DELTA`` for the Gaussian loop).
"""

from __future__ import annotations

import numpy as np

from reference.mechanisms import exponential_sample, gaussian_mechanism, gaussian_sigma, laplace_mechanism
from reference.mechanisms.recorder import record_call

EPSILON = 1.0
DELTA = 1e-5
STEPS = 5
CANDIDATES = 4


# --------------------------------------------------------------------------- a noisy mean (Laplace)


def noisy_mean(data, rng):
    """Mean of records clipped to [0, 1], Laplace noise of scale (1/n)/epsilon: epsilon-DP (replace-one)."""
    clipped = np.clip(np.asarray(data, dtype=np.float64), 0.0, 1.0)
    return laplace_mechanism(clipped.mean(), sensitivity=1.0 / clipped.size, epsilon=EPSILON, rng=rng)


def noisy_mean_half_noise(data, rng):
    """Mutant: noise scale x0.5 (the Laplace mechanism called with twice the budget)."""
    clipped = np.clip(np.asarray(data, dtype=np.float64), 0.0, 1.0)
    return laplace_mechanism(clipped.mean(), sensitivity=1.0 / clipped.size, epsilon=2.0 * EPSILON, rng=rng)


def noisy_mean_half_sensitivity(data, rng):
    """Mutant: declared sensitivity x0.5 (measured 1/n, declared 1/(2n))."""
    clipped = np.clip(np.asarray(data, dtype=np.float64), 0.0, 1.0)
    return laplace_mechanism(clipped.mean(), sensitivity=0.5 / clipped.size, epsilon=EPSILON, rng=rng)


def noisy_mean_bound_from_data(data, rng):
    """Mutant: a data-dependent public parameter, the clipping bound read from the data (max |x|)."""
    values = np.asarray(data, dtype=np.float64)
    bound = float(np.max(np.abs(values)))
    clipped = np.clip(values, -bound, bound)
    return laplace_mechanism(clipped.mean(), sensitivity=2.0 * bound / values.size, epsilon=EPSILON, rng=rng)


def noisy_mean_half_scale_draw(data, rng):
    """Mutant: the draw uses half the scale the recorded law says (a user's primitive declared by hand)."""
    clipped = np.clip(np.asarray(data, dtype=np.float64), 0.0, 1.0)
    center, scale = clipped.mean(), (1.0 / clipped.size) / EPSILON
    return record_call(
        "laplace",
        data=center,
        sensitivity=1.0 / clipped.size,
        norm="l1",
        privacy={"epsilon": EPSILON},
        law={"center": center, "scale": scale},
        public={},
        sample=lambda: center + rng.laplace(0.0, scale / 2.0),
        site="test: half-scale draw",
    )


# --------------------------------------------------------------------------- a T-step noisy-gradient loop


def _gradient(theta, data):
    clipped = np.clip(np.asarray(data, dtype=np.float64).reshape(len(data), -1), -1.0, 1.0)
    return theta - clipped.mean(axis=0), 4.0 / len(data)  # l1 change of the mean of a 2-d record in [-1, 1]^2


def gradient_loop(data, rng, *, noise=1.0, sensitivity=1.0):
    """STEPS steps of noisy gradient descent on 0.5 ||theta - x||^2, Laplace noise, epsilon / STEPS each."""
    theta = np.zeros(2)
    for _ in range(STEPS):
        grad, sens = _gradient(theta, data)
        noisy = laplace_mechanism(grad, sensitivity=sensitivity * sens, epsilon=EPSILON / STEPS / noise, rng=rng)
        theta = theta - 0.5 * noisy
    return theta


def gradient_loop_half_noise(data, rng):
    """Mutant: every step's noise scale x0.5."""
    return gradient_loop(data, rng, noise=0.5)


def gradient_loop_half_sensitivity(data, rng):
    """Mutant: every step's declared sensitivity x0.5."""
    return gradient_loop(data, rng, sensitivity=0.5)


def gaussian_loop(data, rng):
    """STEPS steps with the Gaussian mechanism, each (EPSILON/STEPS, DELTA/STEPS): (EPSILON, DELTA) by basic
    composition, well within it by the privacy loss distributions."""
    theta = np.zeros(2)
    for _ in range(STEPS):
        grad, _ = _gradient(theta, data)
        sens = 2.0 * np.sqrt(2.0) / len(data)  # l2 change of the mean of a record in [-1, 1]^2
        theta = theta - 0.5 * gaussian_mechanism(grad, sens, EPSILON / STEPS, DELTA / STEPS, rng=rng)
    return theta


_ = gaussian_sigma


# --------------------------------------------------------------------------- a selection (exponential mechanism)


def _scores(data):
    return np.clip(np.asarray(data, dtype=np.float64).reshape(len(data), CANDIDATES), 0.0, 1.0).sum(axis=0)


def selection(data, rng, *, weight_factor=0.5):
    """The candidate with the largest column sum of records in [0, 1]^K, exponential mechanism (sensitivity 1)."""
    return exponential_sample(_scores(data), EPSILON, 1.0, rng=rng, weight_factor=weight_factor)


def selection_double_weight(data, rng):
    """Mutant: per-step epsilon x2 in the selection's weights (weight factor 1 instead of 1/2)."""
    return selection(data, rng, weight_factor=1.0)


def selection_pair():
    """A worst pair of the selection: the scores tie on D; one record moves from favouring candidate 0 to favouring
    all the others, so candidate 0 loses 1 and every other gains 1 (the exponential mechanism's 2 eps case)."""
    D = np.eye(CANDIDATES)
    D_prime = D.copy()
    D_prime[0] = [0.0, 1.0, 1.0, 1.0]
    return D, D_prime


def mean_pair(n=10):
    """A worst pair of the noisy mean: one record 0 replaced by 1."""
    D = np.linspace(0.1, 0.9, n)
    D[0] = 0.0
    D_prime = D.copy()
    D_prime[0] = 1.0
    return D, D_prime


def loop_pair(n=10):
    """A worst pair of the loops: one record (-1, -1) replaced by (1, 1)."""
    D = np.tile([[0.3, -0.2]], (n, 1))
    D[0] = [-1.0, -1.0]
    D_prime = D.copy()
    D_prime[0] = [1.0, 1.0]
    return D, D_prime
