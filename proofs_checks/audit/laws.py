"""Finite output laws given by a mechanism's ``log_prob``: validation, alignment and a sampler check.

An exact audit trusts ``log_prob(data) -> (outputs, log_probabilities)`` only after

* **validation** (:func:`validate_law`): outputs and log-probabilities of the same length,
  log-probabilities finite or ``-inf`` (never NaN or ``+inf``), no output listed twice, and total
  probability within :data:`NORMALISATION_TOL` of 1.  A law that fails is a wrong law: the audit
  stops with an error saying why (a "distribution" of total mass 74.7 is no distribution of any
  mechanism, and no evidence about its privacy); the mass a law accepted within the tolerance leaves
  unlisted is placed by :mod:`~proofs_checks.audit.unlisted_mass`;
* **alignment by output value** (:func:`align_laws`): two laws are compared on the union of their
  output sets, an output missing on one side having probability 0 there, whatever order each
  ``log_prob`` lists its outputs in and however the support moves with the data;
* **a goodness-of-fit test of the sampler** (:func:`sampler_check`): ``sample`` is what a user of
  the mechanism runs, so ``n`` draws of it on a dataset are compared with the law, cell by cell,
  with exact two-sided binomial tests (Bonferroni over the cells and datasets checked).  An output
  the law gives probability 0 refutes at once.

Power of the sampler check (normal approximation of the binomial test, stated in every result as
:func:`detectable_change`): with ``m`` tested cells at error ``alpha`` and power ``1 - beta``, a
relative change ``r`` of a cell of probability ``p`` is detected when
``r >= (z_{alpha/(2m)} + z_{beta}) / sqrt(n p)``.  Cells of probability below ``MIN_CELL`` are
pooled into one cell.  With ``n = 2*10^6`` draws, two datasets of 4 outcomes (m = 8),
alpha = 0.05 and power 0.95, ``r = 0.094`` at ``p = 1e-3``: a 10% change of any outcome of
probability above 1e-3 is detected with probability at least 0.95.

References
----------
.. [1] C. J. Clopper and E. S. Pearson, Biometrika 26 (1934) (exact binomial tails).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

__all__ = [
    "NORMALISATION_TOL",
    "MIN_CELL",
    "LawError",
    "validate_law",
    "row_keys",
    "align_laws",
    "detectable_change",
    "sampler_check",
]

#: Largest accepted ``|sum p - 1|`` of a law (the float64 sum of K terms is exact to ~K 1e-16;
#: numerically integrated laws such as report-noisy-max's carry ~1e-11 per output).
NORMALISATION_TOL = 1e-6
#: Cells of smaller probability are pooled into one cell by the sampler check.
MIN_CELL = 1e-6


class LawError(ValueError):
    """``log_prob`` returned something that is not a probability law (:func:`~proofs_checks.audit.api.audit` raises
    it as :class:`~proofs_checks.audit.api.InvalidLawError`, an error, not a verdict).

    Examples
    --------
    >>> import numpy as np
    >>> validate_law(np.arange(2), np.log([0.5, 0.4]))
    Traceback (most recent call last):
    ...
    proofs_checks.audit.laws.LawError: log_prob(D) is not normalised: probabilities sum to 0.9 (tolerance 1e-06)
    """


def row_keys(outputs, count):
    """Output rows as opaque byte keys (float64, -0.0 folded into 0.0, every NaN one NaN), one per row.

    NaN and +-inf outputs are values like any other (atoms of the law): a NaN's sign and payload bits are
    folded into one NaN, so ``sample`` and ``log_prob`` agree on it whatever arithmetic made it.
    """
    r = np.asarray(outputs)
    if r.dtype == object or not (np.issubdtype(r.dtype, np.number) or r.dtype == bool):
        raise LawError(f"log_prob outputs must be numeric, got dtype {r.dtype}")
    if r.ndim == 0 or r.shape[0] != count:
        raise LawError(f"log_prob returned {count} log-probabilities but outputs of shape {r.shape}")
    r = np.ascontiguousarray(r.astype(np.float64).reshape(count, -1) + 0.0)
    nan = np.isnan(r)
    if nan.any():
        r[nan] = np.nan
    return r.view(np.dtype((np.void, r.dtype.itemsize * r.shape[1]))).ravel(), r.shape[1]


def validate_law(outputs, log_probs, where="D", tol=NORMALISATION_TOL, *, distinct=False):
    """Check one law; return ``(keys, width, log_probs)`` or raise :class:`LawError` saying what is wrong.

    ``distinct=True`` is the caller's statement that the outputs are distinct by construction (the indices
    ``np.arange(K)`` of an incremental law): the test for an output listed twice is then skipped.
    """
    lp = np.asarray(log_probs, dtype=np.float64)
    if lp.ndim != 1 or lp.size == 0:
        raise LawError(f"log_prob({where}) must give a non-empty 1-D vector of log-probabilities, got shape {lp.shape}")
    keys, width = row_keys(outputs, lp.size)
    if np.isnan(lp).any() or (lp == np.inf).any():
        raise LawError(f"log_prob({where}) contains NaN or +inf log-probabilities")
    if not distinct and np.unique(keys).size != keys.size:
        raise LawError(f"log_prob({where}) lists an output more than once")
    total = float(np.exp(np.logaddexp.reduce(lp)))
    if not abs(total - 1.0) <= tol:
        raise LawError(f"log_prob({where}) is not normalised: probabilities sum to {total:.6g} (tolerance {tol:g})")
    return keys, width, lp


def align_laws(law_a, law_b):
    """Two validated laws on the union of their outputs: ``(keys, log_p, log_q)``, missing outputs at -inf."""
    (ka, wa, la), (kb, wb, lb) = law_a, law_b
    if wa != wb:
        raise LawError(f"log_prob outputs have {wa} columns on D and {wb} on D_prime")
    keys, inv = np.unique(np.concatenate([ka, kb]), return_inverse=True)
    p = np.full(keys.size, -np.inf)
    q = np.full(keys.size, -np.inf)
    p[inv[: ka.size]] = la
    q[inv[ka.size :]] = lb
    return keys, p, q


def detectable_change(n, p, cells, alpha, power=0.95):
    """Smallest relative change of a cell of probability ``p`` the check detects with ``power`` (normal approx.)."""
    z = stats.norm.isf(alpha / (2 * cells)) + stats.norm.isf(1 - power)
    return float(z * math.sqrt((1 - p) / (n * p))) if n * p > 0 else math.inf


def sampler_check(mechanism, datasets, laws, n, rng, alpha, power=0.95):
    """Goodness of fit of ``mechanism.sample`` to its ``log_prob`` law on each dataset.

    Parameters
    ----------
    datasets : list of arrays
    laws : list of validated laws (:func:`validate_law`), one per dataset
    n : int
        Draws per dataset.
    rng : numpy.random.Generator
    alpha : float
        Error of the whole check (Bonferroni over every cell of every dataset).

    Returns
    -------
    dict
        ``passed``, ``reason`` (when failed), ``p_value`` (Bonferroni-adjusted minimum), the worst
        cell's expected and observed counts, and the power statement.
    """
    cell_sets = []
    for keys, width, lp in laws:
        prob = np.exp(lp)
        big = prob >= MIN_CELL
        cell_sets.append((keys, width, prob, big))
    m = sum(int(big.sum()) + int((~big).any()) for _, _, _, big in cell_sets)
    worst = None
    for i, ((keys, width, prob, big), data) in enumerate(zip(cell_sets, datasets)):
        out = np.asarray(mechanism.sample(data, n, rng))
        if out.ndim == 0 or out.shape[0] != n:
            raise LawError(f"sample(size={n}) returned shape {out.shape}")
        s_keys, s_width = row_keys(out.reshape(n, -1), n)
        if s_width != width:
            return _failed(f"sample on dataset {i} gives outputs of {s_width} columns, log_prob of {width}", m, n)
        order = np.argsort(keys)
        pos = np.minimum(np.searchsorted(keys[order], s_keys), keys.size - 1)
        hit = keys[order][pos] == s_keys
        if not hit.all():
            bad = out.reshape(n, -1)[np.flatnonzero(~hit)[0]]
            return _failed(
                f"sample on dataset {i} returned {np.array2string(bad, precision=17)}, an output "
                f"log_prob gives probability 0 ({int((~hit).sum())} of {n} draws)",
                m,
                n,
            )
        counts = np.bincount(order[pos], minlength=keys.size)
        cells_p = np.append(prob[big], prob[~big].sum()) if (~big).any() else prob[big]
        cells_k = np.append(counts[big], counts[~big].sum()) if (~big).any() else counts[big]
        cells_p = np.minimum(cells_p, 1.0)
        pv = 2 * np.minimum(stats.binom.cdf(cells_k, n, cells_p), stats.binom.sf(cells_k - 1, n, cells_p))
        j = int(np.argmin(pv))
        if worst is None or pv[j] < worst[0]:
            worst = (float(min(1.0, pv[j])), i, float(cells_p[j]), int(cells_k[j]))
    adjusted = min(1.0, worst[0] * m)
    info = {
        "draws_per_dataset": int(n),
        "datasets": len(datasets),
        "cells": m,
        "alpha": alpha,
        "p_value_bonferroni": adjusted,
        "worst_cell": {"dataset": worst[1], "probability": worst[2], "expected": worst[2] * n, "observed": worst[3]},
        "power": _power_statement(n, m, alpha, power),
    }
    info["passed"] = adjusted > alpha
    if not info["passed"]:
        info["reason"] = (
            f"sample disagrees with log_prob on dataset {worst[1]}: an outcome of probability "
            f"{worst[2]:.6g} drawn {worst[3]} times in {n} (expected {worst[2] * n:.1f}); "
            f"Bonferroni p-value {adjusted:.3g} < {alpha:g}"
        )
    return info


def _power_statement(n, m, alpha, power):
    r = detectable_change(n, 1e-3, m, alpha, power)
    return {
        "relative_change_detected_at_p_1e-3": r,
        "with_probability": power,
        "statement": f"detects a {100 * r:.3g}% change of any outcome of probability >= 1e-3 "
        f"with probability {power} (normal approximation)",
    }


def _failed(reason, m, n):
    return {"passed": False, "reason": reason, "draws_per_dataset": int(n), "cells": m, "p_value_bonferroni": 0.0}
