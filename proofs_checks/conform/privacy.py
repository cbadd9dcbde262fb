"""The port's mechanisms through the auditor (:func:`proofs_checks.audit.api.audit`).

Finite-output mechanisms are audited **exactly** from the port's own log-probabilities on fixed
neighbouring inputs (every score moved by at most its sensitivity, in the worst-case sign patterns):
the verdict is ``refuted`` when the exact privacy loss exceeds the claimed epsilon (at delta, by the
hockey-stick divergence) beyond float64 rounding.  The Laplace mechanism is audited statistically from
the port's sampler on the pair ``(q, q + Delta)`` (a lower confidence bound on epsilon).
"""

from __future__ import annotations

from typing import Collection, Optional

import numpy as np

from reference import mechanisms as M

from ..audit.api import audit
from .functions import audited_functions
from .samplers import INSTANCES

__all__ = ["run_privacy", "PRIVACY_INSTANCES", "PRIVACY_CHECKS"]

#: Claimed privacy of each audited mechanism (epsilon below 1 so that slips in epsilon's power show).
PRIVACY_INSTANCES = {
    "exponential_log_prob": {"epsilon": 0.5, "sensitivity": 1.0},
    "report_noisy_max_log_prob": {"epsilon": 0.5, "sensitivity": 1.0},
    "gem_log_prob": {"epsilon": 0.5, "beta": 0.1},
    "peeling_support_log_prob": {"epsilon": 0.5, "delta": 1e-3, "lam": 0.1, "s": 2},
    "laplace_mechanism": {"epsilon": 0.5, "sensitivity": 1.0},
}


class _FiniteMechanism:
    def __init__(self, log_prob_fn, n_outputs):
        self._fn, self._k = log_prob_fn, n_outputs

    def log_prob(self, data):
        out = self._fn(np.asarray(data, dtype=np.float64))
        logp = np.asarray(out[1] if isinstance(out, tuple) else out, dtype=np.float64).ravel()
        outputs = np.asarray(out[0]) if isinstance(out, tuple) else np.arange(logp.size)
        return outputs, logp

    def sample(self, data, size, rng=None):  # the exact audit never samples; required by the protocol
        outputs, logp = self.log_prob(data)
        gen = np.random.default_rng(rng)
        return outputs[gen.choice(len(logp), size=size, p=np.exp(logp) / np.exp(logp).sum())]


class _LaplacePort:
    def __init__(self, port, sensitivity, epsilon):
        self._port, self._sens, self._eps = port, sensitivity, epsilon

    def sample(self, data, size, rng=None):
        q = np.asarray(data, dtype=np.float64)
        return np.asarray(self._port.laplace_mechanism(q, self._sens, self._eps, size, rng)).reshape(size, -1)


def _sign_pairs(x, step):
    """``(x, x + step * pattern)`` for the patterns +e_j - (others), +e_j, -e_j (worst cases of argmax laws)."""
    pairs = []
    k = x.size
    for j in range(k):
        e = np.zeros(k)
        e[j] = 1.0
        for pattern in (2.0 * e - 1.0, e, -e, 1.0 - 2.0 * e):
            pairs.append((x, x + step * pattern, f"scores moved by {(step * pattern).round(6).tolist()}"))
    return pairs


def _peeling_pairs(v, lam):
    """|v_j| raised by lam and every other |v_i| lowered (and the reverse), for the three largest |v_j|."""
    pairs = []
    for j in np.argsort(-np.abs(v))[:3]:
        pattern = -np.ones(v.size)
        pattern[j] = 1.0
        for sgn in (1.0, -1.0):
            pairs.append(
                (
                    v,
                    v + sgn * lam * np.sign(v) * pattern,
                    f"|v_{j}| {'+' if sgn > 0 else '-'} lam, others {'-' if sgn > 0 else '+'} lam",
                )
            )
    return pairs


def _audit_record(name, res, claimed):
    rec = {
        "kind": "privacy",
        "function": name,
        "case": f"{name}/audit",
        "method": res.method,
        "epsilon_claimed": claimed,
        "epsilon_lower": res.epsilon_lower,
        "pair": res.pair,
    }
    if res.verdict == "refuted":
        how = "exact privacy loss" if res.method == "exact" else f"lower {res.confidence:.0%} confidence bound"
        return dict(
            rec,
            status="failed",
            message=(
                f"{name}: privacy refuted by the auditor: {how} "
                f"{res.epsilon_lower:.4g} > claimed epsilon {claimed:g} "
                f"on {res.pair}"
            ),
        )
    return dict(rec, status="passed")


def _exponential(port, samples, seed):
    i, u = PRIVACY_INSTANCES["exponential_log_prob"], INSTANCES["exponential_sample"]["scores"]
    mech = _FiniteMechanism(lambda d: port.exponential_log_prob(d, i["epsilon"], i["sensitivity"]), u.size)
    return audit(mech, epsilon=i["epsilon"], pairs=_sign_pairs(u, i["sensitivity"]), any_pair=True, seed=seed)


def _report_noisy_max(port, samples, seed):
    i, u = PRIVACY_INSTANCES["report_noisy_max_log_prob"], INSTANCES["report_noisy_max"]["scores"]
    scale_fn = getattr(port, "report_noisy_max_scale", M.report_noisy_max_scale)
    scale = scale_fn(i["sensitivity"], i["epsilon"])
    mech = _FiniteMechanism(lambda d: port.report_noisy_max_log_prob(d, scale), u.size)
    return audit(mech, epsilon=i["epsilon"], pairs=_sign_pairs(u, i["sensitivity"]), any_pair=True, seed=seed)


def _gem(port, samples, seed):
    i, inst = PRIVACY_INSTANCES["gem_log_prob"], INSTANCES["gem_sample"]
    g, q = inst["sensitivities"], inst["scores"]
    pairs = [(q, q + g * (b - q), desc) for _, b, desc in _sign_pairs(q, 1.0)]
    mech = _FiniteMechanism(lambda d: port.gem_log_prob(g, d, i["epsilon"], i["beta"]), q.size)
    return audit(mech, epsilon=i["epsilon"], pairs=pairs, any_pair=True, seed=seed)


def _peeling_support(port, samples, seed):
    i, v = PRIVACY_INSTANCES["peeling_support_log_prob"], INSTANCES["peeling"]["v"]
    mech = _FiniteMechanism(
        lambda d: port.peeling_support_log_prob(d, i["s"], i["epsilon"], i["delta"], i["lam"]), None
    )
    return audit(
        mech, epsilon=i["epsilon"], delta=i["delta"], pairs=_peeling_pairs(v, i["lam"]), any_pair=True, seed=seed
    )


def _laplace(port, samples, seed):
    i, q = PRIVACY_INSTANCES["laplace_mechanism"], np.array([0.0])
    return audit(
        _LaplacePort(port, i["sensitivity"], i["epsilon"]),
        epsilon=i["epsilon"],
        pairs=[(q, q + i["sensitivity"], "q = 0 vs q = sensitivity")],
        any_pair=True,
        samples=samples,
        seed=seed,
        method="statistical",
    )


#: ``{mechanism: audit(port, samples, seed) -> AuditResult}``: the audit of each function declared ``audited`` in
#: :mod:`.functions`, on its instance of :data:`PRIVACY_INSTANCES` (the port provides a function of that name).
PRIVACY_CHECKS = {
    "exponential_log_prob": _exponential,
    "report_noisy_max_log_prob": _report_noisy_max,
    "gem_log_prob": _gem,
    "peeling_support_log_prob": _peeling_support,
    "laplace_mechanism": _laplace,
}


def run_privacy(
    port: object, *, samples: int = 20_000, seed: int = 0, only: Optional[Collection[str]] = None
) -> list[dict]:
    """One record per audited mechanism: ``passed`` (not refuted), ``failed`` (refuted, with the loss) or ``skipped``.

    Parameters
    ----------
    port : module or object
        The port; a mechanism it does not provide is ``skipped``.
    samples : int
        Calls of the sampler in the statistical audit (the Laplace mechanism).
    seed : int
        Seed of the audits.
    only : collection of str, optional
        Audit only these mechanisms.

    Returns
    -------
    list of dict
        ``kind`` (``"privacy"``), ``function``, ``case``, ``status``, ``message``, and for an audit that ran
        ``method``, ``epsilon_claimed``, ``epsilon_lower`` and ``pair``.

    Raises
    ------
    ValueError
        If a declared mechanism has no audit in :data:`PRIVACY_CHECKS`.

    Examples
    --------
    >>> import types
    >>> [r["status"] for r in run_privacy(types.ModuleType("empty"))]
    ['skipped', 'skipped', 'skipped', 'skipped', 'skipped']
    """
    records = []
    for function in audited_functions():
        name = function.name
        if only and name not in only:
            continue
        if name not in PRIVACY_CHECKS:
            raise ValueError(f"the mechanism {name!r} is declared audited but PRIVACY_CHECKS has no audit for it")
        rec = {"kind": "privacy", "function": name, "case": f"{name}/audit"}
        if not callable(getattr(port, name, None)):
            records.append(dict(rec, status="skipped", message="not provided by the port"))
            continue
        try:
            records.append(
                _audit_record(name, PRIVACY_CHECKS[name](port, samples, seed), PRIVACY_INSTANCES[name]["epsilon"])
            )
        except Exception as exc:  # a port that raises fails, with the reason
            records.append(dict(rec, status="failed", message=f"{name}: the audit raised {type(exc).__name__}: {exc}"))
    return records
