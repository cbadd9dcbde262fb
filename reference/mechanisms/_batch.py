"""Shape rules shared by the batched mechanisms.

Every mechanism with a finite output set takes its per-candidate input with the
candidates on the last axis, ``(..., K)``; the leading axes are a batch of
independent inputs (a single input is a batch of one, with batch shape ``()``).
Samplers return ``batch_shape`` draws when ``size`` is ``None`` and
``(size,) + batch_shape`` draws otherwise: ``size`` independent draws for every
input of the batch, the ``size`` axis first (as NumPy's own ``size`` argument).
"""

from __future__ import annotations

import math

import numpy as np

from ..validation import check_finite_array, check_integer, check_real_array

__all__ = [
    "ROWS_PER_CHUNK_ELEMENTS",
    "argmax_of_noisy_rows",
    "check_candidate_array",
    "draw_shape",
    "draw_public",
    "chunked_rows",
    "rows_of_draws",
    "flat_batch",
    "finite_release",
    "check_release_outputs",
]

#: Samplers draw their noise in chunks of about this many float64 numbers (32 MiB), so that
#: a million draws over thousands of candidates stay small.  Chunking never changes the
#: random stream: NumPy fills a (rows, K) request row by row from the same bit stream.
ROWS_PER_CHUNK_ELEMENTS = 2**22


def check_candidate_array(name: str, value) -> np.ndarray:
    """A finite float64 array of shape ``(..., K)`` with ``K >= 1`` candidates on the last axis.

    Raises
    ------
    TypeError
        If ``value`` is not an array of real numbers.
    ValueError
        If it is a scalar, empty, or not finite; the message names ``name``.
    """
    arr = check_finite_array(name, value)
    if arr.ndim == 0:
        raise ValueError(f"{name} must have at least one axis (candidates on the last axis), got a scalar")
    return arr


_MAX_AXIS = int(np.iinfo(np.intp).max)


def draw_shape(batch_shape: tuple, size) -> tuple:
    """Shape of the draws of a sampler: ``batch_shape`` (``size=None``) or ``(size,) + batch_shape``."""
    if size is None:
        return tuple(batch_shape)
    # numpy's own limit on an axis (its error, "negative dimensions are not allowed", names no parameter)
    return (check_integer("size", size, minimum=0, maximum=_MAX_AXIS),) + tuple(batch_shape)


def draw_public(input_shape: tuple, size, batch_shape: tuple = ()) -> dict:
    """The public arguments a sampler reports to the recorder: its input's shape, and ``batch`` when batched.

    ``batch`` is the shape of the leading run axes of the draws (``size`` draws, or a batch of inputs); a single
    run has none.
    """
    public = {"shape": tuple(input_shape)}
    if size is not None or batch_shape:
        public["batch"] = draw_shape(batch_shape, size)
    return public


def chunked_rows(n_rows: int, n_columns: int):
    """``(start, stop)`` bounds of consecutive row chunks of about ``ROWS_PER_CHUNK_ELEMENTS`` entries."""
    chunk = max(1, ROWS_PER_CHUNK_ELEMENTS // max(n_columns, 1))
    for start in range(0, n_rows, chunk):
        yield start, min(n_rows, start + chunk)


def rows_of_draws(inputs: np.ndarray, start: int, stop: int) -> np.ndarray:
    """Input rows of draws ``start..stop-1`` in flat draw order.

    ``inputs`` holds the batch as ``(B, K)``; draws are laid out as ``(size, B)``
    flattened, so draw ``r`` uses input row ``r mod B``.  Only ``stop - start``
    rows are materialised, whatever ``size`` is.
    """
    batch = inputs.shape[0]
    if batch == 1:
        return np.broadcast_to(inputs, (stop - start, inputs.shape[1]))
    return inputs[np.arange(start, stop) % batch]


def flat_batch(arr: np.ndarray) -> tuple[np.ndarray, tuple]:
    """``arr`` of shape ``(..., K)`` as ``(B, K)`` rows with ``B = prod(...)``, and the batch shape."""
    batch_shape = arr.shape[:-1]
    return arr.reshape(math.prod(batch_shape), arr.shape[-1]), batch_shape


def argmax_of_noisy_rows(values: np.ndarray, size, add_noise) -> np.ndarray:
    """``argmax(add_noise(row))`` for ``size`` draws of every row of ``values`` (shape ``(..., K)``).

    ``add_noise(chunk)`` returns the chunk plus its noise, drawing one variable per entry in C order;
    the draws are chunked (:func:`chunked_rows`) without changing the stream, so the result is the
    same as one draw over the whole ``(size, ..., K)`` array.  Returns int64 of shape
    :func:`draw_shape` ``(batch shape, size)``.  Shared by the exponential mechanism (Gumbel noise)
    and report-noisy-max (Laplace noise).
    """
    rows, batch_shape = flat_batch(values)
    shape = draw_shape(batch_shape, size)
    n_draws = int(np.prod(shape, dtype=np.int64))
    out = np.empty(n_draws, dtype=np.int64)
    for start, stop in chunked_rows(n_draws, values.shape[-1]):
        out[start:stop] = np.argmax(add_noise(rows_of_draws(rows, start, stop)), axis=1)
    return out.reshape(shape)


def finite_release(mechanism: str, value: np.ndarray, noise: np.ndarray, **scale: float) -> np.ndarray:
    """Return the release ``value + noise`` after checking it is finite, so a mechanism never publishes inf.

    ``answer + noise`` overflows when both are near the float64 limit (``1.7e308`` plus a Laplace draw of
    scale ``1e307``); the release would then be inf, which says nothing private and everything about the
    overflow.  The error names the inputs.
    """
    with np.errstate(over="ignore"):
        release = value + noise
    if not np.isfinite(release).all():
        given = ", ".join(f"{key}={val!r}" for key, val in scale.items())
        largest = float(np.abs(value).max(initial=0.0))
        raise ValueError(
            f"{mechanism}: the release overflows float64 for a value of magnitude up to {largest!r} and {given};"
            " rescale the query"
        )
    return release


def check_release_outputs(outputs, value: np.ndarray) -> np.ndarray:
    """The releases at which a log-density is evaluated: real numbers, no NaN (an infinite one has density 0),
    broadcasting against the query answer ``value``."""
    x = check_real_array("outputs", outputs)
    if np.isnan(x).any():
        raise ValueError(f"outputs must not contain NaN; entry {int(np.flatnonzero(np.isnan(x.ravel()))[0])} is")
    try:
        np.broadcast_shapes(x.shape, value.shape)
    except ValueError:
        raise ValueError(f"outputs and value must broadcast together, got shapes {x.shape} and {value.shape}") from None
    return x
