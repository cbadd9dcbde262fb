"""The thin adapter between the kit's calling convention and a JAX port (no JAX import: tested without it).

The kit calls a sampler as ``f(..., size, rng)`` with ``rng`` a :class:`numpy.random.Generator` and expects
numpy arrays back; JAX draws from explicit keys.  :func:`key_words` takes two fresh 32-bit words from ``rng`` on
every call (so the same seed gives the same key, different seeds different keys, every call a fresh key, and no
global state is touched: the kit's rng contract), and :func:`sampler` wraps a keyed draw function into the
kit's convention.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

__all__ = ["key_words", "sampler", "to_numpy"]


def key_words(rng: Any) -> np.ndarray:
    """Two fresh uint32 words drawn from the generator ``rng``: the seed of one call's JAX key.

    Parameters
    ----------
    rng : numpy.random.Generator
        The caller's generator (advanced by the draw).

    Returns
    -------
    numpy.ndarray of uint32, shape (2,)

    Raises
    ------
    TypeError
        If ``rng`` is not a :class:`numpy.random.Generator` (a seed or None would hide where the randomness
        comes from).

    Examples
    --------
    >>> a, b = key_words(np.random.default_rng(3)), key_words(np.random.default_rng(3))
    >>> bool((a == b).all()), a.dtype.name
    (True, 'uint32')
    """
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    return rng.integers(0, 2**32, size=2, dtype=np.uint32)


def to_numpy(out: Any) -> Any:
    """``numpy.asarray`` of a backend array, or of each item of a tuple.

    Examples
    --------
    >>> to_numpy(([1, 2], 3.0))[0].tolist()
    [1, 2]
    """
    if isinstance(out, tuple):
        return tuple(np.asarray(x) for x in out)
    return np.asarray(out)


def sampler(draw: Callable[..., Any]) -> Callable[..., Any]:
    """The kit's sampler ``f(*inputs, size=None, rng=None, **keywords)`` from a keyed ``draw(words, n, *inputs)``.

    ``draw`` receives the two key words of :func:`key_words`, the number of draws (1 when ``size`` is None, whose
    output then loses its leading axis) and the inputs; it returns arrays with the draws along the first axis.

    Examples
    --------
    >>> def draw(words, n, scale):  # a numpy stand-in for a JAX backend
    ...     return np.random.default_rng(words.tolist()).laplace(0.0, scale, n)
    >>> laplace = sampler(draw)
    >>> laplace(2.0, size=3, rng=np.random.default_rng(0)).shape, laplace(2.0, rng=np.random.default_rng(0)).shape
    ((3,), ())
    """

    def wrapped(*args, size=None, rng=None, **keywords):
        n_inputs = draw.__code__.co_argcount - 2
        if len(args) > n_inputs:  # size and rng given positionally, as the kit does
            args, extra = args[:n_inputs], args[n_inputs:]
            size = extra[0] if len(extra) > 0 else size
            rng = extra[1] if len(extra) > 1 else rng
        out = to_numpy(draw(key_words(rng), 1 if size is None else int(size), *args, **keywords))
        if size is None:
            return tuple(x[0] for x in out) if isinstance(out, tuple) else out[0]
        return out

    wrapped.__name__ = getattr(draw, "__name__", "sampler")
    wrapped.__doc__ = draw.__doc__
    return wrapped
