"""Ridge-penalised logistic regression of the statistical audit, and the robust scaling of its features.

:func:`penalised_logistic_weights` minimises mean log-loss plus ``penalty * ||w||^2`` (intercept free) by
Newton's method (L-BFGS-B for wide designs): for the attacks' logistic regressions (the projection of
:func:`~proofs_checks.audit.projection.fit_logistic`, the joint features of
:func:`~proofs_checks.audit.classifiers.fit_joint_logistic`) and for the five-column spline of
:class:`~proofs_checks.audit.smooth.SmoothLogRatio`.  The spline had a Newton solver of its own (plain full
steps stopped by the step size); on the same problems the two reached the same objective to the last bit and
the same audits (docs/auditor.md, "One Newton solver"), so there is one.
"""

from __future__ import annotations

import numpy as np
from scipy import optimize, special

__all__ = [
    "penalised_logistic_weights",
    "robust_scale",
    "robust_z",
    "NEWTON_MAX_COLUMNS",
    "NEWTON_TOL",
    "NEWTON_MAX_STEPS",
    "NEWTON_WARM_ROWS",
]


def robust_scale(x):
    """Per-column centre (median, no averaging) and spread (half the IQR, else half the range, else 1), all finite.

    Halves are taken before differences so that outputs at +-1.7e308 cannot overflow.

    Examples
    --------
    >>> c, s = robust_scale(np.array([[1.7e308], [-1.7e308], [1.7e308], [-1.7e308]]))
    >>> bool(np.isfinite(c).all() and np.isfinite(s).all() and (s > 0).all())
    True
    """
    x = np.asarray(x, dtype=np.float64)
    q25, q50, q75 = np.quantile(x, [0.25, 0.5, 0.75], axis=0, method="inverted_cdf")
    half_iqr = 0.5 * q75 - 0.5 * q25
    half_range = 0.5 * np.max(x, axis=0) - 0.5 * np.min(x, axis=0)
    scale = np.where(half_iqr > 0, half_iqr, np.where(half_range > 0, half_range, 1.0))
    return q50, scale


def robust_z(x, center, scale):
    """``arcsinh((x - center) / scale)`` with the ratio clipped to +-1e300 (finite for any finite input)."""
    with np.errstate(over="ignore", invalid="ignore"):
        r = x / scale - center / scale
    return np.arcsinh(np.clip(np.nan_to_num(r, nan=0.0, posinf=1e300, neginf=-1e300), -1e300, 1e300))


#: Logistic fits with at most this many columns (intercept included) use Newton's method, wider ones
#: L-BFGS-B: a Newton step forms the k x k Hessian in ``n k^2`` flops against ``n k`` for a loss
#: evaluation, so past some width the L-BFGS-B evaluations are cheaper: on well-conditioned synthetic rows
#: they tie at 31 columns, but SVT3's 40-column joint fit is 3x faster with Newton (docs/auditor.md,
#: "Newton's method for the logistic regression").
NEWTON_MAX_COLUMNS = 41
#: Newton stops once the predicted decrease of the objective (half the Newton decrement ``g . H^-1 g``) is
#: below this fraction of the objective: float64 cannot resolve a smaller change of a mean over the rows.
NEWTON_TOL = 1e-15
#: Newton steps at most (3-8 on the benchmark mechanisms); past them L-BFGS-B finishes from the last iterate.
NEWTON_MAX_STEPS = 50
#: Fits on at least 16 times this many rows first run Newton on every m-th row (m >= 16, about this many
#: rows) and start the full-data Newton from that minimiser: NoisyHist2 at 10^7 calls (10^6 rows) needs 3
#: full-data steps instead of 7; where Newton from zero takes 3 steps anyway (SVT3) the subsample costs
#: about 1/m of a step per step (with m = 6, on 2*10^5 rows, it cost more than it saved: measured).
NEWTON_WARM_ROWS = 2**15
_LOGISTIC_METHODS = ("auto", "newton", "lbfgs")


def penalised_logistic_weights(f, n_first, penalty, method="auto"):
    """Weights ``(intercept, w)`` of a ridge-penalised logistic regression of ``f``'s first ``n_first`` rows
    (label 1) against the rest (label 0): the minimiser of mean log-loss plus ``penalty * ||w||^2``
    (intercept free).

    Parameters
    ----------
    f : ndarray, shape (n, k - 1)
        Features (finite).
    n_first : int
        Rows ``f[:n_first]`` have label 1.
    penalty : float
        Ridge strength (> 0 keeps the weights bounded on separable data).
    method : {"auto", "newton", "lbfgs"}
        ``newton``: Newton's method with the exact Hessian and a backtracking (Armijo) line search from
        zero (on ``16 * NEWTON_WARM_ROWS`` rows or more, from the minimiser on every m-th row), stopped
        when the predicted decrease is below :data:`NEWTON_TOL` of the objective; a singular Hessian is
        solved by least squares, and if a step is no descent direction, the line search fails before
        convergence, or :data:`NEWTON_MAX_STEPS` pass, L-BFGS-B continues from the last iterate (it never
        returns a worse point than its start).  ``lbfgs``: scipy's L-BFGS-B from zero (default
        tolerances), the auditor's fit before Newton's method.  ``auto``: ``newton`` up to
        :data:`NEWTON_MAX_COLUMNS` columns with both labels present, else ``lbfgs``.

    Returns
    -------
    ndarray, shape (k,)

    Notes
    -----
    The loss is evaluated on all fitting rows (SVT3 at 10^7 calls: 10^6 rows x 21 columns; L-BFGS-B took 29
    evaluations, 1.7 s CPU on one BLAS thread, and stopped 5.4e-6 relative above the minimum; Newton 3 steps
    of one evaluation, one gradient and one Hessian each, 0.5-0.9 s), so it works in preallocated buffers and
    touches only the label-1 rows for the labels: with ``y`` 1 on the first rows and 0 on the others,
    ``log(1 + e^eta) - y eta`` and ``expit(eta) - y`` are the same floats as computed with the label vector
    (``x - 0`` is ``x``), summed in the same order (test: L-BFGS-B against the label-vector formula, bit for
    bit).  Newton's objective is at most L-BFGS-B's, or equal to 1e-12 relative
    (tests/test_logistic_newton.py).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> f = np.vstack([rng.normal(1.0, 1.0, (500, 2)), rng.normal(0.0, 1.0, (500, 2))])
    >>> w_n = penalised_logistic_weights(f, 500, 1e-3, method="newton")
    >>> w_l = penalised_logistic_weights(f, 500, 1e-3, method="lbfgs")
    >>> bool(np.allclose(w_n, w_l, atol=1e-4))
    True
    """
    if method not in _LOGISTIC_METHODS:
        raise ValueError(f"method must be one of {', '.join(_LOGISTIC_METHODS)}, got {method!r}")
    n = len(f)
    X = np.hstack([np.ones((n, 1)), f])
    problem = _PenalisedLogistic(X, n_first, penalty)
    if method == "auto":
        method = "newton" if X.shape[1] <= NEWTON_MAX_COLUMNS and 0 < n_first < n else "lbfgs"
    if method == "lbfgs":
        return problem.lbfgs(np.zeros(X.shape[1]))
    w0 = np.zeros(X.shape[1])
    stride = n // NEWTON_WARM_ROWS
    n1 = -(-n_first // max(stride, 1))  # label-1 rows among X[::stride]
    if stride >= 16 and 0 < n1 < len(X[::stride]):
        # the same problem on every stride-th row first: its minimiser is within about 1/sqrt(rows) of the
        # full one, so the full-data Newton steps start close (the answer is the full minimiser either way)
        w0 = _PenalisedLogistic(np.ascontiguousarray(X[::stride]), n1, penalty).newton(w0)
    return problem.newton(w0)


class _PenalisedLogistic:
    """Mean log-loss + ``penalty * ||w[1:]||^2`` of design ``X`` (first column ones; rows ``X[:n_first]``
    label 1) in preallocated buffers, minimised by L-BFGS-B or Newton's method."""

    def __init__(self, X, n_first, penalty):
        self.X, self.n_first, self.penalty = X, n_first, penalty
        self.buf, self.res = np.empty(len(X)), np.empty(len(X))

    def objective(self, eta, w):
        buf, n1 = self.buf, self.n_first
        np.logaddexp(0.0, eta, out=buf)
        np.subtract(buf[:n1], eta[:n1], out=buf[:n1])
        return np.sum(buf) / len(buf) + self.penalty * np.dot(w[1:], w[1:])

    def gradient(self, eta, w):
        """The gradient; leaves ``expit(eta) - y`` in ``self.res``."""
        special.expit(eta, out=self.res)
        self.res[: self.n_first] -= 1.0
        grad = self.X.T @ self.res / len(self.res)
        grad[1:] += 2 * self.penalty * w[1:]
        return grad

    def loss(self, w):
        eta = self.X @ w
        return self.objective(eta, w), self.gradient(eta, w)

    def lbfgs(self, w0):
        return optimize.minimize(self.loss, w0, jac=True, method="L-BFGS-B").x

    def newton(self, w):
        X, n1 = self.X, self.n_first
        n, k = X.shape
        ridge = np.full(k, 2.0 * self.penalty)
        ridge[0] = 0.0  # the intercept is not penalised
        weighted = np.empty_like(X)
        eta = X @ w
        val = self.objective(eta, w)
        for _ in range(NEWTON_MAX_STEPS):
            grad = self.gradient(eta, w)
            if not np.any(grad):
                return w  # stationary: the minimiser (the objective is convex)
            # p (1 - p) from res = p - y: p is res on label-0 rows and res + 1 on label-1 rows
            s = self.res.copy()
            s[:n1] += 1.0
            s *= 1.0 - s
            np.multiply(X, s[:, None], out=weighted)
            hess = _gram(weighted, X) / n
            hess[np.diag_indices(k)] += ridge
            try:
                step = np.linalg.solve(hess, grad)
            except np.linalg.LinAlgError:  # singular (all rows far on one side, no penalty on
                step = np.linalg.lstsq(hess, grad, rcond=None)[0]  # the intercept): least squares
            dec = float(grad @ step)  # Newton decrement^2: twice the predicted decrease
            if not (np.isfinite(dec) and dec > 0.0):  # no descent direction (rounding of a near-singular H)
                return self.lbfgs(w)
            if dec <= 2.0 * NEWTON_TOL * abs(val):
                # converged: the last step is kept unless it raises the objective (its decrease is below
                # rounding)
                w1 = w - step
                return w1 if self.objective(X @ w1, w1) <= val else w
            t = 1.0
            for _ in range(40):
                w1 = w - t * step
                eta1 = X @ w1
                val1 = self.objective(eta1, w1)
                if val1 <= val - 1e-4 * t * dec:  # Armijo
                    break
                t *= 0.5
            else:
                return self.lbfgs(w)  # no decrease along a descent direction: hand over
            w, eta, val = w1, eta1, val1
        return self.lbfgs(w)


def _gram(a, b):
    """``a.T @ b`` for tall ``a``, ``b`` (n x k) as a sum of products of row blocks of at most 2^17 / k^2 rows.

    One ``a.T @ b`` on 10^6 rows is a single large GEMM that OpenBLAS splits across its threads; on this
    2-core machine under load (load average 4-5) it took 0.35-10 s instead of 0.16 s (n = 2*10^6, k = 21),
    as one descheduled thread stalls the others.  Blocks this small run on one BLAS thread each (stacked
    ``matmul``, no Python loop), 0.15-0.2 s under the same load, and the same bits whatever the BLAS thread
    count (measured with 1 and 2 threads).  Inside the audit's ``select_event`` the BLAS is pinned to one
    thread anyway (module ``_blas``); there the blocks cost what one single-threaded GEMM costs (0.16 s).
    """
    n, k = a.shape
    rows = int(min(1024, max(16, 2**17 // (k * k))))
    m = n - n % rows
    blocks = np.matmul(a[:m].reshape(-1, rows, k).transpose(0, 2, 1), b[:m].reshape(-1, rows, k))
    return blocks.sum(axis=0) + a[m:].T @ b[m:]
