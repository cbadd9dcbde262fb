"""Floating-point attacks: outputs a float64 sampler can or cannot produce, and the lattice of their low bits.

A mechanism computing ``q + noise`` in float64, the noise drawn by inverting a CDF at a uniform double ``U``
(``k 2^-53``, ``k`` an integer, as ``numpy.random.Generator.random`` and Python's ``random.random`` draw it), can
only output the values ``fl(q + noise(k))``.  Which values those are depends on ``q``: an output reachable from
``q(D)`` may be unreachable from ``q(D')``, an event of probability 0 under ``D'`` (Mironov 2012).  Two kinds of
candidate statistics find it, registered as the attack ``"float"``:

* **reachability** (:class:`Reachability`): for each sampler model of :data:`SAMPLERS` whose centre and scale
  fit the fitting rows of both datasets (every one of :data:`FIT_ROWS` rows reproduced bit for bit), the
  statistic ``reachable from D's centre - reachable from D''s centre`` (values -1, 0, 1);
* **lattice** (:class:`LowestBit`): the exponent of the lowest set bit of the output, and the number of
  significant bits, each with its negative: ``fl(1 + n)`` is a multiple of ``2^-53`` whatever ``n``, ``fl(0 + n)``
  is not, so the output's granularity tells the centres apart without any sampler model.

They are candidates like any other (the proof note of :mod:`~proofs_checks.audit.classifiers`): the event is
chosen on the selection split and tested once on a fresh estimation split, so the confidence holds whether or
not a sampler model is right.  ``"float"`` is not in ``attack="auto"`` (the audited claims are about real
arithmetic; a float artefact would refute them all): ``attack="float"`` runs these statistics alone and
``attack="auto-float"`` lets them compete with every attack of ``"auto"``.

References
----------
.. [1] I. Mironov, "On significance of the least significant bits for differential privacy", CCS 2012.
.. [2] numpy ``random_laplace`` (``numpy/random/src/distributions/distributions.c``): ``U = next_double``;
       ``loc - scale log(2 - U - U)`` for ``U >= 0.5``, ``loc + scale log(U + U)`` for ``0 < U < 0.5``.

Examples
--------
>>> rng = np.random.default_rng(0)
>>> x = 1.0 + rng.laplace(0.0, 1.0, 2000)
>>> bool(SAMPLERS["numpy-laplace"].reachable(x, 1.0, 1.0).all())
True
>>> float(SAMPLERS["numpy-laplace"].reachable(x, 0.0, 1.0).mean()) < 0.8
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np
from scipy import special

from .attacks import register_attack
from .classifiers import attack_fits  # registers the auditor's own attacks first: theirs stay first in order

__all__ = [
    "SAMPLERS",
    "Sampler",
    "Reachability",
    "LowestBit",
    "lowest_set_bit",
    "significant_bits",
    "fit_sampler",
    "float_fits",
    "FIT_ROWS",
]

#: Fitting rows on which a sampler model (centre, scale) must reproduce every output bit for bit.
FIT_ROWS = 256
#: Candidate integers ``k`` tried on each side of the inverse CDF's estimate of ``k``.
_WINDOW = 6
#: Integers ``k`` per ulp of the output above which every float in reach is produced (consecutive ``k`` move
#: the noise by less than a quarter ulp, so no float is skipped).
_DENSE = 4.0
_TWO53 = 2.0**53


def _identity(t):
    return t


def _up(t):
    return np.nextafter(t, np.inf)


def _down(t):
    return np.nextafter(t, -np.inf)


#: The transcendental function's value and its two neighbours: numpy's vectorised ``log`` (SIMD) and the C
#: library's differ by one ulp on about 0.5% of arguments (measured: 11 of 2000 on AVX-512), and a mechanism may
#: use either.
_NUDGES = (_identity, _up, _down)


def lowest_set_bit(x):
    """Exponent ``e`` of the lowest set bit of each float64 (``x = m 2^e``, ``m`` odd); 0 and non-finite give 0.

    Examples
    --------
    >>> lowest_set_bit(np.array([1.0, 0.75, 2.0**-60, 0.0])).tolist()
    [0.0, -2.0, -60.0, 0.0]
    """
    x = np.asarray(x, dtype=np.float64)
    mant, expo = np.frexp(np.where(np.isfinite(x), x, 0.0))
    m = np.abs(mant * _TWO53).astype(np.int64)  # an integer below 2^53, exactly
    # trailing zeros of m: the lowest set bit m & -m is a power of two, its log2 exact
    low = np.log2(np.maximum(m & -m, 1).astype(np.float64))
    return np.where(m > 0, expo - 53 + low, 0.0)


def significant_bits(x):
    """Bits from the leading to the lowest set bit of each float64 (1 for powers of two; 0 for 0 and non-finite).

    Examples
    --------
    >>> significant_bits(np.array([1.0, 0.75, 1.0 + 2.0**-52, 0.0])).tolist()
    [1.0, 2.0, 53.0, 0.0]
    """
    x = np.asarray(x, dtype=np.float64)
    finite = np.isfinite(x) & (x != 0)
    _, expo = np.frexp(np.where(finite, x, 1.0))
    return np.where(finite, expo - lowest_set_bit(x), 0.0)


@dataclass(frozen=True)
class Sampler:
    """A float64 sampler ``x = forward(q, b, U)``, ``U = k 2^-53``, with the inverse CDF and density it inverts.

    Parameters
    ----------
    name : str
        Its name in the report.
    forward : callable
        ``forward(q, b, U, nudge) -> x``, the sampler's own float operations in their order, ``nudge`` applied to
        the value of its transcendental function (one ulp either way: :data:`_NUDGES`).
    lower_tail : callable
        ``lower_tail(z) -> P(Z <= z)`` of the standard noise ``Z`` (for ``z <= 0``, accurate in the tail).
    density : callable
        ``density(z)`` of the standard noise.
    """

    name: str
    forward: Callable
    lower_tail: Callable
    density: Callable

    def reachable(self, x, q, b):
        """Whether each output ``x`` is ``forward(q, b, k 2^-53)`` for some integer ``0 < k < 2^53``.

        Parameters
        ----------
        x : array_like of float
            Outputs.
        q, b : float
            The centre and the scale.

        Returns
        -------
        ndarray of bool

        Examples
        --------
        >>> s = SAMPLERS["textbook-laplace"]
        >>> x = s.forward(0.0, 1.0, np.arange(1, 2000) * 2.0**-53, lambda t: t)
        >>> bool(s.reachable(x, 0.0, 1.0).all()), bool(s.reachable(x, 1.0, 1.0).any())
        (True, False)
        """
        x = np.asarray(x, dtype=np.float64).ravel()
        finite = np.isfinite(x)
        xs = np.where(finite, x, q)
        z = (xs - q) / b
        # k from the tail on the output's side: exact enough near U = 0 and near U = 1
        k0 = np.where(z <= 0, self.lower_tail(z) * _TWO53, _TWO53 - self.lower_tail(-z) * _TWO53)
        span = self.density(z) / b * np.spacing(np.abs(xs)) * _TWO53
        k = np.floor(k0)[:, None] + np.arange(-_WINDOW, _WINDOW + 1)[None, :]
        k = np.clip(k, 1.0, _TWO53 - 1.0)
        u = k * 2.0**-53
        hit = np.zeros(x.shape, dtype=bool)
        with np.errstate(divide="ignore", invalid="ignore"):
            for nudge in _NUDGES:
                hit |= (self.forward(q, b, u, nudge) == xs[:, None]).any(axis=1)
        return finite & (hit | (span >= _DENSE))


def _numpy_laplace(q, b, u, nudge):
    with np.errstate(divide="ignore"):
        return np.where(u >= 0.5, q - b * nudge(np.log(2.0 - u - u)), q + b * nudge(np.log(u + u)))


def _textbook_laplace(q, b, u, nudge):
    v = u - 0.5
    with np.errstate(divide="ignore"):
        return q + -b * np.sign(v) * nudge(np.log(1.0 - 2.0 * np.abs(v)))


def _laplace_lower_tail(z):
    return 0.5 * np.exp(np.minimum(z, 0.0))


def _laplace_density(z):
    return 0.5 * np.exp(-np.abs(z))


def _gaussian_ppf(q, b, u, nudge):
    return q + b * nudge(special.ndtri(u))


def _gaussian_density(z):
    return np.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)


#: The sampler models: numpy's ``Generator.laplace``; the textbook inverse CDF ``q - b sgn(v) log(1 - 2|v|)``,
#: ``v = U - 1/2``; the Gaussian inverse CDF ``q + b ndtri(U)`` (``scipy.stats.norm.ppf``).
SAMPLERS = {
    "numpy-laplace": Sampler("numpy-laplace", _numpy_laplace, _laplace_lower_tail, _laplace_density),
    "textbook-laplace": Sampler("textbook-laplace", _textbook_laplace, _laplace_lower_tail, _laplace_density),
    "gaussian-inverse-cdf": Sampler("gaussian-inverse-cdf", _gaussian_ppf, special.ndtr, _gaussian_density),
}


def _nice(value):
    """Round numbers near ``value``: 1 and 2 significant digits, their reciprocals', and 0 (candidate centres
    and scales of a mechanism written as ``count + Lap(sensitivity / epsilon)``)."""
    out = {0.0}
    if not math.isfinite(value) or value == 0:
        return out
    for digits in (1, 2):
        for v in (value, 1.0 / value):
            scale = 10.0 ** (digits - 1 - math.floor(math.log10(abs(v))))
            r = round(v * scale)
            if r:
                out.add(r / scale if v is value else scale / r)
    return out


def fit_sampler(x, sampler, *, rows=FIT_ROWS):
    """The centre and scale (``q``, ``b``) among round candidates that reproduce every one of ``rows`` outputs.

    Parameters
    ----------
    x : array_like of float
        Fitting outputs (one column).
    sampler : Sampler
        The model.
    rows : int
        Outputs that must all be reachable.

    Returns
    -------
    tuple of float or None
        ``(q, b)``, the first candidate reproducing all rows with the most of them off the dense part (where
        the test tells centres apart); None when no candidate reproduces them all.

    Examples
    --------
    >>> x = 3.0 + np.random.default_rng(1).laplace(0.0, 2.0, 500)
    >>> fit_sampler(x, SAMPLERS["numpy-laplace"])
    (3.0, 2.0)
    """
    x = np.asarray(x, dtype=np.float64).ravel()
    x = x[np.isfinite(x)][:rows]
    if x.size < min(rows, 32):
        return None
    med = float(np.median(x))
    spread = float(np.mean(np.abs(x - med))) if "laplace" in sampler.name else float(np.std(x))
    if not spread > 0:
        return None
    centres = (_nice(med) - {0.0}) | {med, float(np.round(med))} | ({0.0} if abs(med) < spread else set())
    scales = sorted(s for s in _nice(spread) if 0.5 * spread < s < 2 * spread)
    for b in scales:
        for q in sorted(centres, key=lambda c: abs(c - med)):
            if sampler.reachable(x, q, b).all():
                return q, b
    return None


class Reachability:
    """``reachable(x; q_D) - reachable(x; q_D')`` for one sampler model: -1, 0 or 1 per output.

    Parameters
    ----------
    sampler : Sampler
    fit_a, fit_b : tuple of float
        ``(q, b)`` fitted on each dataset's fitting rows.
    """

    def __init__(self, sampler, fit_a, fit_b):
        self.sampler, self.fit_a, self.fit_b = sampler, fit_a, fit_b
        self.name = f"float reachability ({sampler.name}, centres {fit_a[0]:g} / {fit_b[0]:g}, scale {fit_a[1]:g})"

    def __call__(self, outputs):
        x = np.asarray(outputs, dtype=np.float64).reshape(len(outputs), -1)[:, 0]
        ra = self.sampler.reachable(x, *self.fit_a)
        rb = self.sampler.reachable(x, *self.fit_b)
        return ra.astype(np.float64) - rb.astype(np.float64)


class LowestBit:
    """A lattice statistic of the first output column: ``sign * lowest_set_bit`` or ``sign * significant_bits``."""

    def __init__(self, kind, sign):
        if kind not in ("lowest set bit", "significant bits"):
            raise ValueError(f"kind must be 'lowest set bit' or 'significant bits', got {kind!r}")
        self.kind, self.sign = kind, float(sign)
        self.name = f"float lattice: {'' if sign > 0 else 'minus '}{kind}"

    def __call__(self, outputs):
        x = np.asarray(outputs, dtype=np.float64).reshape(len(outputs), -1)[:, 0]
        f = lowest_set_bit if self.kind == "lowest set bit" else significant_bits
        return self.sign * f(x)


def _reachability_candidates(a, b) -> list:
    out = []
    for sampler in SAMPLERS.values():
        fa: Optional[tuple] = fit_sampler(a, sampler)
        fb = fit_sampler(b, sampler) if fa is not None else None
        if fa is not None and fb is not None and fa[0] != fb[0]:
            out.append(Reachability(sampler, fa, fb))
    return out


def float_fits(a, b):
    """The fits of the ``"float"`` attack (one-column float outputs only): the lattice statistics, and the
    reachability statistics of the sampler models that fit both datasets.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> a, b = rng.laplace(0, 1, (400, 1)), 1.0 + rng.laplace(0, 1, (400, 1))
    >>> [s.name for fit in float_fits(a, b) for s in fit()][-1]
    'float reachability (numpy-laplace, centres 0 / 1, scale 1)'
    """
    a = np.asarray(a, dtype=np.float64).reshape(len(a), -1)
    b = np.asarray(b, dtype=np.float64).reshape(len(b), -1)
    if a.shape[1] != 1:
        return []

    def lattice():
        return [LowestBit(kind, s) for kind in ("lowest set bit", "significant bits") for s in (1.0, -1.0)]

    return [lattice, lambda: _reachability_candidates(a[:, 0], b[:, 0])]


register_attack(
    "float",
    "floating-point artefacts of one-column outputs: values a float sampler reaches from one centre only, "
    "and the lattice of the low bits",
    float_fits,
    in_auto=False,
    builtin=True,
)


def _auto_and_float_fits(a, b):
    return attack_fits(a, b, "auto") + float_fits(a, b)


register_attack(
    "auto-float",
    "every attack of auto, and the float attack competing with them",
    _auto_and_float_fits,
    in_auto=False,
    builtin=True,
)
