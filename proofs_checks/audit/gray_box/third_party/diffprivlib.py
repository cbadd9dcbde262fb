"""diffprivlib's mechanisms as recorded primitives: its code unchanged, wrapped at run time.

Inside :func:`diffprivlib_primitives` every ``randomise`` of the mechanisms below reports one event to the
active recorder (:mod:`reference.mechanisms.recorder`), read from the mechanism object: the value randomised
(the data-dependent input), the declared ``sensitivity``, ``epsilon`` and ``delta``, and the law the sampler
draws from with diffprivlib's own scale formula.  On exit the library's methods are as they were, and the two
laws registered for it are unregistered.

==========================  ==========================================  =======================================
diffprivlib class           recorded as (law keys)                      scale, as diffprivlib computes it
==========================  ==========================================  =======================================
``Laplace``                 ``laplace`` (``center``, ``scale``)         sensitivity / (epsilon - log(1 - delta))
``LaplaceTruncated``,       the same event (their ``randomise`` calls   the same; truncating or folding the
``LaplaceFolded``           ``Laplace.randomise``)                      output is post-processing
``LaplaceBoundedDomain``    ``diffprivlib.laplace_bounded_domain``      ``_find_scale()`` (Holohan et al.
                            (``center``, ``scale``, ``lower``,          2020)
                            ``upper``)
``Gaussian``,               ``gaussian`` (``center``, ``sigma``)        the object's ``_scale`` (classical or
``GaussianAnalytic``                                                    Balle and Wang's analytic calibration)
``Geometric``,              ``diffprivlib.geometric`` (``center``,      the object's ``_scale``, which is
``GeometricTruncated``,     ``scale``)                                  -epsilon / sensitivity (truncation and
``GeometricFolded``                                                     folding: post-processing)
==========================  ==========================================  =======================================

Every event's public arguments are the mechanism's class name and, for the truncating and bounded mechanisms,
its ``lower`` and ``upper``: bounds read from the private data diverge on replay (``control_flow``), as do a
class list or a number of calls that depends on the data.  The declared ``sensitivity`` and the budget
(``privacy``: ``epsilon``, ``delta``) are compared between the runs by the audit too.

The audited algorithm seeds diffprivlib from the audit's generator (:func:`random_state_of`): the run on ``D``
and its replay on ``D'`` then draw the same stream.  Mechanisms of diffprivlib not listed (the exponential,
vector, staircase, snapping, binary, uniform, Bingham and discrete Gaussian mechanisms) make no event: an
algorithm that uses them is audited without them.

References
----------
.. [1] N. Holohan, S. Braghin, P. Mac Aonghusa and K. Levacher, "Diffprivlib: the IBM differential privacy
   library", arXiv:1907.02444 (2019).
.. [2] N. Holohan, S. Antonatos, S. Braghin and P. Mac Aonghusa, "The bounded Laplace mechanism in differential
   privacy", J. Privacy and Confidentiality 10 (2020).
.. [3] T. Cebere, D. Erb, D. Desfontaines, A. Bellet and J. Fitzsimons, "Re:cord-play: auditing differential
   privacy implementations", PETS 2026 (diffprivlib among the libraries audited).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from reference.mechanisms.recorder import (
    PrimitiveCall,
    PrimitiveLaw,
    register_primitive,
    registered_primitives,
    unregister_primitive,
    wrapped_primitive,
)

__all__ = [
    "BOUNDED_LAPLACE",
    "GEOMETRIC",
    "DIFFPRIVLIB_NOISE_LAWS",
    "WRAPPED_METHODS",
    "bounded_laplace_accounting",
    "bounded_laplace_log_prob",
    "diffprivlib_primitives",
    "geometric_log_prob",
    "random_state_of",
]

#: The recorder's name of diffprivlib's bounded-domain Laplace mechanism (Laplace conditioned on the domain).
BOUNDED_LAPLACE = "diffprivlib.laplace_bounded_domain"
#: The recorder's name of diffprivlib's two-sided geometric mechanism (rounded after the noise).
GEOMETRIC = "diffprivlib.geometric"

#: ``(class, method, recorded law)`` of every method wrapped, in wrapping order; the subclasses that call these
#: through ``super()`` (truncated, folded, analytic) are recorded by them.
WRAPPED_METHODS = (
    ("Laplace", "randomise", "laplace"),
    ("LaplaceBoundedDomain", "randomise", BOUNDED_LAPLACE),
    ("Gaussian", "randomise", "gaussian"),
    ("Geometric", "randomise", GEOMETRIC),
)

#: The standard law of each recorded primitive's standardised noise beyond the project's own: pass it as
#: ``gray_box_audit(..., noise_laws=DIFFPRIVLIB_NOISE_LAWS)`` (the bounded Laplace's noise is its probability
#: integral transform, uniform on (0, 1)).
DIFFPRIVLIB_NOISE_LAWS: Mapping[str, str] = {BOUNDED_LAPLACE: "uniform"}

_INSTALL_HINT = 'diffprivlib is not installed: pip install -e ".[thirdparty]" (diffprivlib 0.6)'


def random_state_of(rng: np.random.Generator) -> np.random.RandomState:
    """A diffprivlib ``random_state`` drawn from the audit's generator (one draw of ``rng``).

    diffprivlib takes an integer or a :class:`numpy.random.RandomState`, not a Generator; the replay on ``D'``
    draws the same seed from its generator, so both runs randomise with the same stream.

    Parameters
    ----------
    rng : numpy.random.Generator
        The generator the gray-box audit hands the algorithm.

    Returns
    -------
    numpy.random.RandomState
        Seeded with ``rng.integers(2**32)``.

    Raises
    ------
    TypeError
        If ``rng`` is not a :class:`numpy.random.Generator`.

    References
    ----------
    .. [1] N. Holohan et al., "Diffprivlib", 2019 (``random_state`` of every mechanism and model).

    Examples
    --------
    >>> first = random_state_of(np.random.default_rng(3)).random_sample()
    >>> first == random_state_of(np.random.default_rng(3)).random_sample()
    True
    """
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator, got {rng!r} of type {type(rng).__name__}")
    return np.random.RandomState(int(rng.integers(2**32)))


# ----------------------------------------------------------------------------------------------------------
# the laws diffprivlib samples that the project has no primitive for


def _domain_mass(center: float, scale: float, lower: float, upper: float) -> float:
    """``P(lower <= center + Lap(scale) <= upper)`` for ``center`` in ``[lower, upper]``."""
    return 1.0 - 0.5 * (math.exp(-(center - lower) / scale) + math.exp(-(upper - center) / scale))


def bounded_laplace_log_prob(law: Mapping[str, Any], output: Any) -> float:
    """Log-density of diffprivlib's bounded-domain Laplace mechanism at ``output``.

    The output is ``center + Lap(scale)`` conditioned on ``[lower, upper]`` (diffprivlib draws until a sample
    falls inside), ``center`` the value clipped to the domain.

    Parameters
    ----------
    law : Mapping[str, Any]
        ``center`` (already clipped), ``scale`` (> 0), ``lower``, ``upper``.
    output : float
        A release.

    Returns
    -------
    float
        ``-inf`` outside the domain.

    References
    ----------
    .. [1] N. Holohan, S. Antonatos, S. Braghin and P. Mac Aonghusa, "The bounded Laplace mechanism in
       differential privacy", J. Privacy and Confidentiality 10 (2020), Def. 4.

    Examples
    --------
    >>> law = {"center": 0.5, "scale": 1.0, "lower": 0.0, "upper": 1.0}
    >>> round(bounded_laplace_log_prob(law, 0.5), 6), bounded_laplace_log_prob(law, 1.5)
    (0.239605, -inf)
    """
    x = float(output)
    center, scale = float(law["center"]), float(law["scale"])
    lower, upper = float(law["lower"]), float(law["upper"])
    if not lower <= x <= upper:
        return -math.inf
    mass = _domain_mass(center, scale, lower, upper)
    return -math.log(2.0 * scale) - abs(x - center) / scale - math.log(mass)


def _bounded_laplace_noise(law: Mapping[str, Any], output: Any) -> np.ndarray:
    """The output's probability integral transform under its law (uniform on (0, 1))."""
    x = float(output)
    center, scale = float(law["center"]), float(law["scale"])
    lower, upper = float(law["lower"]), float(law["upper"])

    def cdf(t):
        return 0.5 * math.exp((t - center) / scale) if t < center else 1.0 - 0.5 * math.exp(-(t - center) / scale)

    return np.array([(cdf(x) - cdf(lower)) / (cdf(upper) - cdf(lower))])


def bounded_laplace_accounting(call: PrimitiveCall) -> tuple[str, float]:
    """The pure epsilon of a bounded-domain Laplace call at its declared sensitivity ``D``.

    ``D / scale`` bounds the log-ratio of the two densities and ``log(C(min(lower + D, mid)) / C(lower))`` that
    of their normalisers (``C(c)`` the domain's mass around ``c``: concave and symmetric about the midpoint
    ``mid``, so smallest at the bounds); diffprivlib calibrates its scale with the same ratio.

    Parameters
    ----------
    call : PrimitiveCall
        A recorded call of :data:`BOUNDED_LAPLACE`.

    Returns
    -------
    (str, float)
        ``("pure", epsilon)``; ``("pure", 0.0)`` for a declared sensitivity of 0.

    References
    ----------
    .. [1] N. Holohan, S. Antonatos, S. Braghin and P. Mac Aonghusa, "The bounded Laplace mechanism in
       differential privacy", J. Privacy and Confidentiality 10 (2020), Thm. 5 (``Delta C``).

    Examples
    --------
    >>> law = {"center": 0.5, "scale": 1.0, "lower": 0.0, "upper": 1.0}
    >>> call = PrimitiveCall(0, BOUNDED_LAPLACE, np.zeros(()), 0.5, "l1", {}, law, {}, 0.5, "")
    >>> kind, epsilon = bounded_laplace_accounting(call)
    >>> kind, round(epsilon, 6)
    ('pure', 0.71907)
    """
    sensitivity = float(call.sensitivity)
    if sensitivity == 0.0:
        return ("pure", 0.0)
    scale, lower, upper = (float(call.law[key]) for key in ("scale", "lower", "upper"))
    if math.isinf(sensitivity) or scale == 0.0:
        return ("pure", math.inf)
    nearest = min(lower + sensitivity, 0.5 * (lower + upper))
    ratio = _domain_mass(nearest, scale, lower, upper) / _domain_mass(lower, scale, lower, upper)
    return ("pure", sensitivity / scale + math.log(ratio))


def _geometric_log_pmf(noise: float, scale: float) -> float:
    """``log P(Z = noise)`` of the two-sided geometric law ``(1 - a) / (1 + a) a^|z|``, ``a = exp(scale)``."""
    if scale == -math.inf:
        return 0.0 if noise == 0 else -math.inf
    alpha = math.exp(scale)
    return math.log1p(-alpha) - math.log1p(alpha) + abs(noise) * scale


def geometric_log_prob(law: Mapping[str, Any], output: Any) -> float:
    """Log-probability of diffprivlib's geometric mechanism: ``round(center + Z)``, ``Z`` two-sided geometric.

    ``Z`` has ``P(Z = z) = (1 - a) / (1 + a) a^|z|`` with ``a = exp(scale)`` (``scale = -epsilon /
    sensitivity``); the sum ``center + Z`` is rounded half to even (:func:`numpy.round`), so for a value that is
    not an integer the noises that round to ``output`` are summed.

    Parameters
    ----------
    law : Mapping[str, Any]
        ``center`` (the value randomised) and ``scale`` (< 0; ``-inf`` for a sensitivity of 0).
    output : int
        A release.

    Returns
    -------
    float

    References
    ----------
    .. [1] A. Ghosh, T. Roughgarden and M. Sundararajan, "Universally utility-maximizing privacy mechanisms",
       SIAM J. Comput. 41 (2012) (the two-sided geometric mechanism).

    Examples
    --------
    >>> round(geometric_log_prob({"center": 3, "scale": -1.0}, 3), 6)
    -0.771937
    >>> round(geometric_log_prob({"center": 3, "scale": -1.0}, 5), 6) == round(-0.771937 - 2.0, 6)
    True
    """
    center, scale = float(law["center"]), float(law["scale"])
    target = int(output)
    if center == math.floor(center):
        return _geometric_log_pmf(target - center, scale)
    terms = [
        _geometric_log_pmf(z, scale)
        for z in range(math.floor(target - center) - 1, math.ceil(target - center) + 2)
        if int(np.round(center + z)) == target
    ]
    finite = [t for t in terms if t > -math.inf]
    if not finite:
        return -math.inf
    top = max(finite)
    return top + math.log(sum(math.exp(t - top) for t in finite))


def _geometric_accounting(call: PrimitiveCall) -> tuple[str, float]:
    sensitivity = float(call.sensitivity)
    return ("pure", 0.0 if sensitivity == 0.0 else sensitivity * -float(call.law["scale"]))


_LAWS = (
    PrimitiveLaw(
        BOUNDED_LAPLACE,
        bounded_laplace_log_prob,
        "l1",
        bounded_laplace_accounting,
        _bounded_laplace_noise,
        "diffprivlib's LaplaceBoundedDomain: center + Lap(scale) conditioned on [lower, upper]; noise: its "
        "probability integral transform, U(0, 1)",
    ),
    PrimitiveLaw(
        GEOMETRIC,
        geometric_log_prob,
        "l1",
        _geometric_accounting,
        None,
        "diffprivlib's Geometric: round(center + Z), Z two-sided geometric of ratio exp(scale)",
    ),
)


# ----------------------------------------------------------------------------------------------------------
# what each wrapped method declares, read from the mechanism object (bound arguments ``self`` and ``value``)


def _public(bound: Mapping[str, Any]) -> dict[str, Any]:
    mechanism = bound["self"]
    public: dict[str, Any] = {"mechanism": type(mechanism).__name__}
    for key in ("lower", "upper"):
        if hasattr(mechanism, key):
            public[key] = float(getattr(mechanism, key))
    return public


def _privacy(bound: Mapping[str, Any]) -> dict[str, float]:
    mechanism = bound["self"]
    return {"epsilon": float(mechanism.epsilon), "delta": float(mechanism.delta)}


def _sensitivity(bound: Mapping[str, Any]) -> float:
    return float(bound["self"].sensitivity)


def _laplace_law(bound: Mapping[str, Any]) -> dict[str, float]:
    mechanism = bound["self"]
    scale = mechanism.sensitivity / (mechanism.epsilon - np.log(1 - mechanism.delta))
    return {"center": float(bound["value"]), "scale": float(scale)}


def _bounded_laplace_law(bound: Mapping[str, Any]) -> dict[str, float]:
    mechanism = bound["self"]
    # randomise computes the scale on its first call; the same bisection, run here without setting it
    scale = mechanism._scale if mechanism._scale is not None else mechanism._find_scale()
    lower, upper = float(mechanism.lower), float(mechanism.upper)
    center = max(min(float(bound["value"]), upper), lower)
    return {"center": center, "scale": float(scale), "lower": lower, "upper": upper}


def _gaussian_law(bound: Mapping[str, Any]) -> dict[str, float]:
    return {"center": float(bound["value"]), "sigma": float(bound["self"]._scale)}


def _geometric_law(bound: Mapping[str, Any]) -> dict[str, float]:
    return {"center": float(bound["value"]), "scale": float(bound["self"]._scale)}


_DECLARED_LAWS = {
    "laplace": _laplace_law,
    BOUNDED_LAPLACE: _bounded_laplace_law,
    "gaussian": _gaussian_law,
    GEOMETRIC: _geometric_law,
}


@contextlib.contextmanager
def diffprivlib_primitives() -> Iterator[tuple[str, ...]]:
    """Record diffprivlib's mechanisms for the length of the block (:data:`WRAPPED_METHODS`).

    Registers :data:`BOUNDED_LAPLACE` and :data:`GEOMETRIC` with the recorder (unless already registered) and
    wraps each method of :data:`WRAPPED_METHODS` with
    :func:`~reference.mechanisms.recorder.wrapped_primitive`; on exit, whatever happens inside, the methods are
    diffprivlib's again and the laws registered here are unregistered.  Run the gray-box audit inside the block.

    Yields
    ------
    tuple of str
        ``"Class.method"`` of the wrapped methods.

    Raises
    ------
    ImportError
        If diffprivlib is not installed (the message says how to install it).

    References
    ----------
    .. [1] T. Cebere et al., "Re:cord-play", PETS 2026 (a library's functions declared primitives at run time).
    .. [2] N. Holohan et al., "Diffprivlib: the IBM differential privacy library", 2019.

    Examples
    --------
    >>> from diffprivlib import tools
    >>> from reference.mechanisms.recorder import recording
    >>> with diffprivlib_primitives() as wrapped:
    ...     with recording() as transcript:
    ...         _ = tools.mean(np.array([0.2, 0.4, 0.9]), epsilon=1.0, bounds=(0.0, 1.0), random_state=0)
    >>> wrapped[0]
    'Laplace.randomise'
    >>> call = transcript.calls[0]
    >>> call.primitive, call.public["mechanism"], round(call.sensitivity, 6), round(call.law["scale"], 6)
    ('laplace', 'LaplaceTruncated', 0.333333, 0.333333)
    """
    try:
        import diffprivlib.mechanisms as mechanisms
    except ImportError as exc:
        raise ImportError(_INSTALL_HINT) from exc
    with contextlib.ExitStack() as stack:
        for law in _LAWS:
            if law.name not in registered_primitives():
                register_primitive(law)
                stack.callback(unregister_primitive, law.name)
        wrapped = []
        for class_name, method, name in WRAPPED_METHODS:
            stack.enter_context(
                wrapped_primitive(
                    getattr(mechanisms, class_name),
                    method,
                    name,
                    data="value",
                    sensitivity=_sensitivity,
                    law=_DECLARED_LAWS[name],
                    privacy=_privacy,
                    public=_public,
                    site=f"diffprivlib {class_name}.{method}",
                )
            )
            wrapped.append(f"{class_name}.{method}")
        yield tuple(wrapped)
