"""Guaranteed brackets of the law of Boosting's output [004 App. E] on two datasets (:func:`boosting_law_bounds`)."""

from __future__ import annotations

import math

import numpy as np

from reference.validation import check_delta, check_epsilon, check_integer, check_positive

from .boosting_laws import laplace_cdf

__all__ = ["boosting_law_bounds"]


def boosting_law_bounds(
    learner,
    D,
    Dp,
    epsilon,
    delta=1e-5,
    *,
    scale,
    m=4,
    B=2.0,
    cells=3000,
    steps_per_scale=64,
    reach=12.0,
    lap_reach=40.0,
):
    """Guaranteed brackets of the law of Boosting's output ``w_{i*}`` [004 App. E] on two datasets, cell by cell.

    Setting (checked): the ``m`` training chunks of ``D`` and ``Dp`` are one and the same chunk, so the models
    are i.i.d. ``w_hat + N(0, s^2 I)`` (``learner`` is an :class:`~reference.arora.learners.OutputPerturbation`
    run at ``(epsilon/2, delta)`` [004 App. E step 2]), and every validation feature lies on the first axis,
    so the score of a model depends on its first coordinate ``w`` only, through the quadratic
    ``u(w) = -mean_j (a_j w - y_j)^2``.  The other coordinates of the selected model are then
    ``w_hat_rest + N(0, s^2 I)`` on both datasets, independent of ``w``: the privacy profile of the release is
    that of ``w``.  Report-noisy-max with Laplace scale ``scale`` among i.i.d. candidates gives ``w`` the density
    ``m phi(w) G(u(w))`` with ``G(v) = E F(v + Lambda)^(m-1)`` and ``F(t) = P(u(W) + Lambda < t)``.

    Every step is bracketed, not approximated: cells of the ``w`` grid (``cells`` cells over
    ``w_hat +- reach s``, split at the mode of ``phi`` and of each ``u``) carry their exact Gaussian masses and
    ``u`` is monotone on each, so the Laplace CDF at ``t - u`` is bracketed by its values at the cell's ends;
    ``F``, tabulated on a lattice of step ``h = scale / steps_per_scale``, is increasing, so ``G``'s Laplace
    average over cells of the same lattice (exact Laplace masses, tails beyond ``lap_reach`` scales counted as
    0 or 1) is bracketed by ``F``'s brackets at the cells' ends, and ``G o u`` on a ``w`` cell by ``G``'s
    brackets at the lattice points around the cell's score range.  The mass beyond ``reach s`` (``2 Phi(-reach)``)
    is added to every upper bracket.  The brackets are therefore guaranteed up to float rounding
    (relative ~1e-13), and their width is the quadrature error, first order in the cell widths.

    Returns
    -------
    dict with ``edges`` (``cells + k`` cell edges of the first coordinate), ``p_lo``, ``p_hi``, ``q_lo``,
    ``q_hi`` (cell probabilities on ``D`` and ``Dp``; the mass outside the edges is at most ``outside``),
    ``outside``, ``w_hat`` (first coordinate), ``s`` (the models' noise), ``scale``, ``validation_size``.

    References
    ----------
    [004 App. E] Boosting steps 1-3; the report-noisy-max density as in
    :func:`~proofs_checks.claim_sets.arora.boosting_laws.boosting_output_law`.

    Examples
    --------
    >>> from reference.arora.learners import OutputPerturbation
    >>> from proofs_checks.claim_sets.arora.designed_pairs import boosting_validation_pair
    >>> D, Dp, _ = boosting_validation_pair(4)
    >>> L = OutputPerturbation("squared", 1.0, 3.0)
    >>> r = boosting_law_bounds(L, D, Dp, 1.0, scale=10.2951, cells=3000, steps_per_scale=64)
    >>> bool((r["p_lo"] <= r["p_hi"]).all()), round(float(r["p_lo"].sum()), 2), round(float(r["p_hi"].sum()), 2)
    (True, 0.98, 1.02)
    """
    from reference.arora.learners import OutputPerturbation, regularized_erm

    if not isinstance(learner, OutputPerturbation):
        raise TypeError(f"learner must be an OutputPerturbation, got {type(learner).__name__}")
    eps, dl = check_epsilon(epsilon), check_delta(delta)
    m = check_integer("m", m, minimum=2)
    b = check_positive("scale", scale)
    cells = check_integer("cells", cells, minimum=10)
    steps = check_integer("steps_per_scale", steps_per_scale, minimum=1)
    reach, lap_reach = check_positive("reach", reach), check_positive("lap_reach", lap_reach)
    D, Dp, c = _checked_pair(D, Dp, m)
    s = learner.sigma(B, c, eps / 2, dl)
    mu = float(regularized_erm(D[:c], learner.loss, B, learner._lam(B, c, eps / 2))[0])
    quads = [_validation_quadratic(data[m * c : (m + 1) * c]) for data in (D, Dp)]
    edges, P, outside = _gaussian_cells(mu, s, reach, cells, [A1 / A2 for A2, A1, _ in quads if A2 > 0])
    lattice = _LaplaceLattice.of(b, steps, lap_reach)
    us = []
    for A2, A1, A0 in quads:
        ue = -(A2 * edges**2 - 2 * A1 * edges + A0)
        us.append((np.minimum(ue[:-1], ue[1:]), np.maximum(ue[:-1], ue[1:])))
    (p_lo, p_hi), (q_lo, q_hi) = (lattice.bracket(umin, umax, us, P, outside, m) for umin, umax in us)
    return {
        "edges": edges,
        "p_lo": p_lo,
        "p_hi": p_hi,
        "q_lo": q_lo,
        "q_hi": q_hi,
        "outside": m * outside,
        "w_hat": mu,
        "s": s,
        "scale": b,
        "validation_size": c,
    }


def _checked_pair(D, Dp, m):
    """``(D, Dp, c)`` as float arrays with ``c`` records per chunk; ValueError unless the ``m`` training chunks of
    both are the first chunk of ``D`` and every validation feature lies on the first axis."""
    D, Dp = np.asarray(D, dtype=np.float64), np.asarray(Dp, dtype=np.float64)
    if D.ndim != 2 or D.shape != Dp.shape or D.shape[1] < 2:
        raise ValueError(f"D and Dp must be (n, d + 1) arrays of one shape, got {D.shape} and {Dp.shape}")
    c = D.shape[0] // (m + 1)
    if c < 1:
        raise ValueError(f"Boosting with m = {m} models needs at least {m + 1} records, got n = {D.shape[0]}")
    train = D[:c]
    for data in (D, Dp):
        if not (data[: m * c].reshape(m, c, -1) == train).all():
            raise ValueError("D and Dp must have m training chunks all equal to the first")
        if np.any(data[m * c : (m + 1) * c, 1:-1] != 0):
            raise ValueError("every validation feature must lie on the first axis (x[1:] = 0)")
    return D, Dp, c


def _validation_quadratic(V):
    """``(A2, A1, A0)`` of the score ``u(w) = -(A2 w^2 - 2 A1 w + A0)`` on the validation records ``V``."""
    a, y = V[:, 0], V[:, -1]
    return float(np.mean(a * a)), float(np.mean(a * y)), float(np.mean(y * y))


def _gaussian_cells(mu, s, reach, cells, modes):
    """``(edges, P, outside)``: ``cells`` cells over ``mu +- reach s`` split at ``mu`` and at the scores' ``modes``,
    their exact ``N(mu, s^2)`` masses ``P`` and the mass ``outside`` them."""
    from scipy import special

    lo_w, hi_w = mu - reach * s, mu + reach * s
    breaks = [mu] + modes
    edges = np.union1d(np.linspace(lo_w, hi_w, cells + 1), [x for x in breaks if lo_w < x < hi_w])
    z = (edges - mu) / s
    # Gaussian cell masses without cancellation in either tail
    P = np.where(z[:-1] >= 0, special.ndtr(-z[:-1]) - special.ndtr(-z[1:]), special.ndtr(z[1:]) - special.ndtr(z[:-1]))
    return edges, P, float(2 * special.ndtr(-reach))


class _LaplaceLattice:
    """The lattice of step ``h = b / steps`` on which ``F`` and ``G`` are bracketed, with the Laplace(``b``) masses
    ``M`` of its cells ``[l_j, l_j+1]``, ``l_j = j h``, ``j = -J..J-1``, and the mass ``tail`` beyond ``J h``."""

    def __init__(self, b, h, J, M, tail):
        self.b, self.h, self.J, self.M, self.tail = b, h, J, M, tail

    @classmethod
    def of(cls, b, steps, lap_reach):
        h = b / steps
        J = int(math.ceil(lap_reach * steps))
        lj = np.arange(-J, J + 1) * h
        lap_cdf_l = laplace_cdf(lj, b)
        return cls(b, h, J, np.diff(lap_cdf_l), 0.5 * math.exp(-J * h / b))  # P(Lambda < -J h) = P(Lambda > J h)

    def bracket(self, umin, umax, us, P, outside, m):
        """``(lo, hi)`` cell probabilities of the output on the dataset whose scores on the cells span
        ``[umin, umax]`` (``us``: both datasets' spans, which set the lattice's range)."""
        from scipy import signal

        b, h, J, M, tail = self.b, self.h, self.J, self.M, self.tail
        span = (max(u[1].max() for u in us) - min(u[0].min() for u in us)) / h
        if not span <= _MAX_LATTICE:
            raise ValueError(
                f"scale={b!r} is too small for the scores' range {span * h:.6g}: the lattice would need "
                f"{span:.3g} > {_MAX_LATTICE:g} points (lower steps_per_scale or raise the scale)"
            )
        vmin = math.floor(min(u[0].min() for u in us) / h)
        vmax = math.ceil(max(u[1].max() for u in us) / h)
        t = np.arange(vmin - J, vmax + J + 2) * h  # the lattice of F
        nv = vmax - vmin + 1
        Flo = _laplace_smoothed_cdf(t, umax, P, b)
        Fhi = np.minimum(_laplace_smoothed_cdf(t, umin, P, b) + outside + _ROUNDING, 1.0)
        Flo = np.maximum(Flo - _ROUNDING, 0.0)
        # G(v_i), v_i = (vmin + i) h: sum_j M_j F(v_i + l_j .. l_j+1)^(m-1), F's index of v_i + l_j being i + j + J
        Glo = signal.fftconvolve(Flo[: nv + 2 * J - 1] ** (m - 1), M[::-1], mode="valid") - _ROUNDING
        Ghi = signal.fftconvolve(Fhi[1 : nv + 2 * J] ** (m - 1), M[::-1], mode="valid") + _ROUNDING
        Glo = np.maximum(Glo + tail * Flo[2 * J : 2 * J + nv] ** (m - 1), 0.0)
        Ghi = np.minimum(Ghi + tail * Fhi[:nv] ** (m - 1) + tail, 1.0)
        ilo = np.floor(umin / h).astype(np.int64) - vmin
        ihi = np.ceil(umax / h).astype(np.int64) - vmin
        return m * P * Glo[ilo], np.minimum(m * P * Ghi[ihi], 1.0)


#: Slack added to (subtracted from) every upper (lower) bracket of :func:`boosting_law_bounds` for float rounding
#: (sums of <= 1e6 terms in [0, 1] and FFT convolutions of them: ~1e-13 at most).
_ROUNDING = 1e-11
#: Largest lattice of :func:`boosting_law_bounds` (points over the scores' range; memory ~ 8 bytes a point x 6).
_MAX_LATTICE = 2e7


def _laplace_smoothed_cdf(t, u, P, b):
    """``sum_k P_k Lcdf_b(t - u_k)`` at every ``t`` (Laplace CDF of scale ``b``), in O((K + T) log K).

    Split at ``u_k <= t``: ``Lcdf(t - u) = 1 - e^((u - t)/b)/2`` there and ``e^((t - u)/b)/2`` beyond; the two
    exponential sums are cumulative log-sum-exps over the sorted ``u`` (no overflow: the exponents are applied
    to logs and every term returned is at most ``sum P``).
    """
    order = np.argsort(u)
    us, Ps = u[order], P[order]
    with np.errstate(divide="ignore"):
        logP = np.log(Ps)
    below = np.concatenate([[-np.inf], np.logaddexp.accumulate(logP + us / b)])  # k < i
    above = np.concatenate([np.logaddexp.accumulate((logP - us / b)[::-1])[::-1], [-np.inf]])  # k >= i
    mass = np.concatenate([[0.0], np.cumsum(Ps)])
    i = np.searchsorted(us, t, side="right")  # u_k <= t for k < i
    return mass[i] - 0.5 * np.exp(below[i] - t / b) + 0.5 * np.exp(above[i] + t / b)
