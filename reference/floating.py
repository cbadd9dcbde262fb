"""The floating-point terms of the reproducibility contract (``docs/reproducibility.md``): ulps and stated bounds.

What is bit-identical on every CPU: the IEEE operations ``+ - * /`` and ``sqrt`` (correctly rounded, so numpy's
SIMD loops and numba's kernels give the bits of a scalar evaluation in the same order), comparisons, sorting,
integer arithmetic, numpy's sums in their fixed order, and the numbers built only from them.  What is not:
every elementary function (``exp``, ``log``, ``log1p``, ``expm1``, ``pow``, ``erf``, trigonometric ...),
whose implementation is chosen at run time by the CPU (numpy's AVX-512 loops, glibc's fused multiply-add
variants), and every BLAS product (the kernel, hence the order of the sum, is chosen by the CPU).  Such
numbers are compared within the bounds stated here, never bit for bit.

References
----------
.. [1] IEEE 754-2008, clause 5.4 (correctly rounded arithmetic) and clause 9 (recommended, not required,
       correct rounding of elementary functions).
.. [2] Intel, "Short Vector Math Library" accuracy: the LA (low accuracy) variants numpy vendors for
       AVX-512 are within 4 ulps.
.. [3] The GNU C Library, "Errors in Math Functions" (libm-test-ulps): at most 1-2 ulps for ``exp``,
       ``log``, ``log1p``, ``expm1`` and ``pow`` on x86-64.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["UNIT_ROUNDOFF", "FUNCTION_ULPS", "ulp", "ulp_distance"]

#: ``u = 2^-53``: the relative error of one correctly rounded float64 operation is at most ``u``.
UNIT_ROUNDOFF = 2.0**-53

#: Stated error of one evaluation of an elementary function (``exp``, ``log``, ``log1p``, ``expm1``, ``pow``)
#: by any implementation the project may run: glibc's plain or fused multiply-add variants, numpy's own
#: AVX-512F ``exp``/``log`` or the SVML loops numpy dispatches on AVX-512, in ulps of the exact result.
#: Two implementations therefore differ by at most ``2 * FUNCTION_ULPS`` ulps.  Measured on this project's
#: machines: at most 1 ulp between any two of them (``tests/test_code_paths.py``).
FUNCTION_ULPS = 4.0


def ulp(x: ArrayLike) -> NDArray[np.float64]:
    """The spacing of float64 at ``|x|`` (``numpy.spacing``), the smallest subnormal ``5e-324`` at zero.

    Parameters
    ----------
    x : array_like
        Real numbers, any shape.

    Returns
    -------
    numpy.ndarray of float64
        ``numpy.spacing(|x|)``, the shape of ``x`` (a 0-d array for a scalar).

    References
    ----------
    .. [1] IEEE 754-2008, clause 2.1 (unit in the last place) and clause 5.4.

    Examples
    --------
    >>> float(ulp(1.0)) == 2.0 ** -52
    True
    >>> float(ulp(0.0))
    5e-324
    """
    return np.spacing(np.abs(np.asarray(x, dtype=np.float64)))


def ulp_distance(a: ArrayLike, b: ArrayLike, scale: ArrayLike | None = None) -> NDArray[np.float64]:
    """``|a - b|`` in ulps of ``scale`` (default: of the larger of ``|a|`` and ``|b|``), element-wise.

    Equal values (including two equal infinities and two NaNs) are 0 ulps apart; a finite value and a
    non-finite one, or values of opposite infinite sign, are ``inf`` ulps apart.

    Parameters
    ----------
    a, b : array_like
        Real numbers, broadcast together.
    scale : array_like or None, default None
        The magnitude whose ulp is the unit; ``None`` takes ``max(|a|, |b|)``.

    Returns
    -------
    numpy.ndarray of float64
        The distances, the broadcast shape of ``a``, ``b`` and ``scale``.

    References
    ----------
    .. [1] J.-M. Muller, "On the definition of ulp(x)", INRIA RR-5504, 2005.

    Examples
    --------
    >>> float(ulp_distance(1.0, 1.0 + 2.0 ** -51))
    2.0
    >>> float(ulp_distance(0.5, 0.5 + 2.0 ** -53, scale=1.0))      # one ulp of 0.5 is half an ulp of 1
    0.5
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    same = (a == b) | (np.isnan(a) & np.isnan(b))
    if scale is None:
        scale = np.maximum(np.abs(a), np.abs(b))
    with np.errstate(invalid="ignore", over="ignore"):
        dist = np.abs(a - b) / ulp(scale)
    dist = np.where(np.isnan(dist), np.inf, dist)
    return np.where(same, 0.0, dist)
