"""The algorithms of 002 (``hu-1`` ... ``hu-5``) as mechanisms the auditor can run.

Each :class:`~proofs_checks.model.Algorithm` carries a factory
``mechanism(variant=..., epsilon=..., delta=..., **params)`` that builds the reference implementation
with small default sizes; unknown parameters raise ``TypeError`` (the constructors' own check).  Their audit
records (what each ``audit.hu-*`` claim needs beyond the mechanism) are in :mod:`.audit_records`, registered here
beside them.
"""

from __future__ import annotations

import inspect

import numpy as np

from reference.hu.frank_wolfe import HeavyTailedDPFW, HeavyTailedPrivateLasso
from reference.hu.sparse import IHTPeelingStep, SparseLinearRegression, SparseOptimization

from ...model import Algorithm
from . import audit_records

__all__ = ["FACTORY_DELTA", "register"]

#: delta used when an (epsilon, delta) algorithm is built without one.
FACTORY_DELTA = 1e-3


def _factory(cls, defaults):
    """A mechanism factory for ``cls`` with ``defaults``; ``variant`` and ``delta`` are passed when ``cls`` takes
    them."""
    takes = inspect.signature(cls).parameters

    def factory(variant=None, epsilon=1.0, delta=None, **params):
        kw = dict(defaults)
        kw.update(params)
        if variant is not None and "variant" in takes:
            kw["variant"] = variant
        if "delta" in takes:
            kw["delta"] = FACTORY_DELTA if delta is None else delta
        return cls(epsilon=epsilon, **kw)

    return factory


def _peeling_step_factory(
    variant=None, epsilon=1.0, delta=FACTORY_DELTA, *, w=None, m=None, d=4, K=1.0, s=2, eta0=0.5, lam=None
):
    """Peeling of one Algorithm 3 iteration [002 Alg. 3 step 6] at iterate ``w`` (default 0)."""
    w = np.zeros(d) if w is None else np.asarray(w, dtype=np.float64)

    class _PeelingAtIterate:
        """Peeling of Algorithm 3 at iterate ``w``; ``m`` is taken from the data when not given."""

        finite_output = True
        # log_prob enumerates ordered supports by quadrature: the auditor keeps its search small.
        expensive_log_prob = True

        def _step(self, data):
            rows = np.asarray(data).shape[0] if m is None else m
            return IHTPeelingStep(w=w, m=rows, epsilon=epsilon, delta=delta, K=K, s=s, eta0=eta0, lam=lam)

        def log_prob(self, data):
            return self._step(data).log_prob(data)

        def sample(self, data, size, rng=None):
            return self._step(data).sample(data, size, rng)

    return _PeelingAtIterate()


def register(registry):
    """Add ``hu-1`` ... ``hu-5`` and, beside them, their audit records (:mod:`.audit_records`)."""
    add = registry.add_algorithm
    add(
        Algorithm(
            "hu-1",
            "[002 Alg. 1]",
            "Heavy-tailed DP-FW: robust gradient + exponential mechanism over V, disjoint parts, eta = 2/(t+2)",
            variants=("standard", "printed"),
            mechanism=_factory(HeavyTailedDPFW, {"d": 2, "T": 2, "s": 1.0, "beta": 1.0, "loss": "squared"}),
            privacy_knob=("selection log-weight", 1.0),
        )
    )
    add(
        Algorithm(
            "hu-2",
            "[002 Alg. 2]",
            "Heavy-tailed private LASSO: shrink at K, exponential-mechanism FW, "
            "per-step budget by advanced composition",
            variants=("printed", "lemma2", "standard"),
            mechanism=_factory(HeavyTailedPrivateLasso, {"d": 2, "T": 2, "K": 1.0}),
            default_delta=1e-5,
            privacy_knob=("epsilon", 1.0),
        )
    )
    add(
        Algorithm(
            "hu-3",
            "[002 Alg. 3]",
            "Heavy-tailed private sparse linear regression: shrink, DP-IHT with Peeling, l2 projection",
            mechanism=_factory(SparseLinearRegression, {"d": 4, "T": 2, "K": 1.0, "s": 2, "eta0": 0.5}),
            default_delta=1e-5,
            privacy_knob=("Peeling noise scale", -1.0),
        )
    )
    add(
        Algorithm(
            "hu-4",
            "[002 Alg. 4], [002 Alg. 3 step 6]",
            "Peeling selection of one IHT iteration on shrunken records (exact law of the ordered support)",
            mechanism=_peeling_step_factory,
            default_delta=1e-5,
            privacy_knob=("Peeling noise scale", -1.0),
        )
    )
    add(
        Algorithm(
            "hu-5",
            "[002 Alg. 5]",
            "Heavy-tailed private sparse optimisation: robust gradient + Peeling",
            variants=("standard", "printed"),
            mechanism=_factory(SparseOptimization, {"d": 4, "T": 2, "s": 2, "k": 1.0, "beta": 1.0, "eta": 0.5}),
            default_delta=1e-5,
            privacy_knob=("Peeling noise scale", -1.0),
        )
    )
    audit_records.register(registry)
