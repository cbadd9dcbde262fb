"""Units checks of 002's privacy statements: rescale by ``k`` and compare with ``k = 1``.

[002 Alg. 2] (heavy-tailed private LASSO) shrinks every entry of every record at ``K``, and its selection step
is the exponential mechanism over the vertices ``v`` of ``W`` with score ``-<v, g~(w, D~)>`` and sensitivity
``8 ||W||_1 K^2 / n`` [002 Alg. 2 step 4].  Multiplying features, labels and ``K`` by ``k`` (``w`` and ``W``
fixed) multiplies the gradient, hence every score, by ``k^2``, and the stated sensitivity by ``k^2`` too: the
selection's law, hence its privacy loss, must not change.  [002 Alg. 1] (DP Frank-Wolfe with a robust gradient
of scale ``s``) states the sensitivity ``4 ||W||_1 sqrt(2) s / (3m)`` of the same score; with ``s`` in the units of
the gradient it must scale like ``||W||_1 s`` -- checked under the two rescalings that keep the problem:
features and labels times ``k`` (gradients and ``s`` times ``k^2``) and labels and ``W`` times ``k`` (gradients and
``s`` times ``k``, vertices times ``k``).
"""

from __future__ import annotations

import math

import numpy as np

from reference.hu.frank_wolfe import dp_fw_sensitivity, l1_ball_vertices, lasso_sensitivity, shrink_records

from ...model import Claim, Mutant, Result

__all__ = ["lasso_selection_loss", "register"]

#: Unit factors compared with k = 1 (powers of 2: the rescaled inputs are exact in float64).
FACTORS = (8.0, 1024.0)
#: Relative tolerance of a privacy loss through exp/log and of an exponent (docs/reproducibility.md).
RTOL = 1e-9


def _pair(k):
    """A replace-one pair of 6 records ``[x_1, x_2, y]`` in units ``k`` (fixed, not drawn): the last record
    ``(K, -K, K)`` against ``(K, -K, -K)`` after shrinking at ``K = k``; the others inside the box."""
    base = np.array(
        [[0.3, -0.2, 0.5], [0.9, 0.4, -0.7], [-0.6, 0.8, 0.1], [0.2, -0.9, -0.4], [0.5, 0.5, 0.9], [1.0, -1.0, 1.0]]
    )
    D = base * k
    Dp = D.copy()
    Dp[-1, -1] = -D[-1, -1]
    return D, Dp


def lasso_selection_loss(k, sensitivity_power=2.0, epsilon_step=1.0, reading="radius"):
    """Largest ``|log P_D(v) - log P_D'(v)|`` of [002 Alg. 2 step 4] on the pair of :func:`_pair` in units ``k``.

    Parameters
    ----------
    k : float
        The unit of features, labels and ``K``, finite and > 0.
    sensitivity_power : float, default 2.0
        The power of ``K`` in the sensitivity ``8 ||W||_1 K^p / n`` (2: the paper's; other values are mutants).
    epsilon_step : float, default 1.0
        The step's budget.
    reading : {"radius", "diameter"}
        The reading of ``||W||_1``.

    Returns
    -------
    float
        The step's privacy loss on the pair, at the iterate ``w = (0.25, -0.25)``.

    Raises
    ------
    ValueError
        ``k`` not finite and positive.

    References
    ----------
    [002 Alg. 2 step 4], [002 Def. 3].

    Examples
    --------
    >>> a, b = lasso_selection_loss(1.0), lasso_selection_loss(8.0)
    >>> abs(a - b) < 1e-12 * a
    True
    """
    from reference.hu.frank_wolfe import lasso_gradients
    from reference.mechanisms import exponential_log_prob

    if not (math.isfinite(k) and k > 0):
        raise ValueError(f"k must be finite and > 0, got {k!r}")
    K = k
    V = l1_ball_vertices(2)
    w = np.array([0.25, -0.25])
    n = 6
    delta_u = lasso_sensitivity(V, K, n, reading) * K ** (sensitivity_power - 2.0)
    out = []
    for data in _pair(k):
        S = shrink_records(data, K)
        out.append(exponential_log_prob(-(lasso_gradients(w, S[:, :-1], S[:, -1], n) @ V.T), epsilon_step, delta_u))
    return float(np.max(np.abs(out[0] - out[1])))


def lasso_units_check(sensitivity_power=2.0):
    """The selection's privacy loss on the pair must be the same in every unit (relative tolerance 1e-9)."""

    def check(ctx):
        rows, worst = [], 0.0
        for reading in ("radius", "diameter"):
            base = lasso_selection_loss(1.0, sensitivity_power, reading=reading)
            for k in FACTORS:
                loss = lasso_selection_loss(k, sensitivity_power, reading=reading)
                rows.append({"reading": reading, "k": k, "loss": loss, "loss_at_k_1": base})
                worst = max(worst, abs(loss / base - 1.0))
        return Result(
            "refuted" if worst > RTOL else "confirmed",
            observed=worst,
            bound=RTOL,
            direction="at_most",
            method="exact law of the exponential mechanism over the 4 vertices of the unit l1 ball in d = 2 "
            "(reference.hu lasso_gradients, exponential_log_prob) on one fixed replace-one pair of 6 records, "
            f"at k = 1 and k = {', '.join(f'{k:g}' for k in FACTORS)}",
            reading="[002 Alg. 2 step 4]: exponential mechanism with score -<v, g~(w, D~)> and sensitivity "
            f"8 ||W||_1 K^{sensitivity_power:g} / n"
            + ("" if sensitivity_power == 2.0 else " (a mutant, not the paper's)")
            + "; features, labels and the shrinkage K times k, w and W fixed; both readings of ||W||_1 "
            "([002 Sec. 3] diameter, the implementation's radius)",
            evidence={"rows": rows, "observed_is": "largest |loss(k)/loss(1) - 1|"},
            evidence_kind="formula",
        )

    return check


def _dp_fw_exponent(k, rescaling, with_norm=True):
    """``log(Delta(k)/Delta(1))/log k`` of [002 Alg. 1 step 6]'s sensitivity; the score scales with ``k^2``."""

    def delta(u):
        V = l1_ball_vertices(3) * (u if rescaling == "labels and W" else 1.0)
        s = 0.7 * (u if rescaling == "labels and W" else u * u)  # s in the units of the gradient
        value = dp_fw_sensitivity(V, s, 10)
        return value if with_norm else value / float(V.max())  # the mutant: ||W||_1 dropped

    return math.log(delta(k) / delta(1.0)) / math.log(k)


def dp_fw_units_check(with_norm=True):
    """The DP-FW sensitivity must scale like its score ``<v, g~>``: exponent 2 under both rescalings."""

    def check(ctx):
        rows, worst = [], 0.0
        for rescaling in ("features and labels", "labels and W"):
            for k in FACTORS:
                e = _dp_fw_exponent(k, rescaling, with_norm)
                rows.append({"rescaling": rescaling, "k": k, "exponent": e})
                worst = max(worst, abs(e - 2.0))
        return Result(
            "refuted" if worst > RTOL else "confirmed",
            observed=worst,
            bound=RTOL,
            direction="at_most",
            method="exponent of the reference dp_fw_sensitivity at k = " + ", ".join(f"{k:g}" for k in FACTORS),
            reading="[002 Alg. 1 step 6] Delta = 4 ||W||_1 sqrt(2) s / (3m), the sensitivity of -<v, g~>; s the "
            "robust estimator's scale, in the units of the gradient (features and labels x k: gradient x k^2; "
            "labels and W x k: gradient x k, vertices x k); the score scales as k^2 under both"
            + ("" if with_norm else "; mutant: ||W||_1 dropped"),
            evidence={"rows": rows, "observed_is": "largest |exponent - 2|"},
        )

    return check


def register(registry):
    """Add the units checks of 002."""

    def claim(*a, **k):
        registry.add_claim(Claim(*a, **k))

    claim(
        "hu.units.lasso-privacy",
        "[002 Alg. 2] [002 Thm. 4]",
        "The privacy loss of Algorithm 2's selection step does not depend on the units of features, labels and K.",
        "privacy",
        lasso_units_check(),
        mutants=(Mutant("sensitivity 8 ||W||_1 K / n (K not squared)", lasso_units_check(1.0)),),
    )
    claim(
        "hu.units.dp-fw-sensitivity",
        "[002 Alg. 1] [002 Thm. 1]",
        "Algorithm 1's sensitivity 4 ||W||_1 sqrt(2) s/(3m) scales like its score under a change of units.",
        "formula",
        dp_fw_units_check(),
        mutants=(Mutant("||W||_1 dropped from the sensitivity", dp_fw_units_check(False)),),
    )
