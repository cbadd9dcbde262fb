"""Designed neighbouring pairs for the audits of 004's algorithms, and the closed forms of their reach.

The black-box patterns of :func:`proofs_checks.audit.neighbours.black_box_pairs` hardly move a GLM
learner: a record against its negation ``(x, y) / (-x, -y)`` leaves every squared loss
``(<w, x> - y)^2`` unchanged, and ``x = 0`` records carry no information at all.  The pair built here
flips the label of one record at the edge of the domain, ``(X e_1, Y)`` against ``(X e_1, -Y)``, the
other records zero: it moves the gradient of the average loss by ``4 X Y / n`` at every ``w``
(``3/4`` of the ``2 G / n`` of the sensitivity bounds at ``B = X = 1``, ``Y = 3``), so the output of
output perturbation moves by ``12 / (2 + n lam)`` exactly (closed form below) and each noisy-GD step's
gradient by ``12 / n``.  The pair is fixed before any draw (it depends on the domain only).

The reach of an audit of a Gaussian output is computed in closed form: a pair of Gaussian laws with
the same covariance and means ``mu`` noise units apart is, by the Neyman-Pearson lemma, the pair
``N(0, 1) / N(mu, 1)`` on the projection onto the mean shift; its exact epsilon at ``delta`` is Balle
and Wang's curve, and the best event's Clopper-Pearson bound is :func:`oracle_bound` of
:class:`~proofs_checks.audit.calibration.GaussianCount` at ``1/mu``.

References
----------
.. [BW18] B. Balle and Y.-X. Wang, "Improving the Gaussian mechanism for differential privacy", ICML 2018,
   Theorem 8 (exact delta of the Gaussian mechanism).
.. [DRS22] J. Dong, A. Roth and W. Su, "Gaussian differential privacy", JRSS-B 84 (2022), Corollary 3.3
   (adaptive composition of Gaussian mechanisms).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from reference.arora.learners import lipschitz_constant, noisy_gd_rho, noisy_gd_sigma
from reference.validation import check_delta, check_epsilon, check_integer, check_positive

__all__ = ["DESIGN_ROWS", "label_flip_pair", "boosting_flip_pair", "learner_mu_bound", "gaussian_epsilon", "gaussian_oracle",
           "calls_for_oracle", "noisy_gd_violation_pair", "noisy_gd_linear_output", "boosting_validation_pair",
           "boosting_output_law", "law_epsilon", "law_oracle", "paper_sigma_tilde", "BOOSTING_PAPER_CHUNK",
           "boosting_law_bounds", "boosting_split_pair", "boosting_split_law", "boosting_split_index_law"]

#: Records of the designed datasets (as the auditor's default datasets): 8.
DESIGN_ROWS = 8


def label_flip_pair(x_bound, y_bound, n=DESIGN_ROWS, dim=1, row=0):
    """``(D, D', description)``: row ``row`` is ``(X e_1, Y)`` in ``D`` and ``(X e_1, -Y)`` in ``D'``, others zero.

    Examples
    --------
    >>> D, Dp, _ = label_flip_pair(1.0, 3.0, n=3)
    >>> D.tolist(), Dp.tolist()
    ([[1.0, 3.0], [0.0, 0.0], [0.0, 0.0]], [[1.0, -3.0], [0.0, 0.0], [0.0, 0.0]])
    """
    X, Y = check_positive("x_bound", x_bound), check_positive("y_bound", y_bound)
    n = check_integer("n", n, minimum=1)
    dim = check_integer("dim", dim, minimum=1)
    row = check_integer("row", row, minimum=0, maximum=n - 1)
    D = np.zeros((n, dim + 1))
    D[row, 0], D[row, -1] = X, Y
    Dp = D.copy()
    Dp[row, -1] = -Y
    return D, Dp, f"row {row}: label flip of the edge record (x = {X:g} e_1, y = +-{Y:g}), other records zero"


def boosting_flip_pair(x_bound, y_bound, m):
    """``(D, D', description)`` for Boosting [004 App. E] with ``m`` models: ``2 (m + 1)`` records
    ``(X e_1, Y)`` (chunks of two), the last one (in the validation chunk ``S_{m+1}``) ``(X e_1, -Y)`` in ``D'``.

    The ``m`` models are trained on the same data, so they differ only by their noise; the flipped
    validation label reverses which of them scores best (the loss moves by ``4 X Y <w, e_1> / 2``), so
    the selected model's first coordinate moves.

    >>> D, Dp, _ = boosting_flip_pair(1.0, 3.0, 1)
    >>> D.tolist(), Dp[-1].tolist()
    ([[1.0, 3.0], [1.0, 3.0], [1.0, 3.0], [1.0, 3.0]], [1.0, -3.0])
    """
    X, Y = check_positive("x_bound", x_bound), check_positive("y_bound", y_bound)
    m = check_integer("m", m, minimum=1)
    D = np.tile([X, Y], (2 * (m + 1), 1))
    Dp = D.copy()
    Dp[-1, -1] = -Y
    return D, Dp, (f"label flip of the last validation record (x = {X:g} e_1, y = +-{Y:g}); "
                   f"all {2 * (m + 1)} records (x = {X:g} e_1, y = {Y:g}) otherwise")


def learner_mu_bound(learner, epsilon, delta):
    """Largest noise-unit shift ``mu`` any replace-one pair can give a base learner built for ``(epsilon, delta)``.

    Output perturbation: ``sigma = Delta_2 sqrt(2 log(1.25/delta)) / epsilon`` with ``Delta_2`` the
    sensitivity bound, so ``mu <= epsilon / sqrt(2 log(1.25/delta))``.  Noisy GD: ``T`` Gaussian steps
    of sensitivity ``2G/n`` and noise ``sigma = (2G/n) sqrt(T/(2 rho))`` compose to ``sqrt(2 rho)``-GDP
    ([DRS22] Cor. 3.3); the averaged, projected output is post-processing.

    >>> round(learner_mu_bound("output-perturbation", 1.0, 1e-5), 4), round(learner_mu_bound("noisy-gd", 1.0, 1e-5), 4)
    (0.2064, 0.2041)
    """
    eps, dl = check_epsilon(epsilon), check_delta(delta)
    if learner == "output-perturbation":
        return eps / math.sqrt(2.0 * math.log(1.25 / dl))
    if learner == "noisy-gd":
        return math.sqrt(2.0 * noisy_gd_rho(eps, dl))
    raise ValueError(f"learner must be 'output-perturbation' or 'noisy-gd', got {learner!r}")


def gaussian_epsilon(mu, delta):
    """Exact epsilon at ``delta`` of ``N(0, 1)`` against ``N(mu, 1)`` ([BW18] Thm. 8, inverted).

    >>> round(gaussian_epsilon(0.2064, 1e-5), 3)
    0.751
    """
    from proofs_checks.audit.calibration import GaussianCount

    return GaussianCount(1.0 / check_positive("mu", mu)).true_epsilon(check_delta(delta))


def gaussian_oracle(mu, samples, confidence, delta):
    """Clopper-Pearson bound of the best event (half-lines) at ``samples/2`` calls per law, expected counts."""
    from proofs_checks.audit.calibration import GaussianCount, oracle_bound

    return oracle_bound(GaussianCount(1.0 / check_positive("mu", mu)), samples, confidence, delta)


def calls_for_oracle(mu, epsilon, confidence, delta, start=20_000, limit=10**13):
    """Smallest power-of-two multiple of ``start`` calls whose oracle bound exceeds ``epsilon`` (None past ``limit``)."""
    n = check_integer("start", start, minimum=100)
    while n <= limit:
        if gaussian_oracle(mu, n, confidence, delta) > epsilon:
            return n
        n *= 2
    return None


def noisy_gd_violation_pair(n=400, x_bound=1.0, y_bound=3.0):
    """``(D, D', description)`` on which noisy GD's output shows its full transcript: ``n`` records ``(X, 0)``
    (d = 1), row 0 ``(X, Y)`` in ``D`` and ``(X, -Y)`` in ``D'``.

    Every record has ``x = X``, so the average squared loss has curvature ``A = 2 X^2`` and its gradient
    ``A w - b`` pulls the iterates to ``b / A = +-Y / n``: they stay far inside the ball (no projection,
    so the output is a linear function of the Gaussian noise, see :func:`noisy_gd_linear_output`) and
    the average iterate weighs the steps' noises nearly equally (the mean reversion forgets the late
    start), so it keeps almost all of the transcript's ``sqrt(T) Delta / sigma``.  The flip moves
    ``b`` by ``4 X Y / n`` at every ``w``.

    >>> D, Dp, _ = noisy_gd_violation_pair(n=3)
    >>> D.tolist(), Dp[0].tolist()
    ([[1.0, 3.0], [1.0, 0.0], [1.0, 0.0]], [1.0, -3.0])
    """
    X, Y = check_positive("x_bound", x_bound), check_positive("y_bound", y_bound)
    n = check_integer("n", n, minimum=1)
    D = np.zeros((n, 2))
    D[:, 0] = X
    D[0, 1] = Y
    Dp = D.copy()
    Dp[0, 1] = -Y
    return D, Dp, (f"{n} records (x = {X:g}, y = 0) in d = 1, row 0 (x = {X:g}, y = +-{Y:g}): the iterates "
                   f"revert to +-{Y:g}/n, so the average keeps nearly the whole transcript")


def noisy_gd_linear_output(n, epsilon, delta, B=1.0, x_bound=1.0, y_bound=3.0):
    """Exact law of noisy GD's output on :func:`noisy_gd_violation_pair` while no projection binds.

    With ``A = 2 X^2``, ``b = 2 X y_0 / n``, step ``eta`` and noise ``sigma`` of
    :func:`reference.arora.learners.noisy_gd` (squared loss, ``T = min(n, 200)``, ``w_0 = 0``), the
    unprojected iterates are ``w_{t+1} = (1 - k) w_t + eta b - eta sigma xi_t`` with ``k = eta A``; the
    average ``(1/T) sum_{t=1..T} w_t`` is Gaussian with mean ``(eta b / T) sum_s c_s`` and standard
    deviation ``(eta sigma / T) ||c||``, ``c_s = (1 - (1 - k)^{T-s}) / k`` (s = 0..T-1).  The two
    datasets' outputs are therefore ``mu = (4 X Y / n) sum c / (sigma ||c||)`` noise units apart
    (``<= sqrt(T) (4 X Y / n) / sigma``, Cauchy-Schwarz).  The real output equals this one on the event
    that no unprojected iterate leaves ``[-B, B]``, whose complement has probability at most
    ``projection`` (Gaussian tails of every ``w_t``, union bound over ``t``, the larger of the two
    datasets), so the real ``delta(eps)`` is at least the Gaussian curve's at ``mu`` minus
    ``(1 + e^eps) projection``.

    Returns
    -------
    dict with ``mu``, ``transcript_mu`` (``sqrt(T) 4XY/(n sigma)``), ``projection``, ``T``, ``sigma``,
    ``eta``, ``k``.

    >>> r = noisy_gd_linear_output(400, 2.0, 1e-5)
    >>> round(r["mu"], 4), round(r["transcript_mu"], 4), r["projection"] < 1e-40
    (0.2832, 0.3001, True)
    """
    from scipy import special

    n = check_integer("n", n, minimum=1)
    B, X, Y = (check_positive(k, v) for k, v in (("B", B), ("x_bound", x_bound), ("y_bound", y_bound)))
    T = min(n, 200)
    sigma = noisy_gd_sigma("squared", B, X, Y, n, T, epsilon, delta)
    G = lipschitz_constant("squared", B, X, Y)
    eta = B / (math.sqrt(G * G + sigma * sigma) * math.sqrt(T))      # d = 1, as noisy_gd sets it
    k = eta * 2.0 * X * X
    s = np.arange(T)
    c = -np.expm1((T - s) * math.log1p(-k)) / k
    shift = 4.0 * X * Y / n
    t = np.arange(1, T + 1)
    var = (eta * sigma) ** 2 * -np.expm1(2 * t * math.log1p(-k)) / -math.expm1(2 * math.log1p(-k))
    mean = (2.0 * X * Y / n) / (2.0 * X * X) * -np.expm1(t * math.log1p(-k))   # |E w_t| on either dataset
    sd = np.sqrt(var)
    projection = float(np.sum(special.ndtr(-(B - mean) / sd) + special.ndtr(-(B + mean) / sd)))
    return {"mu": float(shift * c.sum() / (sigma * np.linalg.norm(c))), "transcript_mu": math.sqrt(T) * shift / sigma,
            "projection": projection, "T": T, "sigma": sigma, "eta": eta, "k": k}


#: Records per chunk of :func:`boosting_validation_pair` as audited (n = 5 x 64 = 320 at m = 4).
BOOSTING_CHUNK = 64


def boosting_validation_pair(chunk=BOOSTING_CHUNK, m=4, x_bound=1.0, y_bound=3.0):
    """``(D, D', description)`` for Boosting [004 App. E] in d = 1: ``m`` training chunks of ``chunk``
    records ``(X, Y)``, a validation chunk of ``(0, 0)`` records but its last, ``(X, Y)`` in ``D`` and
    ``(X, -Y)`` in ``D'``.

    The ``m`` models are i.i.d. (equal chunks) around the minimiser near ``B``; ``(0, 0)`` records add
    nothing to the scores, so the flipped record alone moves model ``w``'s score by
    ``(min((w + Y)^2, c) - min((w - Y)^2, c)) / chunk`` (``c`` the clip level): up to the full
    sensitivity ``c / chunk`` in opposite directions for models near ``Y`` and near ``-Y``.  Larger
    chunks concentrate the models (output-perturbation noise ``~ 1/sqrt(chunk)``) so that a selected
    model far from the bulk has won against competitors whose scores moved the other way.

    >>> D, Dp, _ = boosting_validation_pair(chunk=2, m=1)
    >>> D.tolist(), Dp[-1].tolist()
    ([[1.0, 3.0], [1.0, 3.0], [0.0, 0.0], [1.0, 3.0]], [1.0, -3.0])
    """
    c = check_integer("chunk", chunk, minimum=1)
    m = check_integer("m", m, minimum=1)
    X, Y = check_positive("x_bound", x_bound), check_positive("y_bound", y_bound)
    D = np.zeros(((m + 1) * c, 2))
    D[: m * c] = [X, Y]
    D[-1] = [X, Y]
    Dp = D.copy()
    Dp[-1, 1] = -Y
    return D, Dp, (f"{m} training chunks of {c} records (x = {X:g}, y = {Y:g}); validation chunk of (0, 0) records "
                   f"but the last, y = +-{Y:g}")


#: Records per chunk of the validation pair on which the paper's readings of Boosting are audited (n = 20 at m = 4).
BOOSTING_PAPER_CHUNK = 4


def paper_sigma_tilde(learner, B, m, n, epsilon, delta):
    """The printed ``sigma_tilde`` of [004 Thm. E] for Boosting on ``n`` records with ``learner`` at guess ``B``.

    ``sigma_tilde^2 = 4 (Y^2 + H gamma^2 X^2) / (n epsilon)`` (:func:`~reference.arora.model_selection.boosting_sigma_tilde`)
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


def boosting_output_law(D, Dp, epsilon, delta=1e-5, *, m=4, B=2.0, x_bound=1.0, y_bound=3.0, grid=3001, lgrid=601,
                        variant="calibrated", sigma_tilde=None, tgrid=8001):
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
    from reference.arora.model_selection import (BOOSTING_VARIANTS, boosting_laplace_scale,
                                                 calibrated_laplace_scale)

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
    ell, lap = _laplace_cells(b, lgrid)
    lap_cdf = functools.partial(_laplace_cdf, b=b)

    out = []
    for data in (D, Dp):
        V = np.asarray(data, dtype=np.float64)[m * nc:(m + 1) * nc]
        u = -np.mean(np.minimum((w[:, None] * V[None, :, 0] - V[None, :, 1]) ** 2, clip), axis=1)
        if variant == "calibrated":
            t = np.linspace(-clip - 30 * b, 30 * b, lgrid)
            F = lap_cdf(t[:, None] - u[None, :]) @ phi
        else:   # unclipped scores span (w_hat +- 12 s)^2: tabulate F over their range, in blocks of w
            t = np.linspace(u.min() - 31 * b, u.max() + 31 * b, tgrid)
            F = sum(lap_cdf(t[:, None] - u[None, i:i + 512]) @ phi[i:i + 512] for i in range(0, grid, 512))
        Fw = np.interp(u[:, None] + ell[None, :], t, F)
        out.append(m * phi * ((Fw ** (m - 1)) @ lap))
    if variant != "calibrated":
        out = [o / o.sum() for o in out]
    return w, out[0], out[1]


def _laplace_cells(b, lgrid):
    """``lgrid`` equally spaced points over ``+-30 b`` and the Laplace(``b``) density times the spacing there
    (the Riemann weights of the Boosting laws' noise integral)."""
    ell = np.linspace(-30 * b, 30 * b, lgrid)
    return ell, np.exp(-np.abs(ell) / b) / (2 * b) * (ell[1] - ell[0])


def _laplace_cdf(v, b):
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
    ``samples/2`` calls per dataset, expected counts (as :func:`oracle_bound`)."""
    from proofs_checks.audit.statistical import _cp_eps_vector

    n = check_integer("samples", samples, minimum=2) // 2
    best = 0.0
    for P, Q in ((p, q), (q, p)):
        order = np.argsort(-(np.log(P + 1e-300) - np.log(Q + 1e-300)))
        cp = _cp_eps_vector(n * np.cumsum(P[order]), n, n * np.cumsum(Q[order]), n, delta, (1 - confidence) / 2)
        best = max(best, float(np.max(cp)))
    return best


def boosting_law_bounds(learner, D, Dp, epsilon, delta=1e-5, *, scale, m=4, B=2.0, cells=3000, steps_per_scale=64,
                        reach=12.0, lap_reach=40.0):
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
    [004 App. E] Boosting steps 1-3; the report-noisy-max density as in :func:`boosting_output_law`.

    Examples
    --------
    >>> from reference.arora.learners import OutputPerturbation
    >>> D, Dp, _ = boosting_validation_pair(4)
    >>> L = OutputPerturbation("squared", 1.0, 3.0)
    >>> r = boosting_law_bounds(L, D, Dp, 1.0, scale=10.2951, cells=3000, steps_per_scale=64)
    >>> bool((r["p_lo"] <= r["p_hi"]).all()), round(float(r["p_lo"].sum()), 2), round(float(r["p_hi"].sum()), 2)
    (True, 0.98, 1.02)
    """
    from scipy import signal, special

    from reference.arora.learners import OutputPerturbation, regularized_erm

    if not isinstance(learner, OutputPerturbation):
        raise TypeError(f"learner must be an OutputPerturbation, got {type(learner).__name__}")
    eps, dl = check_epsilon(epsilon), check_delta(delta)
    m = check_integer("m", m, minimum=2)
    b = check_positive("scale", scale)
    cells = check_integer("cells", cells, minimum=10)
    steps = check_integer("steps_per_scale", steps_per_scale, minimum=1)
    reach, lap_reach = check_positive("reach", reach), check_positive("lap_reach", lap_reach)
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
        if np.any(data[m * c:(m + 1) * c, 1:-1] != 0):
            raise ValueError("every validation feature must lie on the first axis (x[1:] = 0)")
    s = learner.sigma(B, c, eps / 2, dl)
    mu = float(regularized_erm(train, learner.loss, B, learner._lam(B, c, eps / 2))[0])
    quads = []
    for data in (D, Dp):
        V = data[m * c:(m + 1) * c]
        a, y = V[:, 0], V[:, -1]
        quads.append((float(np.mean(a * a)), float(np.mean(a * y)), float(np.mean(y * y))))
    lo_w, hi_w = mu - reach * s, mu + reach * s
    breaks = [mu] + [A1 / A2 for A2, A1, _ in quads if A2 > 0]
    edges = np.union1d(np.linspace(lo_w, hi_w, cells + 1), [x for x in breaks if lo_w < x < hi_w])
    z = (edges - mu) / s
    # Gaussian cell masses without cancellation in either tail
    P = np.where(z[:-1] >= 0, special.ndtr(-z[:-1]) - special.ndtr(-z[1:]), special.ndtr(z[1:]) - special.ndtr(z[:-1]))
    outside = float(2 * special.ndtr(-reach))
    h = b / steps
    J = int(math.ceil(lap_reach * steps))                     # Laplace cells [l_j, l_j+1], l_j = j h, j = -J..J-1
    lj = np.arange(-J, J + 1) * h
    lap_cdf_l = _laplace_cdf(lj, b)
    M = np.diff(lap_cdf_l)
    tail = 0.5 * math.exp(-J * h / b)                         # P(Lambda < -J h) = P(Lambda > J h)

    us = []
    for A2, A1, A0 in quads:
        ue = -(A2 * edges ** 2 - 2 * A1 * edges + A0)
        us.append((np.minimum(ue[:-1], ue[1:]), np.maximum(ue[:-1], ue[1:])))
    span = (max(u[1].max() for u in us) - min(u[0].min() for u in us)) / h
    if not span <= _MAX_LATTICE:
        raise ValueError(f"scale={b!r} is too small for the scores' range {span * h:.6g}: the lattice would need "
                         f"{span:.3g} > {_MAX_LATTICE:g} points (lower steps_per_scale or raise the scale)")
    vmin = math.floor(min(u[0].min() for u in us) / h)
    vmax = math.ceil(max(u[1].max() for u in us) / h)
    t = np.arange(vmin - J, vmax + J + 2) * h                 # the lattice of F
    nv = vmax - vmin + 1
    out = []
    for umin, umax in us:
        Flo = _laplace_smoothed_cdf(t, umax, P, b)
        Fhi = np.minimum(_laplace_smoothed_cdf(t, umin, P, b) + outside + _ROUNDING, 1.0)
        Flo = np.maximum(Flo - _ROUNDING, 0.0)
        # G(v_i), v_i = (vmin + i) h: sum_j M_j F(v_i + l_j .. l_j+1)^(m-1), F's index of v_i + l_j being i + j + J
        Glo = signal.fftconvolve(Flo[:nv + 2 * J - 1] ** (m - 1), M[::-1], mode="valid") - _ROUNDING
        Ghi = signal.fftconvolve(Fhi[1:nv + 2 * J] ** (m - 1), M[::-1], mode="valid") + _ROUNDING
        Glo = np.maximum(Glo + tail * Flo[2 * J:2 * J + nv] ** (m - 1), 0.0)
        Ghi = np.minimum(Ghi + tail * Fhi[:nv] ** (m - 1) + tail, 1.0)
        ilo = np.floor(umin / h).astype(np.int64) - vmin
        ihi = np.ceil(umax / h).astype(np.int64) - vmin
        out.append((m * P * Glo[ilo], np.minimum(m * P * Ghi[ihi], 1.0)))
    (p_lo, p_hi), (q_lo, q_hi) = out
    return {"edges": edges, "p_lo": p_lo, "p_hi": p_hi, "q_lo": q_lo, "q_hi": q_hi, "outside": m * outside,
            "w_hat": mu, "s": s, "scale": b, "validation_size": c}


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
    below = np.concatenate([[-np.inf], np.logaddexp.accumulate(logP + us / b)])          # k < i
    above = np.concatenate([np.logaddexp.accumulate((logP - us / b)[::-1])[::-1], [-np.inf]])   # k >= i
    mass = np.concatenate([[0.0], np.cumsum(Ps)])
    i = np.searchsorted(us, t, side="right")                   # u_k <= t for k < i
    return mass[i] - 0.5 * np.exp(below[i] - t / b) + 0.5 * np.exp(above[i] + t / b)


#: Records per chunk of :func:`boosting_split_pair` as audited at the full profile (n = 5 x 1024 at m = 4).
BOOSTING_SPLIT_CHUNK = 1024
#: Validation records ``(X, Y)`` of :func:`boosting_split_pair` that hold the lone model behind (the gap).
BOOSTING_SPLIT_BAD = 3


def boosting_split_pair(chunk=BOOSTING_SPLIT_CHUNK, bad=BOOSTING_SPLIT_BAD, m=4, x_bound=1.0, y_bound=3.0):
    """``(D, D', description)`` for the calibrated Boosting [004 App. E] in d = 1 whose scores move by
    nearly their full sensitivity in opposite directions: training chunk 1 of ``chunk`` records ``(X, -Y)``,
    chunks 2..m of ``(X, Y)``; the validation chunk holds ``bad`` records ``(X, Y)``, its last record is
    ``(X, -Y)`` in ``D`` and ``(X, Y)`` in ``D'``, the others are ``(0, 0)`` (no loss for any model).

    With a large chunk the models concentrate at the ball's edge, ``-B`` (the lone model) and ``+B`` (the
    others), so the flipped record moves the lone model's loss by ``(B - Y)^2 - (B + Y)^2 = -4 B Y`` and the
    others' by ``+4 B Y``: the score difference moves by ``8 B Y / chunk`` (48/chunk, 0.923 of the
    ``2 Delta / chunk = 52 / chunk`` of the calibration at ``Delta = 2 Y^2 + H B^2 X^2 = 26``).  The ``bad``
    records keep the lone model ``4 B Y (bad - 1) / chunk`` behind in ``D``, where report-noisy-max's Laplace
    tail turns the shift into a likelihood ratio near ``exp(8 B Y / (chunk b))`` on the event that the lone
    model wins: ``1.154 eps`` at the Laplace scale ``b`` of ``1.25 eps``.

    >>> D, Dp, _ = boosting_split_pair(chunk=2, bad=1, m=2)
    >>> D.tolist(), Dp[-1].tolist()
    ([[1.0, -3.0], [1.0, -3.0], [1.0, 3.0], [1.0, 3.0], [1.0, 3.0], [1.0, -3.0]], [1.0, 3.0])
    """
    c = check_integer("chunk", chunk, minimum=2)
    m = check_integer("m", m, minimum=2)
    k = check_integer("bad", bad, minimum=0, maximum=c - 1)
    X, Y = check_positive("x_bound", x_bound), check_positive("y_bound", y_bound)
    D = np.zeros(((m + 1) * c, 2))
    D[:c] = [X, -Y]
    D[c: m * c] = [X, Y]
    D[m * c: m * c + k] = [X, Y]
    D[-1] = [X, -Y]
    Dp = D.copy()
    Dp[-1, 1] = Y
    return D, Dp, (f"training chunk 1 of {c} records (x = {X:g}, y = {-Y:g}), chunks 2-{m} of (x = {X:g}, y = {Y:g}); "
                   f"validation: {k} records (x = {X:g}, y = {Y:g}), the last y = {-Y:g} against {Y:g}, others (0, 0)")


def boosting_split_law(D, Dp, epsilon, delta=1e-5, *, m=4, B=2.0, x_bound=1.0, y_bound=3.0, grid=8001, lgrid=2001,
                       tgrid=16001):
    """Law of the calibrated Boosting's output ``w_{i*}`` [004 App. E] on two d = 1 datasets whose training chunks
    take few distinct values (e.g. :func:`boosting_split_pair`), by quadrature.

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
        mu = float(regularized_erm(D[i * c:(i + 1) * c], "squared", B, lam)[0])
        groups[mu] = groups.get(mu, 0) + 1
    clip = delta_noisy_gd(B, x_bound, y_bound, L.H)
    b = calibrated_laplace_scale(clip, c, eps)
    w = np.linspace(min(groups) - 12 * s, max(groups) + 12 * s, grid)
    dw = w[1] - w[0]
    phis = {mu: np.exp(-0.5 * ((w - mu) / s) ** 2) / (s * math.sqrt(2 * math.pi)) * dw for mu in groups}
    ell, lap = _laplace_cells(b, lgrid)
    lap_cdf = functools.partial(_laplace_cdf, b=b)

    out = []
    for data in (D, Dp):
        V = data[m * c:(m + 1) * c]
        V = V[(V != 0).any(axis=1)]           # (0, 0) records add no loss to any model
        u = -np.minimum((w[:, None] * V[None, :, 0] - V[None, :, 1]) ** 2, clip).sum(axis=1) / c
        t = np.linspace(-clip - 31 * b, 31 * b, tgrid)
        Fw = {mu: np.interp(u[:, None] + ell[None, :], t,
                            sum(lap_cdf(t[:, None] - u[None, i:i + 512]) @ phi[i:i + 512] for i in range(0, grid, 512)))
              for mu, phi in phis.items()}
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

    The deterministic-model limit (chunk -> infinity) of :func:`boosting_split_pair`: ``gap`` on ``D`` and
    ``gap - shift`` on ``D'``, ``shift = 8 B Y / (chunk b)``.  Returns ``P(lone wins)`` at ``gap``.

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

    def dens(t):   # d/dt P(max of the lone group < t) times P(max of the others < t)
        v = t - g
        return lone * F(v) ** (lone - 1) * 0.5 * math.exp(-abs(v)) * F(t) ** (m - lone)

    return float(integrate.quad(dens, g - 60, g + 60, points=[g, 0.0] if abs(g) < 60 else [g], limit=500)[0])
