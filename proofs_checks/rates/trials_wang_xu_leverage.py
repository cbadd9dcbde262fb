"""A design of Wang & Xu (000) whose law changes with n so that the truncation bias of the proofs can lead.

Why the n-sweeps of :mod:`.trials_wang_xu` cannot show an iota that is too large: on a fixed smooth law the
truncation moves the minimiser of the truncated risk by ``O(iota^2)`` (``O(iota^(theta-1))``) and the excess risk is
quadratic in that shift.  A design whose excess risk varies by ``r_n`` over W cannot show a rate slower than
``r_n`` for any algorithm, so a design that exposes a mutant iota ``iota_m`` must itself be scaled like that
mutant's truncation term, as lower-bound constructions are scaled like the rate they prove.

The design (d = 1, ``W = [-1, 1]``, every record one of three):

* **leverage** (probability ``q``): ``x = X``, ``y = X`` (it fits ``w = 1``); its loss ``X (1 - w)`` on W;
* **anchor** (probability ``p``): ``x = 1``, ``y = -1`` (it fits ``w = -1``); its loss ``1 + w`` on W;
* **neutral** (the rest): ``x = 0``, ``y = 0``; its loss is 0 for every w.

So ``L_D(w) = lambda (1 - w) + sigma (1 + w)`` on W with ``lambda = q X``, ``sigma = p``, and with
``sigma = rho lambda``, ``rho < 1``: ``w* = 1`` and ``L_D(w) - L_D(w*) = (lambda - sigma)(1 - w)`` exactly.
The moment of Assumption 1 / 3 is ``E|x|^theta = q X^theta + p <= K + 1``, so ``tau = (K + 1)^(1/theta)`` (fixed
in n) with ``q = K / X^theta``.  The scale follows a probe truncation level ``iota_p(n) = iota(n) (x / x_ref)^s``
(``iota`` the theorem's, ``x = n eps / log n``, ``x_ref`` its value at ``n = 100, eps = 1``): ``X = t / (2
iota_p)``, so an algorithm truncating at ``iota_p`` sees the leverage residual at ``w = -1`` at ``iota_p X 2 = t``.

The truncated risk ``T(w) = (q psi(iota X (1 - w)) + p psi(iota (1 + w))) / iota`` is concave in w (psi is
concave on ``[0, inf)``: [000 eq. (6)], [000 eq. (16)]), so its minimiser over W is an end point, and
``T(-1) < T(1)`` exactly when ``psi(u) / u < rho psi(2 iota) / (2 iota)`` with ``u = 2 iota X`` (the leverage
records truncated away: the truncation bias of the proofs).  At ``iota = iota_p``, ``u = t``: with ``t = 1.5``,
``rho = 0.5``, ``psi(1.5) / 1.5 = log 2 / 1.5 = 0.462 < 0.5 psi(2 iota_p)/(2 iota_p)`` (which tends to 0.5) the
probe level prefers ``w = -1``, whose excess ``2 (lambda - sigma) = lambda`` decays like ``iota_p``, i.e. like
``x^(-1/4)`` for Theorem 1 (``s = 1/4``; slower than the stated ``x^(-1/2)``).  At the theorem's iota ``u = t /
m``, ``m = (x / x_ref)^s`` grows, and ``psi(u)/u -> 1 > rho``: the stated algorithm prefers ``w* = 1``.

The output law is exact given the dataset: the log-weight of net point w is ``-(k eps / log theta) sum_i
psi(iota |y_i - x_i w|)``, and with three distinct records the sum is ``n_lev a(w) + n_anchor b(w)`` with ``a``,
``b`` the reference's own per-record log-weights (:func:`reference.wang_xu.l1_regression.log_weights`, one record
each); the neutral records add exactly 0.  ``tests/test_rates_wang_xu_leverage.py`` checks this against
:func:`reference.wang_xu.l1_regression.wang_xu_log_prob` on the whole dataset.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy.special import logsumexp

from reference.wang_xu.l1_regression import log_weights, theorem1_parameters, theorem2_parameters
from reference.wang_xu.nets import L2BallNet

__all__ = [
    "LeverageDesign",
    "leverage_scale",
    "leverage_log_prob",
    "leverage_trial",
    "X_REF",
    "IOTA_READINGS",
    "iota_log_factor",
]

#: ``x = n eps / log n`` at ``n = 100, eps = 1``: where the probe level equals the theorem's iota (as the iota
#: schedule mutants of :mod:`.trials_wang_xu` are anchored).
X_REF = 100.0 / math.log(100.0)


#: Readings of the logarithm inside Theorem 2's iota, ``iota = (1/tau) (d L / (n eps))^(1/theta)`` [000 eq. (18)]:
#: the theorem names its failure probability zeta and its net resolution zeta = O(1/n), and the proof's balance of
#: [000 eq. (27)] has ``log(1/(zeta eta))``.  ``"failure"``: ``L = log(1/eta)`` (zeta read as the failure
#: probability; what :func:`reference.wang_xu.l1_regression.theorem2_parameters` implements); ``"net"``: ``L = log n``
#: (zeta = 1/n, the resolution, as the proof's last line takes it); ``"sum"``: ``L = log(n / eta)`` (the logarithm
#: of (27) balanced exactly); ``"product"``: ``L = log n log(1/eta)`` (the shape of Theorem 1's iota [000 eq. (7)]
#: and of the rate (18) itself).
IOTA_READINGS = ("failure", "net", "sum", "product")


def iota_log_factor(reading, n, eta):
    """The logarithm ``L`` inside Theorem 2's iota under ``reading`` (:data:`IOTA_READINGS`).

    Parameters
    ----------
    reading : str
        One of :data:`IOTA_READINGS`.
    n : int
        Sample size (``>= 2``).
    eta : float
        Failure probability in (0, 1).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``reading`` is unknown, ``n`` is not an integer >= 2 or ``eta`` is outside (0, 1).

    References
    ----------
    [000 Thm. 2], [000 eq. (18)], [000 eq. (27)].

    Examples
    --------
    >>> round(iota_log_factor("product", 100, 0.1) / iota_log_factor("net", 100, 0.1), 12) == round(math.log(10), 12)
    True
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ValueError(f"n must be an integer >= 2, got {n!r}")
    if not 0.0 < eta < 1.0:
        raise ValueError(f"eta must be in (0, 1), got {eta!r}")
    if reading == "failure":
        return math.log(1.0 / eta)
    if reading == "net":
        return math.log(n)
    if reading == "sum":
        return math.log(n / eta)
    if reading == "product":
        return math.log(n) * math.log(1.0 / eta)
    raise ValueError(f"reading must be one of {IOTA_READINGS}, got {reading!r}")


@dataclass(frozen=True)
class LeverageDesign:
    """The leverage design and the algorithm run on it (frozen: picklable and hashable).

    algorithm : 1 or 2 (Theorem 1 with theta = 2, or Theorem 2 with ``theta``);
    variant : the exponent factor of the mechanism (``printed``, ``standard``, ``calibrated``);
    moment : K, the leverage records' share of ``E|x|^theta`` (``tau = (K + 1)^(1/theta)``);
    probe_ratio : t, the scaled leverage residual ``2 iota_p X`` at ``w = -1``;
    slope_ratio : rho = sigma / lambda in (0, 1);
    probe_shift : s, the probe level is the theorem's iota times ``(x / x_ref)^s``;
    iota_exponent_shift : the algorithm's iota is the theorem's times ``(x / x_ref)^(-shift)`` (the mutant of the
    iota schedule, as in :class:`.trials_wang_xu.WangXuRateSetup`; ``-0.25`` is 1/4 flatter);
    iota_factor : and times this constant (the theorems' own O-constant);
    probe_theta : Algorithm 2 only: the probe level is Theorem 2's iota evaluated at this theta instead of
    ``iota (x / x_ref)^s`` (the design built for the mutant ``iota_theta``);
    iota_theta : Algorithm 2 only, a mutant: the algorithm's iota is Theorem 2's evaluated at this theta (the
    truncation level of another theta; psi and the weights keep ``theta``);
    psi_theta : Algorithm 2 only, a mutant: the mechanism's psi and its normaliser ``log theta`` are those of this
    theta (the psi shape of another theta);
    broken : ``None`` or ``"ignore-data"`` (uniform over the net);
    eta : the quantile level is ``1 - eta``;
    iota_reading : Algorithm 2 only: the logarithm inside Theorem 2's iota (:data:`IOTA_READINGS`; the default
    ``"failure"`` is the reference's); the probe level and every mutant level follow the same reading;
    net_scale : the net's resolution is ``net_scale / n`` (the theorems take zeta = O(1/n): any fixed factor is one
    of their own choices; a power of two dividing n keeps both ends of W on the net).
    """

    algorithm: int = 1
    variant: str = "printed"
    theta: float = 2.0
    moment: float = 10.0
    probe_ratio: float = 1.5
    slope_ratio: float = 0.5
    probe_shift: float = 0.25
    iota_exponent_shift: float = 0.0
    iota_factor: float = 1.0
    probe_theta: float | None = None
    iota_theta: float | None = None
    psi_theta: float | None = None
    broken: str | None = None
    eta: float = 0.1
    iota_reading: str = "failure"
    net_scale: int = 1

    def __post_init__(self):
        if self.algorithm not in (1, 2):
            raise ValueError(f"algorithm must be 1 or 2, got {self.algorithm!r}")
        if not 0.0 < self.slope_ratio < 1.0:
            raise ValueError(f"slope_ratio must be in (0, 1), got {self.slope_ratio!r}")
        if self.broken not in (None, "ignore-data"):
            raise ValueError(f"broken must be None or 'ignore-data', got {self.broken!r}")
        if self.algorithm == 1 and (self.theta != 2.0 or {self.probe_theta, self.iota_theta, self.psi_theta} != {None}):
            raise ValueError(f"Algorithm 1 has theta = 2 and no other theta, got {self!r}")
        if isinstance(self.net_scale, bool) or not isinstance(self.net_scale, int) or self.net_scale < 1:
            raise ValueError(f"net_scale must be an integer >= 1, got {self.net_scale!r}")
        if self.iota_reading not in IOTA_READINGS or (self.algorithm == 1 and self.iota_reading != "failure"):
            raise ValueError(
                f"iota_reading must be one of {IOTA_READINGS} (Algorithm 2 only), got {self.iota_reading!r}"
            )

    @property
    def tau(self) -> float:
        """``(K + 1)^(1/theta)``, a bound on ``(E|x|^theta)^(1/theta)`` at every n (Assumption 1 / 3)."""
        return (self.moment + 1.0) ** (1.0 / self.theta)

    def theorem_iota(self, n, epsilon, theta=None):
        """The iota of [000 Thm. 1] / [000 Thm. 2] at ``(n, epsilon)`` with d = 1 (O-constant 1); ``theta`` (Algorithm
        2 only) evaluates Theorem 2's formula at another theta."""
        if self.algorithm == 1:
            return theorem1_parameters(n, 1, epsilon, self.eta, self.tau)["iota"]
        th = self.theta if theta is None else theta
        iota = theorem2_parameters(n, 1, epsilon, self.eta, self.tau, th)["iota"]
        if self.iota_reading == "failure":
            return iota
        # the reference's iota carries log(1/eta); another reading swaps that logarithm inside the 1/theta power
        return iota * (iota_log_factor(self.iota_reading, n, self.eta) / math.log(1.0 / self.eta)) ** (1.0 / th)


def leverage_scale(design: LeverageDesign, n, epsilon):
    """The law at ``(n, epsilon)`` and the iota the algorithm uses.

    Parameters
    ----------
    design : LeverageDesign
    n : int
    epsilon : float

    Returns
    -------
    dict
        ``X``, ``q`` (leverage probability), ``p`` (anchor probability), ``lam`` (``q X``), ``sigma``, ``iota``
        (the algorithm's), ``iota_theorem``, ``iota_probe``, ``largest_excess`` (``2 (lam - sigma)``, at w = -1).

    Raises
    ------
    ValueError
        If the probabilities leave [0, 1] (the design needs n large enough: at ``n = 10`` the anchor alone would
        need probability 0.98).

    References
    ----------
    [000 Thm. 1], [000 Thm. 2], [000 Assumption 1], [000 Assumption 3].

    Examples
    --------
    >>> s = leverage_scale(LeverageDesign(), 100, 1.0)
    >>> round(s["iota_probe"] / s["iota_theorem"], 12), round(2 * s["iota_probe"] * s["X"], 12)
    (1.0, 1.5)
    """
    ratio = n * epsilon / math.log(n) / X_REF
    iota_theorem = design.theorem_iota(n, epsilon)
    if design.probe_theta is None:
        iota_probe = iota_theorem * ratio**design.probe_shift
    else:
        iota_probe = design.theorem_iota(n, epsilon, design.probe_theta)
    iota = design.theorem_iota(n, epsilon, design.iota_theta) * ratio ** (-design.iota_exponent_shift)
    X = design.probe_ratio / (2.0 * iota_probe)
    q = design.moment / X**design.theta
    lam = q * X
    sigma = design.slope_ratio * lam
    if not (0.0 < q and q + sigma <= 1.0):
        raise ValueError(f"the design needs q + p <= 1, got q = {q!r}, p = {sigma!r} at n = {n}, eps = {epsilon}")
    return {
        "X": X,
        "q": q,
        "p": sigma,
        "lam": lam,
        "sigma": sigma,
        "iota": design.iota_factor * iota,
        "iota_theorem": iota_theorem,
        "iota_probe": iota_probe,
        "largest_excess": 2.0 * (lam - sigma),
    }


@functools.lru_cache(maxsize=32)
def _record_log_weights(design: LeverageDesign, n, epsilon):
    """Per-record log-weights over the net (leverage, anchor) and the excess risk of every net point."""
    s = leverage_scale(design, n, epsilon)
    if n % design.net_scale:
        raise ValueError(f"net_scale = {design.net_scale} must divide n = {n} (both ends of W on the net)")
    pts = L2BallNet(1.0, design.net_scale / n, 1).points()
    theta = design.theta if design.psi_theta is None else design.psi_theta
    a = log_weights(pts, [[s["X"]]], [s["X"]], epsilon, s["iota"], theta, design.variant)
    b = log_weights(pts, [[1.0]], [-1.0], epsilon, s["iota"], theta, design.variant)
    excess = (s["lam"] - s["sigma"]) * (1.0 - pts[:, 0])
    return pts, a, b, excess, np.argsort(excess, kind="stable")


def leverage_log_prob(design: LeverageDesign, n, epsilon, counts):
    """Exact log-probabilities of the output over the ``1/n``-net of W given the record counts.

    Parameters
    ----------
    design : LeverageDesign
    n, epsilon : int, float
    counts : sequence of 3 int
        Leverage, anchor and neutral records (summing to ``n``).

    Returns
    -------
    (points, log_prob, excess) : tuple of numpy.ndarray
        Net points (N, 1), their log-probabilities (N,), their excess risks (N,).

    References
    ----------
    [000 Alg. 1 step 2], [000 Alg. 2 step 2].

    Examples
    --------
    >>> pts, lp, ex = leverage_log_prob(LeverageDesign(), 3200, 1.0, (60, 300, 2840))
    >>> pts.shape, round(float(np.exp(lp).sum()), 12)
    ((6401, 1), 1.0)
    """
    lev, anchor, neutral = (int(c) for c in counts)
    if min(lev, anchor, neutral) < 0 or lev + anchor + neutral != n:
        raise ValueError(f"counts must be 3 non-negative integers summing to n = {n}, got {counts!r}")
    pts, a, b, excess, _ = _record_log_weights(design, n, float(epsilon))
    if design.broken == "ignore-data":
        return pts, np.full(pts.shape[0], -math.log(pts.shape[0])), excess
    lw = lev * a + anchor * b
    return pts, lw - logsumexp(lw), excess


def leverage_trial(point, rng, design: LeverageDesign):
    """Rate-engine trial: the exact ``1 - eta`` quantile of the output's excess risk given one dataset.

    A quantile of 0 (mass ``>= 1 - eta`` on ``w* = 1``, a net point) is recorded as the net's smallest positive
    excess risk ``(lam - sigma) net_scale / n``, so that the log-log fit is defined; the value lies below every other.

    Parameters
    ----------
    point : dict
        ``{"n": int, "epsilon": float}``.
    rng : numpy.random.Generator
    design : LeverageDesign

    Returns
    -------
    float
    """
    n, eps = int(point["n"]), float(point["epsilon"])
    s = leverage_scale(design, n, eps)
    counts = rng.multinomial(n, [s["q"], s["p"], 1.0 - s["q"] - s["p"]])
    _, lp, excess = leverage_log_prob(design, n, eps, counts)
    order = _record_log_weights(design, n, eps)[4]
    cdf = np.cumsum(np.exp(lp[order]))
    k = min(int(np.searchsorted(cdf, (1.0 - design.eta) * cdf[-1], side="left")), excess.size - 1)
    return float(max(excess[order][k], (s["lam"] - s["sigma"]) * design.net_scale / n))
