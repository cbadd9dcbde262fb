"""Parameter checks shared by every algorithm in :mod:`reference`.

Every check raises ``ValueError`` (bad value) or ``TypeError`` (bad type)
with a message that names the parameter and the offending value.  Nothing
here clips, rounds or coerces silently: a value is either accepted as it is
or rejected.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Collection
from typing import TypeAlias, TypeVar, Union

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "check_epsilon",
    "check_delta",
    "check_positive",
    "check_probability",
    "check_integer",
    "check_finite_array",
    "check_real_array",
    "check_finite_result",
    "check_scores",
    "check_same_length",
    "check_choice",
    "as_generator",
    "RNGLike",
]

#: What every ``rng`` parameter of :mod:`reference` accepts (see :func:`as_generator`).
RNGLike: TypeAlias = Union[np.random.Generator, int, np.integer, np.random.SeedSequence, None]

_Choice = TypeVar("_Choice")


def _check_real(name: str, value) -> float:
    # Exact-type fast path: the abstract-base-class check below costs about a microsecond, and the exact
    # searches of the audit validate parameters on every one of their thousands of law evaluations.
    if type(value) is float:
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r} of type {type(value).__name__}")
    return float(value)


def check_positive(name: str, value: float, *, allow_inf: bool = False) -> float:
    """Return ``value`` as a float after checking ``0 < value`` (finite unless ``allow_inf``).

    Parameters
    ----------
    name : str
        The parameter's name, for the error message.
    value : float
        A real number (Python or numpy; not a bool).
    allow_inf : bool, default False
        Accept ``+inf``.

    Returns
    -------
    float
        ``float(value)``.

    Raises
    ------
    TypeError
        If ``value`` is a bool or not a real number.
    ValueError
        If ``value`` is NaN, ``<= 0``, or infinite without ``allow_inf``.

    References
    ----------
    .. [1] PEP 3141, "A Type Hierarchy for Numbers" (``numbers.Real``).

    Examples
    --------
    >>> check_positive("scale", 2)
    2.0
    >>> check_positive("scale", float("inf"), allow_inf=True)
    inf
    >>> check_positive("scale", 0.0)
    Traceback (most recent call last):
    ValueError: scale must be a positive finite number, got 0.0
    """
    x = _check_real(name, value)
    if math.isnan(x) or x <= 0 or (math.isinf(x) and not allow_inf):
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")
    return x


def check_epsilon(epsilon: float, name: str = "epsilon") -> float:
    """Return the privacy parameter ``epsilon`` as a float after checking it is finite and positive.

    Parameters
    ----------
    epsilon : float
        The privacy parameter.
    name : str, default "epsilon"
        The parameter's name, for the error message.

    Returns
    -------
    float
        ``float(epsilon)``.

    Raises
    ------
    TypeError
        If ``epsilon`` is a bool or not a real number.
    ValueError
        If ``epsilon`` is NaN, infinite or ``<= 0``.

    References
    ----------
    .. [1] C. Dwork and A. Roth, "The algorithmic foundations of differential privacy", 2014, Def. 2.4.

    Examples
    --------
    >>> check_epsilon(0.5)
    0.5
    """
    return check_positive(name, epsilon)


def check_probability(name: str, value: float, *, low_open: bool = True, high_open: bool = True) -> float:
    """Return ``value`` as a float after checking it lies in (0, 1) (or with closed ends on request).

    Parameters
    ----------
    name : str
        The parameter's name, for the error message.
    value : float
        A real number (not a bool).
    low_open : bool, default True
        Reject 0 (``False`` accepts it).
    high_open : bool, default True
        Reject 1 (``False`` accepts it).

    Returns
    -------
    float
        ``float(value)``.

    Raises
    ------
    TypeError
        If ``value`` is a bool or not a real number.
    ValueError
        If ``value`` is NaN or outside the interval.

    References
    ----------
    .. [1] PEP 3141, "A Type Hierarchy for Numbers" (``numbers.Real``).

    Examples
    --------
    >>> check_probability("p", 0.25)
    0.25
    >>> check_probability("p", 1, high_open=False)
    1.0
    >>> check_probability("p", 1)
    Traceback (most recent call last):
    ValueError: p must lie in (0, 1), got 1
    """
    x = _check_real(name, value)
    low_ok = x > 0 if low_open else x >= 0
    high_ok = x < 1 if high_open else x <= 1
    if math.isnan(x) or not (low_ok and high_ok):
        lo = "(" if low_open else "["
        hi = ")" if high_open else "]"
        raise ValueError(f"{name} must lie in {lo}0, 1{hi}, got {value!r}")
    return x


def check_delta(delta: float, name: str = "delta") -> float:
    """Return the privacy parameter ``delta`` as a float after checking it lies in the open interval (0, 1).

    Parameters
    ----------
    delta : float
        The privacy parameter.
    name : str, default "delta"
        The parameter's name, for the error message.

    Returns
    -------
    float
        ``float(delta)``.

    Raises
    ------
    TypeError
        If ``delta`` is a bool or not a real number.
    ValueError
        If ``delta`` is NaN or not in (0, 1).

    References
    ----------
    .. [1] C. Dwork and A. Roth, "The algorithmic foundations of differential privacy", 2014, Def. 2.4.

    Examples
    --------
    >>> check_delta(1e-5)
    1e-05
    """
    return check_probability(name, delta)


def check_integer(name: str, value: int | np.integer, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """Return ``value`` as an int after checking it is an integer (Python or numpy) within inclusive bounds.

    Parameters
    ----------
    name : str
        The parameter's name, for the error message.
    value : int or numpy.integer
        The value; a bool or a float (even integral) is rejected.
    minimum, maximum : int or None, default None
        Inclusive bounds; ``None`` leaves that side open.

    Returns
    -------
    int
        ``int(value)``.

    Raises
    ------
    TypeError
        If ``value`` is a bool or not an integer.
    ValueError
        If ``value < minimum`` or ``value > maximum``.

    References
    ----------
    .. [1] PEP 3141, "A Type Hierarchy for Numbers" (``numbers.Integral``).

    Examples
    --------
    >>> check_integer("n", np.int64(3), minimum=1)
    3
    >>> check_integer("n", 3.0)
    Traceback (most recent call last):
    TypeError: n must be an integer, got 3.0 of type float
    """
    if type(value) is not int and (isinstance(value, bool) or not isinstance(value, numbers.Integral)):
        raise TypeError(f"{name} must be an integer, got {value!r} of type {type(value).__name__}")
    v = int(value)
    if minimum is not None and v < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value!r}")
    if maximum is not None and v > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {value!r}")
    return v


#: dtype kinds accepted as real numbers: signed and unsigned integers and floats (not bool 'b', complex 'c',
#: strings 'U'/'S', objects 'O', dates 'M'/'m' or raw bytes 'V')
_REAL_KINDS = frozenset("iuf")


def check_real_array(name: str, value: ArrayLike) -> NDArray[np.float64]:
    """Return ``value`` as a float64 array after checking its entries are real numbers (no finiteness check).

    numpy would convert ``["1", "2"]``, ``[True, False]`` and an object array of floats to float64 without a
    word, and complex numbers with only a ``ComplexWarning``; here each is an error, so a caller's mistake is
    never turned into data.

    Parameters
    ----------
    name : str
        The parameter's name, for the error message.
    value : array_like
        Integers or floats of any shape (Python or numpy); an empty sequence is accepted.

    Returns
    -------
    numpy.ndarray of float64
        ``value`` itself when it already is a float64 array, else a float64 copy.

    Raises
    ------
    TypeError
        If ``value`` is ragged, or its entries are bools, complex numbers, strings, bytes, dates or objects.

    References
    ----------
    .. [1] The NumPy reference, "Data type objects (dtype)": ``dtype.kind``.

    Examples
    --------
    >>> check_real_array("x", [1, 2.5])
    array([1. , 2.5])
    >>> check_real_array("x", ["1", "2"])
    Traceback (most recent call last):
    TypeError: x must be an array of real numbers, got ['1', '2'] (dtype <U1)
    >>> check_real_array("x", [True, False])
    Traceback (most recent call last):
    TypeError: x must be an array of real numbers, got [True, False] (dtype bool)
    """
    # Exact-type fast path: the audit's exact searches validate float64 arrays thousands of times.
    if type(value) is np.ndarray and value.dtype == np.float64:
        return value
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be an array of real numbers, got {type(value).__name__}: {exc}") from None
    if arr.dtype.kind not in _REAL_KINDS:
        raise TypeError(f"{name} must be an array of real numbers, got {_short_repr(value)} (dtype {arr.dtype})")
    return arr.astype(np.float64, copy=False)


def _short_repr(value: object, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_finite_result(quantity: str, value: float, **inputs: float) -> float:
    """Return a computed scale or threshold after checking it is finite; else name the inputs that overflowed.

    A noise scale computed from valid parameters can still overflow (``1e308 / 1e-10``) or come out as 0
    (``1e-300 / 1e300``); a mechanism that used it would release ``inf`` or the exact answer.

    Parameters
    ----------
    quantity : str
        What ``value`` is (the function's name), for the error message.
    value : float
        The computed value.
    **inputs : float
        The parameters it was computed from, named as the caller's parameters.

    Returns
    -------
    float
        ``value``.

    Raises
    ------
    ValueError
        If ``value`` is infinite, NaN or ``<= 0``; the message lists ``inputs``.

    References
    ----------
    .. [1] IEEE Std 754-2019, overflow and underflow of binary64 arithmetic.

    Examples
    --------
    >>> check_finite_result("laplace_scale", 4.0, sensitivity=2.0, epsilon=0.5)
    4.0
    >>> check_finite_result("laplace_scale", float("inf"), sensitivity=1e308, epsilon=1e-10)
    Traceback (most recent call last):
    ValueError: laplace_scale is inf for sensitivity=1e+308, epsilon=1e-10: not a positive finite float64
    """
    if not (0.0 < value < math.inf):
        given = ", ".join(f"{key}={val!r}" for key, val in inputs.items())
        raise ValueError(f"{quantity} is {value!r} for {given}: not a positive finite float64")
    return value


def check_finite_array(
    name: str,
    value: ArrayLike,
    *,
    ndim: int | None = None,
    nonempty: bool = True,
    shape: tuple[int | None, ...] | None = None,
) -> NDArray[np.float64]:
    """Return ``value`` as a float64 array after checking dimension, shape, emptiness and finiteness.

    Parameters
    ----------
    name : str
        The parameter's name, for the error message.
    value : array_like
        Real numbers of any shape.
    ndim : int or None, default None
        Required number of dimensions; ``None`` accepts any.
    nonempty : bool, default True
        Reject an array with no entries.
    shape : tuple of (int or None) or None, default None
        Required shape, ``None`` for a free axis, e.g. ``(None, 3)``.

    Returns
    -------
    numpy.ndarray of float64
        ``numpy.asarray(value, dtype=float64)`` (no copy when ``value`` already is one).

    Raises
    ------
    TypeError
        If ``value`` is not an array of real numbers (see :func:`check_real_array`: strings, bools, complex
        numbers and objects are rejected, not converted).
    ValueError
        If the dimension or shape differs, the array is empty (with ``nonempty``), or an entry is NaN or
        infinite (the message names the first one's flat index).

    References
    ----------
    .. [1] The NumPy reference, ``numpy.asarray`` and ``numpy.isfinite``.

    Examples
    --------
    >>> check_finite_array("X", [[1, 2, 3]], shape=(None, 3))
    array([[1., 2., 3.]])
    >>> check_finite_array("X", [1.0, float("nan")])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: X must be finite; entry 1 (flat index) is ...nan... (1 non-finite entries)
    """
    arr = check_real_array(name, value)
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got shape {arr.shape}")
    if shape is not None:
        if arr.ndim != len(shape) or any(s is not None and s != a for s, a in zip(shape, arr.shape)):
            raise ValueError(f"{name} must have shape {shape}, got {arr.shape}")
    if nonempty and arr.size == 0:
        raise ValueError(f"{name} must not be empty, got shape {arr.shape}")
    if not np.isfinite(arr).all():  # the method: np.all's Python wrapper costs more than the test on small arrays
        bad = np.flatnonzero(~np.isfinite(arr.ravel()))
        raise ValueError(
            f"{name} must be finite; entry {int(bad[0])} (flat index) is {arr.ravel()[bad[0]]!r}"
            f" ({bad.size} non-finite entries)"
        )
    return arr


def check_scores(scores: ArrayLike, name: str = "scores") -> NDArray[np.float64]:
    """Return ``scores`` as a float64 vector after checking it is non-empty, 1-d and finite.

    Parameters
    ----------
    scores : array_like, shape (K,)
        One score per candidate output.
    name : str, default "scores"
        The parameter's name, for the error message.

    Returns
    -------
    numpy.ndarray of float64, shape (K,)
        The scores.

    Raises
    ------
    TypeError
        If ``scores`` cannot be converted to an array of real numbers.
    ValueError
        If ``scores`` is not 1-d, is empty, or has a non-finite entry.

    References
    ----------
    .. [1] F. McSherry and K. Talwar, "Mechanism design via differential privacy", FOCS 2007 (scores of the
       candidate outputs).

    Examples
    --------
    >>> check_scores([0.0, 1.5])
    array([0. , 1.5])
    """
    return check_finite_array(name, scores, ndim=1)


def check_same_length(name_a: str, a: np.ndarray, name_b: str, b: np.ndarray) -> None:
    """Check that the first axes of ``a`` and ``b`` have the same length.

    Parameters
    ----------
    name_a : str
        The name of ``a``, for the error message.
    a : numpy.ndarray
        An array with at least one axis.
    name_b : str
        The name of ``b``, for the error message.
    b : numpy.ndarray
        An array with at least one axis.

    Returns
    -------
    None

    Raises
    ------
    ValueError
        If ``a.shape[0] != b.shape[0]``.

    References
    ----------
    .. [1] The NumPy reference, ``numpy.ndarray.shape``.

    Examples
    --------
    >>> check_same_length("X", np.zeros((3, 2)), "y", np.zeros(3))
    >>> check_same_length("X", np.zeros((3, 2)), "y", np.zeros(4))
    Traceback (most recent call last):
    ValueError: X and y must have the same length, got 3 and 4
    """
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"{name_a} and {name_b} must have the same length, got {a.shape[0]} and {b.shape[0]}")


def check_choice(name: str, value: _Choice, choices: Collection[_Choice]) -> _Choice:
    """Return ``value`` after checking it is one of ``choices`` (e.g. a variant name).

    Parameters
    ----------
    name : str
        The parameter's name, for the error message.
    value : object
        The value to check.
    choices : collection
        The accepted values.

    Returns
    -------
    object
        ``value`` itself.

    Raises
    ------
    ValueError
        If ``value not in choices``; the message lists the choices.

    References
    ----------
    .. [1] The Python language reference, membership test operations (``in``).

    Examples
    --------
    >>> check_choice("variant", "printed", ("printed", "standard"))
    'printed'
    >>> check_choice("variant", "other", ("printed", "standard"))
    Traceback (most recent call last):
    ValueError: variant must be one of ('printed', 'standard'), got 'other'
    """
    try:
        known = value in choices
    except (TypeError, ValueError):  # an array compared with each choice has no single truth value
        known = False
    if not known:
        raise ValueError(f"{name} must be one of {tuple(choices)}, got {value!r}")
    return value


def as_generator(rng: RNGLike = None) -> np.random.Generator:
    """Return a ``numpy.random.Generator`` from a Generator, a seed (int / SeedSequence) or ``None``.

    A legacy ``RandomState`` is rejected rather than silently wrapped, so no code path ever touches numpy's
    global random state.

    Parameters
    ----------
    rng : numpy.random.Generator, int, numpy.random.SeedSequence or None, default None
        A Generator is returned as it is; a non-negative seed or a SeedSequence seeds a new one
        (``numpy.random.default_rng``); ``None`` draws fresh entropy.

    Returns
    -------
    numpy.random.Generator
        The generator.

    Raises
    ------
    TypeError
        If ``rng`` is a ``RandomState``, a bool or anything else that is neither a Generator nor a seed.
    ValueError
        If ``rng`` is a negative integer seed.

    References
    ----------
    .. [1] Scientific Python, SPEC 7, "Seeding pseudo-random number generation".

    Examples
    --------
    >>> g = as_generator(7)
    >>> as_generator(g) is g
    True
    >>> as_generator(np.random.RandomState(0))
    Traceback (most recent call last):
    TypeError: rng must be a numpy.random.Generator or a seed, got a legacy RandomState
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, np.random.RandomState):
        raise TypeError("rng must be a numpy.random.Generator or a seed, got a legacy RandomState")
    if rng is None or isinstance(rng, (numbers.Integral, np.random.SeedSequence)) and not isinstance(rng, bool):
        if isinstance(rng, numbers.Integral) and int(rng) < 0:
            raise ValueError(f"rng seed must be non-negative, got {rng!r}")
        return np.random.default_rng(rng)
    raise TypeError(f"rng must be a numpy.random.Generator, a seed or None, got {rng!r}")
