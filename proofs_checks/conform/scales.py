"""What a conformance tolerance is: the :class:`Tol` record and the scales an error is measured against.

A tolerance is ``Tol(ulps, scale, why)``: ``|port - golden| <= ulps * ulp(scale)``, where ``ulp(x)`` is the
spacing of float64 at ``|x|`` (``numpy.spacing``) and ``scale`` names what sets the size of the error:

* ``"value"``: the expected value itself (a relative tolerance);
* ``"case"``: the largest finite ``|expected|`` of the case's array (errors of sums and log-sum-exp are
  relative to their largest term);
* a number: an absolute tolerance expressed in ulps of that number;
* a :class:`Scale`: a number or an array computed from the case's inputs (a constant, ``log(theta)``, the
  size of the terms a printed formula cancels), named in words for the porting guide.

``ulps = 0`` means bit-exact.  Laws (golden cases compared as ``law``) compare log-probabilities within
``law_atol`` (absolute) after matching the outputs.  ``variants`` holds the tolerance of a ``variant=``
keyword where it differs; ``nonfinite_compared = False`` skips non-finite golden values (the printed form is
undefined there); ``bound`` is a :class:`Scale` no output may exceed in absolute value.

The declaration of the port functions (:mod:`.functions`) gives each function its ``Tol``;
:mod:`.tolerances` turns them into the table the kit reads.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Mapping, NamedTuple, Optional, Sequence

import numpy as np

from reference.wang_xu.l1_regression import log_weights

__all__ = [
    "PHI_BOUND",
    "Scale",
    "Tol",
    "c_hat_scale",
    "printed_mean_scale",
    "standard_mean_scale",
    "psi_scale",
    "gem_terms_scale",
    "exponential_logit_scale",
    "gem_logit_scale",
    "wang_xu_logit_scale",
]

#: ``B = 2 sqrt(2)/3``, the bound of phi and of E[phi] ([002 eq. (2)]): the privacy proof's sensitivity.
PHI_BOUND = 2.0 * math.sqrt(2.0) / 3.0


class Scale:
    """A scale computed from a case's inputs, with the words the porting guide uses for it.

    Parameters
    ----------
    label : str
        How the guide names the scale (``"B = 2 sqrt(2)/3"``).
    of : callable
        ``of(args, kwargs)`` -> float or float64 array (broadcast against the expected value).

    Raises
    ------
    TypeError
        If ``label`` is not a non-empty string or ``of`` is not callable.

    Examples
    --------
    >>> s = Scale.constant(2.0, "two")
    >>> s([], {}), s.label
    (2.0, 'two')
    """

    __slots__ = ("label", "of")

    def __init__(self, label: str, of: Callable[[Sequence[Any], Mapping[str, Any]], Any]) -> None:
        if not isinstance(label, str) or not label:
            raise TypeError(f"label must be a non-empty string, got {label!r}")
        if not callable(of):
            raise TypeError(f"of must be callable as of(args, kwargs), got {of!r}")
        self.label, self.of = label, of

    @classmethod
    def constant(cls, value, label):
        """A scale that does not depend on the inputs (``value``, a float)."""
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise TypeError(f"value must be a finite number, got {value!r}")
        value = float(value)
        return cls(label, lambda args, kwargs: value)

    def __call__(self, args, kwargs):
        return self.of(args, kwargs)

    def __repr__(self):
        return f"Scale({self.label!r})"


class Tol(NamedTuple):
    """The stated tolerance of one port function: ``|port - golden| <= ulps * ulp(scale)``.

    Parameters
    ----------
    ulps : float
        Allowed error in units in the last place of ``scale`` (0: bit-exact).
    scale : {"value", "case"}, float or Scale
        What sets the size of the error: the expected value, the largest finite ``|expected|`` of the case,
        a number, or a :class:`Scale` computed from the inputs (see the module's description).
    why : str
        The reason for the tolerance, shown in the porting guide.
    law_atol : float
        Absolute tolerance of log-probabilities, for laws.
    variants : mapping of str to Tol, optional
        The tolerance of a ``variant=`` keyword where it differs.
    nonfinite_compared : bool
        False skips non-finite golden values (the printed form is undefined there).
    bound : Scale, optional
        A bound no output may exceed in absolute value.

    Examples
    --------
    >>> tol = Tol(2, "value", "one exp and a division, each within its ulp")
    >>> tol.ulps, tol.law_atol, tol._replace(ulps=4).ulps
    (2, 0.0, 4)
    """

    ulps: float
    scale: object  # "value" | "case" | float | Scale (or any callable(args, kwargs))
    why: str
    law_atol: float = 0.0
    variants: Optional[Mapping[str, "Tol"]] = None
    nonfinite_compared: bool = True
    bound: Optional[Scale] = None


def c_hat_scale(args, kwargs):
    """Size of the terms the printed C-hat cancels: ``|a|(1 + b^2/2) + |a|^3/6 + b^3 + B`` ([002 App. A]).

    Parameters
    ----------
    args : sequence
        ``(a, b, ...)``: the arguments of ``c_hat``.
    kwargs : mapping
        Unused (the signature of every input scale).

    Returns
    -------
    numpy.ndarray
        The scale at each ``(a, b)``.

    Examples
    --------
    >>> float(c_hat_scale([0.0, 0.0], {})) == PHI_BOUND
    True
    """
    a, b = (np.abs(np.asarray(x, dtype=np.float64)) for x in args[:2])
    with np.errstate(all="ignore"):
        return a * (1.0 + b * b / 2.0) + a**3 / 6.0 + b**3 + PHI_BOUND


def printed_mean_scale(args, kwargs):
    """``s`` times the C-hat scale of the printed robust mean's terms ``(x/s, |x|/(s sqrt beta))``, per column.

    Parameters
    ----------
    args : sequence
        ``(x, s, beta)`` of ``robust_mean`` / ``robust_gradient``.
    kwargs : mapping
        ``axis`` (default 0): the axis the mean runs over.

    Returns
    -------
    numpy.ndarray
        The largest term's scale over the averaged axis, times ``s``.

    Examples
    --------
    >>> float(printed_mean_scale([[0.0, 0.0], 2.0, 1.0], {})) == 2.0 * PHI_BOUND
    True
    """
    x, s, beta = np.asarray(args[0], dtype=np.float64), float(args[1]), float(args[2])
    with np.errstate(all="ignore"):
        terms = c_hat_scale([x / s, np.abs(x) / (s * math.sqrt(beta))], {})
    return s * np.max(terms, axis=kwargs.get("axis", 0))


def standard_mean_scale(args, kwargs):
    """``s B``: the standard robust mean is ``s`` times a mean of E[phi] terms, each in ``[-B, B]``.

    Examples
    --------
    >>> standard_mean_scale([None, 3.0, 0.5], {}) == 3.0 * PHI_BOUND
    True
    """
    return float(args[1]) * PHI_BOUND


def psi_scale(args, kwargs):
    """``max(log(theta), 1/2)`` (``theta`` keyword, default 2): the range of psi ([000 eq. (6)], [000 eq. (16)]),
    floored at the size of the terms ``1``, ``t`` and ``t^theta/theta`` a float64 evaluation of
    ``-log(1 - t + t^theta/theta)`` sums.

    As ``theta -> 1`` the range ``log(theta)`` shrinks but the argument of the log is still rounded at the scale
    of 1, so the absolute error stays near ``ulp(1/2)`` (mpmath at 50 digits: the reference and the numpy port are
    1.06 ulps of 1/2 off at theta = 1 + 1e-4, which is 8,720 ulps of log(theta)); at theta = 2 the scale is
    ``log 2``, in the binade of 1/2.

    Examples
    --------
    >>> psi_scale([0.5], {"theta": 2.0}) == math.log(2.0), psi_scale([0.5], {"theta": 1.01})
    (True, 0.5)
    """
    return max(math.log(float(kwargs.get("theta", 2.0))), 0.5)


def gem_terms_scale(args, kwargs):
    """Per score, the largest ``(|q_i + t g_i| + |q_j + t g_j|) / (g_i + g_j)``: the size of the terms the
    normalised score of [004 App. D.1] cancels (``t = 2 log(k/beta)/eps``; pairs with ``g_i = g_j = 0`` skipped).

    Parameters
    ----------
    args : sequence
        ``(sensitivities, scores, epsilon, beta)`` of ``gem_normalized_scores``.
    kwargs : mapping
        Unused.

    Returns
    -------
    numpy.ndarray
        The scale of each normalised score (at least the smallest positive float, so an all-zero row has one).

    Examples
    --------
    >>> float(gem_terms_scale([[1.0, 1.0], [0.0, 2.0], 2.0 * math.log(2.0), 1.0], {})[0])
    2.0
    """
    g = np.asarray(args[0], dtype=np.float64)
    q = np.asarray(args[1], dtype=np.float64)
    t = 2.0 * math.log(q.shape[-1] / float(args[3])) / float(args[2])
    pen = np.abs(q + t * g)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = (pen[..., :, None] + pen[..., None, :]) / (g[..., :, None] + g[..., None, :])
    ratio = np.where(np.isfinite(ratio), ratio, 0.0)
    return np.maximum(np.max(ratio, axis=-1), np.finfo(np.float64).tiny)


def exponential_logit_scale(args, kwargs):
    """``2 max|z| + log k`` with ``z = weight_factor eps u / Delta`` the exponential mechanism's logits
    ([002 Def. 3]) and ``k`` the number of outcomes: it bounds every logit, the log-sum-exp and every
    log-probability (``|log p_i| <= max z - min z + log k``), so it is the size of what a float64 evaluation
    ``z_i - logsumexp(z)`` cancels.

    Parameters
    ----------
    args : sequence
        ``(scores, epsilon, sensitivity)`` of ``exponential_log_prob``.
    kwargs : mapping
        ``weight_factor`` (default 0.5).

    Returns
    -------
    float
        The scale of the case (at least 1).

    Examples
    --------
    >>> round(exponential_logit_scale([[12.0, 12.0], 86.0, 1.0], {}), 6)   # logits 516: the scale of their cancellation
    1032.693147
    """
    u = np.asarray(args[0], dtype=np.float64)
    z = float(kwargs.get("weight_factor", 0.5)) * float(args[1]) * u / float(args[2])
    finite = z[np.isfinite(z)]
    top = float(np.max(np.abs(finite))) if finite.size else 0.0
    return max(1.0, 2.0 * top + math.log(u.shape[-1]))


def gem_logit_scale(args, kwargs):
    """``eps T + log k`` with ``T`` the largest :func:`gem_terms_scale`: GEM's logits are ``-eps s_i / 2``
    ([004 App. D.1]) and each normalised score ``s_i`` is a ratio of differences of terms of size ``T``, so a port's
    ``s_i`` is defined to ulps of ``T`` (the tolerance of ``gem_normalized_scores``) and its log-probabilities to
    ulps of ``eps T / 2``, whatever their own size.

    Parameters
    ----------
    args : sequence
        ``(sensitivities, scores, epsilon, beta)`` of ``gem_log_prob``.
    kwargs : mapping
        Unused.

    Returns
    -------
    float
        The scale of the case (at least 1).

    Examples
    --------
    >>> round(gem_logit_scale([[1.0, 1.0], [1e6, 1e6 + 1.0], 1.0, 0.5], {}), 3)
    1000004.466
    """
    terms = gem_terms_scale(args, kwargs)
    k = np.asarray(args[1]).shape[-1]
    return max(1.0, float(args[2]) * float(np.max(terms)) + math.log(k))


def wang_xu_logit_scale(args, kwargs):
    """``2 max|w| + log k`` with ``w`` the log-weights of [000 Alg. 1 step 2] / [000 Alg. 2 step 2] (``-eps``
    times a factor times each net point's truncated risk) and ``k`` the net's size: the size of what the
    normalisation ``w - logsumexp(w)`` cancels, as :func:`exponential_logit_scale` for the exponential mechanism.

    Parameters
    ----------
    args : sequence
        ``(X, y, net, epsilon, iota)`` of ``wang_xu_log_prob``.
    kwargs : mapping
        ``theta`` (default 2) and ``variant`` (default ``"printed"``).

    Returns
    -------
    float
        The scale of the case (at least 1).

    Examples
    --------
    >>> X, y, net = np.array([[1.0], [-1.0]]), np.zeros(2), np.array([[0.5], [-0.5]])
    >>> wang_xu_logit_scale([X, y, net, 1000.0, 1.0], {}) > 1000.0
    True
    """
    X, y, net, epsilon, iota = args[:5]
    w = log_weights(
        np.asarray(net, dtype=np.float64),
        X,
        y,
        epsilon,
        iota,
        float(kwargs.get("theta", 2.0)),
        kwargs.get("variant", "printed"),
    )
    finite = w[np.isfinite(w)]
    top = float(np.max(np.abs(finite))) if finite.size else 0.0
    return max(1.0, 2.0 * top + math.log(w.shape[-1]))
