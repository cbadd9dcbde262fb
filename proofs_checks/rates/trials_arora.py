"""Trial of [004 Thm. E] (Boosting's excess risk) as a rate in ``n``: a base learner with good and stale models.

[004 Thm. E] bounds the boosted output by the base learner's ``err`` plus selection terms whose leading part,
``32 gamma~ sqrt(H~) Y/sqrt(n) + 16 Y/sqrt(n)``, decays like ``n^(-1/2)``; the selection step of the proof puts
the output within those terms of the best of the ``m`` models.  To make that step what the sweep measures,
the base learner ignores its data (it is ``0``-DP: condition 1 holds at any ``epsilon``) and draws
``w* + sqrt(e/s) u`` (``w* = 0``, ``u`` a uniform unit vector, ``s`` the features' second moment, so the
model's excess risk is exactly ``e``), with ``b_n = 2 Y / sqrt(n epsilon)`` (the printed ``sigma~`` from
``Y`` alone):

* w.p. ``1 - stale_probability`` a *good* model, ``e ~ U(0, b_n)``: the best model's excess decays like the
  theorem's leading term (no model is good w.p. ``stale_probability^m = 2.4e-4``);
* w.p. ``stale_probability`` a *stale* model, ``e`` log-uniform on ``[b_min/2, 2 b_min]``, ``b_min`` the
  value at the grid's smallest ``n``: fixed in ``n``, so only a selection whose resolution shrinks like
  ``n^(-1/2)`` rejects them as ``n`` grows.

All models lie in the ball of radius ``rho = sqrt(2 b_min / s)`` about ``w*``, so the learner is ``gamma^2``
sub-Gaussian with ``gamma = rho / sqrt(log 2)`` (condition 2: ``E exp(<w,u>^2/gamma^2) <= exp(rho^2/gamma^2)
= 2``), and ``2 b_min`` is the largest excess risk any output of the algorithm can reach.  The good models'
law changes with ``n`` (as the leverage design of 000 does); the theorem's constants depend on ``gamma``,
``H~``, ``Y`` only, the same at every ``n``.

Only the validation chunk ``S_{m+1}`` is sampled: the learner ignores its chunks, so rows of zeros stand in
for them (the output's law is the same; sampling them would cost 13 times more and change nothing).

Broken modes (``BoostingRateSetup.broken``): ``"uniform-selection"`` (the index ``i*`` drawn uniformly,
ignoring the validation chunk), ``"fixed-noise"`` (the Laplace scale of ``n_min`` at every ``n``: noise that
does not shrink), ``"scale"`` (the Laplace scale times ``scale_factor``: a constant factor).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from reference.arora.data import make_problem, sample_records
from reference.arora.model_selection import boosting, boosting_laplace_scale, boosting_n0, boosting_sigma_tilde

__all__ = [
    "BROKEN_MODES",
    "BoostingRateSetup",
    "GoodStaleLearner",
    "boosting_design",
    "theorem_e_explicit_terms",
    "trial_boosting_excess",
]

#: ``BoostingRateSetup.broken``: the stated algorithm (``None``) and the mutants.
BROKEN_MODES = (None, "uniform-selection", "fixed-noise", "scale")


@dataclass(frozen=True)
class BoostingRateSetup:
    """Parameters of the Boosting sweep (frozen: picklable and hashable).

    Parameters
    ----------
    noise_bound : float
        Truncation of the Student-t(2.5) label noise; with ``w* = 0`` it is the label bound ``Y``.  Large, so
        that ``n_0`` of the theorem (``~ gamma^2 / Y^2``) lies below the grid.
    n_min : int
        The grid's smallest ``n``: the stale models and the ``"fixed-noise"`` mutant's scale are set there.
    stale_low, stale_high : float
        The stale models' excess is log-uniform on ``[stale_low b_min, stale_high b_min]``.
    stale_probability : float
        Probability of a stale model.
    m : int
        Number of models (``m + 1`` chunks; the theorem's ``err(n / (4 log(4/beta)), ...)`` suggests
        ``4 log(4/beta) = 11.98`` at ``beta = 0.2``; ``m = 12`` is within the O~).
    epsilon, delta : float
        Privacy parameters of Boosting.
    beta : float
        Failure probability at which ``n_0`` is computed: ``0.2`` less the probability that no model is good,
        so that the 0.8 quantile is covered.
    broken : str or None
        ``None`` (the stated algorithm) or one of ``"uniform-selection"``, ``"fixed-noise"``, ``"scale"``.
    scale_factor : float
        Factor on the Laplace scale of the ``"scale"`` mode.

    Raises
    ------
    ValueError
        If ``broken`` is not one of :data:`BROKEN_MODES`.
    """

    noise_bound: float = 4000.0
    n_min: int = 260
    stale_low: float = 0.5
    stale_high: float = 2.0
    stale_probability: float = 0.5
    m: int = 12
    epsilon: float = 1.0
    delta: float = 1e-5
    beta: float = 0.2 - 0.5**12
    broken: str | None = None
    scale_factor: float = 1.0

    def __post_init__(self):
        if self.broken not in BROKEN_MODES:
            raise ValueError(f"broken must be one of {BROKEN_MODES}, got {self.broken!r}")


class GoodStaleLearner:
    """Data-independent base learner: good models (excess ``U(0, good_scale)``) and stale ones (fixed range).

    Parameters
    ----------
    second_moment : float
        ``s`` with ``E[x x^T] = s I``: a model at distance ``r`` from ``w* = 0`` has excess ``s r^2``.
    y_bound : float
        The label bound ``Y`` (read by Boosting's callers).
    good_scale : float
        Upper end of the good models' excess.
    stale_range : tuple of float
        ``(low, high)``: the stale models' excess is log-uniform on it.
    stale_probability : float
        Probability of a stale model.

    Examples
    --------
    >>> lrn = GoodStaleLearner(0.5, 1.0, 0.1, (1.0, 2.0), 0.5)
    >>> w = lrn.fit(np.zeros((3, 3)), 1.0, 1.0, 1e-5, 1000, np.random.default_rng(0))
    >>> e = 0.5 * np.sum(w * w, axis=1)
    >>> w.shape, bool(np.all((e <= 0.1) | ((e >= 1.0 - 1e-12) & (e <= 2.0 + 1e-12))))
    ((1000, 2), True)
    """

    loss = "squared"

    def __init__(self, second_moment, y_bound, good_scale, stale_range, stale_probability):
        self.second_moment = float(second_moment)
        self.y_bound = float(y_bound)
        self.good_scale = float(good_scale)
        self.stale_range = (float(stale_range[0]), float(stale_range[1]))
        self.stale_probability = float(stale_probability)

    def fit(self, data, B, epsilon, delta, size, rng=None):
        """``size`` draws, shape ``(size, d)``; the data only give ``d`` (the learner ignores them)."""
        gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        k = 1 if size is None else int(size)
        d = np.asarray(data).shape[1] - 1
        lo, hi = self.stale_range
        stale = gen.random(k) < self.stale_probability
        excess = np.where(stale, lo * (hi / lo) ** gen.random(k), self.good_scale * gen.random(k))
        u = gen.standard_normal((k, d))
        u /= np.linalg.norm(u, axis=1, keepdims=True)
        return u * np.sqrt(excess / self.second_moment)[:, None]


def theorem_e_explicit_terms(n, epsilon, loss_max, gamma, smoothness, y_bound):
    """[004 Thm. E]'s terms besides ``err``, with the O~ constant 1.

    ``2 Delta/(n eps) + 2 Delta/n + 32 gamma sqrt(H) Y/sqrt(n) + 16 Y/sqrt(n) + 128 H gamma^2/n`` with
    ``Delta = loss_max`` (the largest loss of a model on the domain; the theorem's ``Delta'`` taken equal) and
    ``gamma~ = gamma``, ``H~ = H``.

    Parameters
    ----------
    n : int
        Sample size.
    epsilon : float
        Privacy parameter.
    loss_max, gamma, smoothness, y_bound : float
        ``Delta``, the sub-Gaussian constant, ``H`` and the label bound ``Y``.

    Returns
    -------
    float

    References
    ----------
    .. [1] [004 Thm. E].

    Examples
    --------
    >>> round(theorem_e_explicit_terms(100, 1.0, 1.0, 0.0, 1.0, 1.0), 12)
    1.64
    """
    return (
        2 * loss_max / (n * epsilon)
        + 2 * loss_max / n
        + 32 * gamma * math.sqrt(smoothness) * y_bound / math.sqrt(n)
        + 16 * y_bound / math.sqrt(n)
        + 128 * smoothness * gamma**2 / n
    )


def boosting_design(n, setup):
    """The problem, learner and constants of the sweep at sample size ``n``.

    Parameters
    ----------
    n : int
        Sample size.
    setup : BoostingRateSetup

    Returns
    -------
    dict
        ``problem``, ``learner``, ``sigma_tilde`` (printed, at ``n``), ``sigma_tilde_used`` (what the mode
        uses), ``laplace_scale``, ``good_scale`` ``b_n``, ``largest_excess`` (``stale_high b_min``), ``gamma``,
        ``n0`` and ``explicit_terms`` (the theorem's terms besides ``err``, O~ constant 1, ``Delta =
        (rho X + Y)^2`` the largest loss of a model on the domain).

    References
    ----------
    .. [1] [004 Thm. E] (``sigma~``, ``n_0``, the explicit terms).

    Examples
    --------
    >>> d = boosting_design(260, BoostingRateSetup())
    >>> round(d["largest_excess"], 1), d["n0"] < 260, d["explicit_terms"] > d["largest_excess"]
    (992.3, True, True)
    """
    p = make_problem("squared", (0.0, 0.0), noise_bound=setup.noise_bound)
    s, Y, H = p.second_moment, p.y_bound, p.smoothness
    b_min = 2.0 * Y / math.sqrt(setup.n_min * setup.epsilon)
    b_n = 2.0 * Y / math.sqrt(n * setup.epsilon)
    largest = setup.stale_high * b_min
    rho = math.sqrt(largest / s)
    gamma = rho / math.sqrt(math.log(2.0))
    st = boosting_sigma_tilde(n, setup.epsilon, Y, H, gamma, p.x_bound)
    used = st
    if setup.broken == "fixed-noise":
        used = boosting_sigma_tilde(setup.n_min, setup.epsilon, Y, H, gamma, p.x_bound)
    elif setup.broken == "scale":
        used = st * setup.scale_factor
    loss_max = (rho * p.x_bound + Y) ** 2
    extra = theorem_e_explicit_terms(n, setup.epsilon, loss_max, gamma, H, Y)
    learner = GoodStaleLearner(s, Y, b_n, (setup.stale_low * b_min, setup.stale_high * b_min), setup.stale_probability)
    return {
        "problem": p,
        "learner": learner,
        "sigma_tilde": st,
        "sigma_tilde_used": used,
        "laplace_scale": boosting_laplace_scale(used, "printed"),
        "good_scale": b_n,
        "largest_excess": largest,
        "gamma": gamma,
        "n0": boosting_n0(gamma, setup.beta, H, Y),
        "explicit_terms": extra,
    }


def trial_boosting_excess(point, rng, setup=BoostingRateSetup()):
    """Excess risk of Boosting's output on one fresh validation chunk, ``n = point["n"]``.

    Parameters
    ----------
    point : dict
        ``{"n": int}``, a multiple of ``m + 1``.
    rng : numpy.random.Generator
        The cell's stream (data, learners, selection).
    setup : BoostingRateSetup

    Returns
    -------
    float
        ``L(w_out; D) - L(w*; D)`` (exact: squared loss, ``E[x x^T] = s I``).

    Raises
    ------
    ValueError
        If ``n`` is not a positive multiple of ``m + 1``.

    References
    ----------
    .. [1] [004 Thm. E], [004 App. E] (the box).

    Examples
    --------
    >>> e = trial_boosting_excess({"n": 260}, np.random.default_rng(1))
    >>> 0.0 <= e <= boosting_design(260, BoostingRateSetup())["largest_excess"]
    True
    """
    n = int(point["n"])
    chunks = setup.m + 1
    if n < chunks or n % chunks:
        raise ValueError(f"n must be a positive multiple of m + 1 = {chunks}, got {n}")
    des = boosting_design(n, setup)
    p = des["problem"]
    size = n // chunks
    z = np.zeros((n, p.dim + 1))
    z[setup.m * size :] = sample_records(p, size, rng)  # S_{m+1}; the learner never reads the other chunks
    w, det = boosting(
        z,
        des["learner"],
        1.0,
        setup.m,
        setup.epsilon,
        setup.delta,
        sigma_tilde=des["sigma_tilde_used"],
        variant="printed",
        rng=rng,
        return_details=True,
    )
    if setup.broken == "uniform-selection":
        w = det["models"][0, int(rng.integers(setup.m))]
    return float(p.excess_risk(w)[0])
