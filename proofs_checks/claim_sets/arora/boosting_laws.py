"""Laws of Boosting's output [004 App. E] on designed pairs, by quadrature, and the privacy numbers of two laws.

:func:`boosting_output_law` (equal training chunks: i.i.d. models) and :func:`boosting_split_law` (chunks of
few distinct values) give the output's cell probabilities on ``D`` and ``D'``; :func:`boosting_split_index_law`
the deterministic-model limit; :func:`law_epsilon` and :func:`law_oracle` the exact epsilon at ``delta`` of two
discrete laws and the best event's Clopper-Pearson bound.  :func:`paper_sigma_tilde` is the printed
``sigma_tilde`` of [004 Thm. E].  Guaranteed brackets of the same law are in
:mod:`~proofs_checks.claim_sets.arora.boosting_law_bounds`.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from reference.validation import check_delta, check_epsilon, check_integer

__all__ = [
    "paper_sigma_tilde",
    "boosting_output_law",
    "laplace_cells",
    "laplace_cdf",
    "law_epsilon",
    "law_oracle",
    "boosting_split_law",
    "boosting_split_index_law",
]


def paper_sigma_tilde(learner, B, m, n, epsilon, delta):
    """The printed ``sigma_tilde`` of [004 Thm. E] for Boosting on ``n`` records with ``learner`` at guess ``B``.

    ``sigma_tilde^2 = 4 (Y^2 + H gamma^2 X^2) / (n epsilon)``
    (:func:`~reference.arora.model_selection.boosting_sigma_tilde`)
    with ``gamma`` the sub-Gaussian constant of condition 2 of that theorem for the learner run at
    ``(epsilon/2, delta)`` on a chunk of ``n // (m + 1)`` records [004 App. E step 2]: output
    perturbation releases ``w + N(0, s^2 I)`` with ``||w|| <= B``, whose smallest constant is
    :func:`~reference.arora.model_selection.gaussian_output_subgaussian_constant`; noisy GD releases a point
    of the ball, sub-Gaussian with ``gamma = B / sqrt(log 2)`` (``E exp(<w, u>^2/gamma^2) <= exp(B^2/gamma^2) = 2``;
    a valid constant, perhaps not the smallest: a larger ``gamma`` only adds noise).  The theorem writes
    ``gamma~`` in ``sigma_tilde`` and ``gamma`` elsewhere; both are read as this ``gamma``.

    >>> from reference.arora.learners import OutputPerturbation
    >>> L = OutputPerturbation("squared", 1.0, 3.0)
    >>> round(paper_sigma_tilde(L, 2.0, 4, 10, 1.0, 1e-5), 4), round(paper_sigma_tilde(L, 2.0, 4, 20, 1.0, 1e-5), 4)
    (16.9325, 10.2951)
    """
    from reference.arora.learners import OutputPerturbation
    from reference.arora.model_selection import boosting_sigma_tilde, gaussian_output_subgaussian_constant

    n, m = check_integer("n", n, minimum=1), check_integer("m", m, minimum=1)
    chunk = n // (m + 1)
    if chunk < 1:
        raise ValueError(f"Boosting with m = {m} models needs at least {m + 1} records, got n = {n}")
    if isinstance(learner, OutputPerturbation):
        gamma = gaussian_output_subgaussian_constant(B, learner.sigma(B, chunk, epsilon / 2, delta))
    else:
        gamma = B / math.sqrt(math.log(2.0))
    return boosting_sigma_tilde(n, epsilon, learner.y_bound, learner.H, gamma, learner.x_bound)


def boosting_output_law(
    D,
    Dp,
    epsilon,
    delta=1e-5,
    *,
    m=4,
    B=2.0,
    x_bound=1.0,
    y_bound=3.0,
    grid=3001,
    lgrid=601,
    variant="calibrated",
    sigma_tilde=None,
    tgrid=8001,
):
    """Law of Boosting's output ``w_{i*}`` on two d = 1 datasets with equal training chunks, by quadrature.

    The ``m`` models are i.i.d. ``N(w_hat, s^2)`` (output perturbation at ``(epsilon/2, delta)`` on the same
    chunk), so the output density is ``m phi(w) pi(w)`` with ``pi(w) = int Lap_b(l) F(u(w) + l)^{m-1} dl``
    and ``F(t) = P(u(W) + Lap_b < t)``: ``u`` the validation score, ``b`` the Laplace scale
    [004 App. E] (report-noisy-max of i.i.d. candidates).  Riemann sums on ``grid`` points over ``w_hat +- 12 s``
    and ``lgrid`` points over ``+-30 b``; the outputs are the probabilities of the grid cells.

    ``variant="calibrated"`` (not the paper's): scores of losses clipped at ``Delta(B)``, the calibrated
    scale.  ``"printed"`` / ``"standard"``, the two readings of the paper's ``Lap(0, sigma_tilde)``:
    unclipped losses, scale ``sigma_tilde`` or ``sigma_tilde / sqrt 2``, ``sigma_tilde`` by default the
    paper's (:func:`paper_sigma_tilde` at ``n = len(D)``); ``F`` is then tabulated on ``tgrid`` points over
    the scores' range ``+- 31 b`` and both laws are normalised (the Laplace Riemann sum's relative
    excess ``h^2/12`` cancels in the likelihood ratios).

    Returns
    -------
    (w, p, q) : grid and cell probabilities on ``D`` and ``D'``.
    """
    from reference.arora.learners import OutputPerturbation, delta_noisy_gd, regularized_erm
    from reference.arora.model_selection import BOOSTING_VARIANTS, boosting_laplace_scale, calibrated_laplace_scale

    m = check_integer("m", m, minimum=1)
    eps = check_epsilon(epsilon)
    if variant not in BOOSTING_VARIANTS:
        raise ValueError(f"variant must be one of {BOOSTING_VARIANTS}, got {variant!r}")
    L = OutputPerturbation("squared", x_bound, y_bound)
    nc = np.shape(D)[0] // (m + 1)
    train = np.asarray(D, dtype=np.float64)[:nc]
    for data in (D, Dp):
        if not (np.shape(data)[1] == 2 and (np.asarray(data)[: m * nc].reshape(m, nc, 2) == train).all()):
            raise ValueError("D and Dp must be d = 1 datasets whose m training chunks all equal the first")
    sig = L.sigma(B, nc, eps / 2, delta)
    w_hat = float(regularized_erm(train, "squared", B, L._lam(B, nc, eps / 2))[0])
    if variant == "calibrated":
        if sigma_tilde is not None:
            raise ValueError(f"variant 'calibrated' sets its own scale; got sigma_tilde={sigma_tilde!r}")
        clip = delta_noisy_gd(B, x_bound, y_bound, L.H)
        b = calibrated_laplace_scale(clip, nc, eps)
    else:
        clip = np.inf
        if sigma_tilde is None:
            sigma_tilde = paper_sigma_tilde(L, B, m, np.shape(D)[0], eps, delta)
        b = boosting_laplace_scale(sigma_tilde, variant)
    w = np.linspace(w_hat - 12 * sig, w_hat + 12 * sig, grid)
    dw = w[1] - w[0]
    phi = np.exp(-0.5 * ((w - w_hat) / sig) ** 2) / (sig * math.sqrt(2 * math.pi)) * dw
    ell, lap = laplace_cells(b, lgrid)
    lap_cdf = functools.partial(laplace_cdf, b=b)

    out = []
    for data in (D, Dp):
        V = np.asarray(data, dtype=np.float64)[m * nc : (m + 1) * nc]
        u = -np.mean(np.minimum((w[:, None] * V[None, :, 0] - V[None, :, 1]) ** 2, clip), axis=1)
        if variant == "calibrated":
            t = np.linspace(-clip - 30 * b, 30 * b, lgrid)
            F = lap_cdf(t[:, None] - u[None, :]) @ phi
        else:  # unclipped scores span (w_hat +- 12 s)^2: tabulate F over their range, in blocks of w
            t = np.linspace(u.min() - 31 * b, u.max() + 31 * b, tgrid)
            F = sum(lap_cdf(t[:, None] - u[None, i : i + 512]) @ phi[i : i + 512] for i in range(0, grid, 512))
        Fw = np.interp(u[:, None] + ell[None, :], t, F)
        out.append(m * phi * ((Fw ** (m - 1)) @ lap))
    if variant != "calibrated":
        out = [o / o.sum() for o in out]
    return w, out[0], out[1]


def laplace_cells(b, lgrid):
    """``lgrid`` equally spaced points over ``+-30 b`` and the Laplace(``b``) density times the spacing there
    (the Riemann weights of the Boosting laws' noise integral)."""
    ell = np.linspace(-30 * b, 30 * b, lgrid)
    return ell, np.exp(-np.abs(ell) / b) / (2 * b) * (ell[1] - ell[0])


def laplace_cdf(v, b):
    """CDF of Laplace(0, ``b``) at ``v``, without overflow on either side."""
    return np.where(v < 0, 0.5 * np.exp(np.minimum(v, 0) / b), 1 - 0.5 * np.exp(-np.maximum(v, 0) / b))


def law_epsilon(p, q, delta):
    """Epsilon at ``delta`` of two discrete laws (both directions): the root of ``sum (p - e^eps q)_+ = delta``.

    :func:`proofs_checks.audit.exact.privacy_profile` on the laws' logarithms (exact over the likelihood-ratio
    level sets, cells of probability 0 included).
    """
    from proofs_checks.audit.exact import privacy_profile

    with np.errstate(divide="ignore"):
        logp, logq = np.log(np.asarray(p, dtype=np.float64)), np.log(np.asarray(q, dtype=np.float64))
    return privacy_profile(logp, logq, delta)[0]


def law_oracle(p, q, samples, confidence, delta):
    """Clopper-Pearson bound of the best event (likelihood-ratio level sets) of two discrete laws,
    ``samples/2`` calls per dataset, expected counts (as :func:`~proofs_checks.audit.calibration.oracle_bound`)."""
    from proofs_checks.audit.statistical import _cp_eps_vector

    n = check_integer("samples", samples, minimum=2) // 2
    best = 0.0
    for P, Q in ((p, q), (q, p)):
        order = np.argsort(-(np.log(P + 1e-300) - np.log(Q + 1e-300)))
        cp = _cp_eps_vector(n * np.cumsum(P[order]), n, n * np.cumsum(Q[order]), n, delta, (1 - confidence) / 2)
        best = max(best, float(np.max(cp)))
    return best


def boosting_split_law(
    D, Dp, epsilon, delta=1e-5, *, m=4, B=2.0, x_bound=1.0, y_bound=3.0, grid=8001, lgrid=2001, tgrid=16001
):
    """Law of the calibrated Boosting's output ``w_{i*}`` [004 App. E] on two d = 1 datasets whose training chunks
    take few distinct values (e.g. :func:`~.designed_pairs.boosting_split_pair`), by quadrature.

    The models are independent, ``N(w_hat_g, s^2)`` with ``w_hat_g`` the constrained minimiser of their chunk
    (output perturbation at ``(epsilon/2, delta)``), grouped by equal chunks (group ``g`` of ``n_g`` models).
    Report-noisy-max with Laplace scale ``b = 2 Delta/(|S_(m+1)| epsilon)`` on the clipped scores ``u`` gives the
    output the density ``sum_g n_g phi_g(w) int Lap_b(l) prod_h F_h(u(w) + l)^(n_h - [h = g]) dl`` with
    ``F_h(t) = P(u(W_h) + Lap_b < t)``, ``W_h ~ N(w_hat_h, s^2)`` (as :func:`boosting_output_law`, which is the
    one-group case).  Riemann sums on ``grid`` points over ``[min w_hat - 12 s, max w_hat + 12 s]``, ``lgrid``
    over ``+-30 b`` and ``tgrid`` for ``F``; the outputs are cell probabilities (their sums are 1 within
    ~1e-3; the test compares two resolutions and runs of the implementation).

    Returns
    -------
    (w, p, q, info) : grid, cell probabilities on ``D`` and ``D'``, ``info`` with ``s``, ``b``, ``w_hat``.
    """
    from reference.arora.learners import OutputPerturbation, delta_noisy_gd, regularized_erm
    from reference.arora.model_selection import calibrated_laplace_scale

    m = check_integer("m", m, minimum=2)
    eps, dl = check_epsilon(epsilon), check_delta(delta)
    D, Dp = np.asarray(D, dtype=np.float64), np.asarray(Dp, dtype=np.float64)
    if D.ndim != 2 or D.shape != Dp.shape or D.shape[1] != 2:
        raise ValueError(f"D and Dp must be d = 1 datasets of one shape, got {D.shape} and {Dp.shape}")
    c = D.shape[0] // (m + 1)
    if c < 1 or not (D[: m * c] == Dp[: m * c]).all():
        raise ValueError("D and Dp must share their m training chunks (the replaced record is a validation record)")
    L = OutputPerturbation("squared", x_bound, y_bound)
    s = L.sigma(B, c, eps / 2, dl)
    lam = L._lam(B, c, eps / 2)
    groups = {}
    for i in range(m):
        mu = float(regularized_erm(D[i * c : (i + 1) * c], "squared", B, lam)[0])
        groups[mu] = groups.get(mu, 0) + 1
    clip = delta_noisy_gd(B, x_bound, y_bound, L.H)
    b = calibrated_laplace_scale(clip, c, eps)
    w = np.linspace(min(groups) - 12 * s, max(groups) + 12 * s, grid)
    dw = w[1] - w[0]
    phis = {mu: np.exp(-0.5 * ((w - mu) / s) ** 2) / (s * math.sqrt(2 * math.pi)) * dw for mu in groups}
    ell, lap = laplace_cells(b, lgrid)
    lap_cdf = functools.partial(laplace_cdf, b=b)

    out = []
    for data in (D, Dp):
        V = data[m * c : (m + 1) * c]
        V = V[(V != 0).any(axis=1)]  # (0, 0) records add no loss to any model
        u = -np.minimum((w[:, None] * V[None, :, 0] - V[None, :, 1]) ** 2, clip).sum(axis=1) / c
        t = np.linspace(-clip - 31 * b, 31 * b, tgrid)
        Fw = {
            mu: np.interp(
                u[:, None] + ell[None, :],
                t,
                sum(lap_cdf(t[:, None] - u[None, i : i + 512]) @ phi[i : i + 512] for i in range(0, grid, 512)),
            )
            for mu, phi in phis.items()
        }
        dens = np.zeros_like(w)
        for g, ng in groups.items():
            prod = np.ones((grid, lgrid))
            for h, nh in groups.items():
                prod *= Fw[h] ** (nh - (h == g))
            dens += ng * phis[g] * (prod @ lap)
        out.append(dens)
    return w, out[0], out[1], {"s": s, "b": b, "w_hat": sorted(groups)}


def boosting_split_index_law(gap, shift, lone=1, m=4):
    """``P(the lone group wins)`` of report-noisy-max (Laplace scale 1) among ``m`` deterministic scores: ``lone``
    of them ``gap`` scales above the others, by adaptive quadrature (scipy ``quad``, relative error ~1e-10).

    The deterministic-model limit (chunk -> infinity) of :func:`~.designed_pairs.boosting_split_pair`: ``gap`` on
    ``D`` and ``gap - shift`` on ``D'``, ``shift = 8 B Y / (chunk b)``.  Returns ``P(lone wins)`` at ``gap``.

    >>> round(boosting_split_index_law(0.0, 0.0, lone=1, m=2), 6)
    0.5
    """
    from scipy import integrate

    lone, m = check_integer("lone", lone, minimum=1), check_integer("m", m, minimum=2)
    if lone >= m:
        raise ValueError(f"lone must be below m = {m}, got {lone}")
    g = float(gap)
    if not math.isfinite(g):
        raise ValueError(f"gap must be finite, got {gap!r}")

    def F(v):
        return 0.5 * math.exp(v) if v < 0 else 1 - 0.5 * math.exp(-v)

    def dens(t):  # d/dt P(max of the lone group < t) times P(max of the others < t)
        v = t - g
        return lone * F(v) ** (lone - 1) * 0.5 * math.exp(-abs(v)) * F(t) ** (m - lone)

    return float(integrate.quad(dens, g - 60, g + 60, points=[g, 0.0] if abs(g) < 60 else [g], limit=500)[0])
