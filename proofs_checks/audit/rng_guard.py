"""Does a mechanism draw its randomness from the ``rng`` it is given?  A probe before a statistical audit.

The audit's reproducibility and the independence of its selection and estimation splits rest on
``sample(data, size, rng)`` drawing from ``rng``: each chunk of each split gets its own child seed
(:mod:`~proofs_checks.audit.sampling`).  Mechanisms that ignore it break this silently:

* **an own source** (OpenDP draws from its own CSPRNG; an object holding a ``RandomState`` advanced across
  calls): the same child seed twice gives different outputs.  The draws are still fresh at every call, so
  the audit stays valid when every split is drawn in its own calls in one process (a held stream copied
  into worker processes would repeat itself), but it cannot be reproduced from its seed;
* **a fixed stream** (``RandomState(0)`` made inside each call): different seeds give identical outputs
  that vary within a call, so the estimation split would repeat the selection split, and the
  confidence of the bound would not hold.  Such a mechanism cannot be audited.

:func:`probe_rng_use` calls ``sample`` four times on :data:`PROBE_SIZE` outputs: twice with generators of one
seed, once with another seed, once more with the first.  A mechanism whose outputs do not vary within a call
and across seeds is deterministic: nothing to guard.

References
----------
.. [1] Z. Ding, Y. Wang, G. Wang, D. Zhang and D. Kifer, "Detecting violations of differential
       privacy", CCS 2018 (the selection and estimation samples must be independent).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["PROBE_SIZE", "RngUse", "probe_rng_use"]

#: Outputs per probing call.
PROBE_SIZE = 16


@dataclass(frozen=True)
class RngUse:
    """How a mechanism uses its ``rng`` (:func:`probe_rng_use`).

    ``kind`` is ``"seeded"`` (the same seed gives the same outputs, another seed others), ``"deterministic"``
    (no randomness seen), ``"own-source"`` (the same seed gives different outputs) or ``"fixed-stream"``
    (different seeds give the same varying outputs); ``message`` says so in one sentence.
    """

    kind: str
    message: str

    @property
    def reproducible(self) -> bool:
        """True when the audit can be reproduced from its seed (``seeded`` or ``deterministic``)."""
        return self.kind in ("seeded", "deterministic")


def _same(x, y):
    x, y = np.asarray(x), np.asarray(y)
    return x.shape == y.shape and bool(np.array_equal(x, y, equal_nan=np.issubdtype(x.dtype, np.floating)))


def probe_rng_use(mechanism, data, seed=0, size=PROBE_SIZE) -> RngUse:
    """Probe whether ``mechanism.sample(data, size, rng)`` draws from ``rng``.

    Parameters
    ----------
    mechanism : object
        With ``sample(data, size, rng)``.
    data : array_like
        A dataset the mechanism runs on.
    seed : int
        Seed of the probe's generators (the second uses ``seed + 1``).
    size : int
        Outputs per call.

    Returns
    -------
    RngUse

    Examples
    --------
    >>> class Seeded:
    ...     def sample(self, data, size, rng):
    ...         return rng.normal(size=(size, 1))
    >>> class OwnSource:
    ...     def __init__(self):
    ...         self.state = np.random.RandomState(0)
    ...     def sample(self, data, size, rng):
    ...         return self.state.normal(size=(size, 1))
    >>> class FixedStream:
    ...     def sample(self, data, size, rng):
    ...         return np.random.RandomState(0).normal(size=(size, 1))
    >>> [probe_rng_use(m(), [[0.0]]).kind for m in (Seeded, OwnSource, FixedStream)]
    ['seeded', 'own-source', 'fixed-stream']
    """

    def draw(s):
        return np.asarray(mechanism.sample(data, size, np.random.default_rng(np.random.SeedSequence([seed, s]))))

    first, again, other = draw(0), draw(0), draw(1)
    varies = first.shape[0] > 1 and not all(_same(first[0], row) for row in first[1:])
    if not _same(first, again):
        return RngUse(
            "own-source",
            "sample() ignores its rng: the same seed gave different outputs (an own random source, e.g. a "
            "CSPRNG or a RandomState held by the object); the audit cannot be reproduced from its seed",
        )
    if _same(first, other):
        if varies or not _same(first, draw(0)):
            return RngUse(
                "fixed-stream",
                "sample() ignores its rng: different seeds gave the same varying outputs (a fixed internal "
                "stream); the estimation split would repeat the selection split, so no bound holds",
            )
        return RngUse("deterministic", "sample() gave the same output for every draw and seed (deterministic)")
    return RngUse("seeded", "sample() draws from its rng")
