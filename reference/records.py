"""Datasets as arrays of records ``[x_1, ..., x_d, y]``: splitting into features and labels, and into parts.

Every algorithm of :mod:`reference` takes its dataset as one 2-D array whose rows are
records ``[x, y]`` (the mechanism protocol of :mod:`reference.mechanisms`); replacing a
row gives a replace-one neighbour.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .validation import check_finite_array, check_integer

__all__ = ["split_records", "partition_records"]


def split_records(data: ArrayLike, d: int | None = None) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Split records ``[x_1, ..., x_d, y]`` into ``X`` (n, d) and ``y`` (n,).

    Parameters
    ----------
    data : array_like, shape (n, d + 1)
        Finite records, ``n >= 1``, ``d >= 1``.
    d : int or None, default None
        Expected number of features; ``None`` accepts any ``d >= 1``.

    Returns
    -------
    X : numpy.ndarray of float64, shape (n, d)
        The features: a view of the validated float64 array.
    y : numpy.ndarray of float64, shape (n,)
        The labels: a view of the validated float64 array.

    Raises
    ------
    TypeError
        Naming ``data`` if it is not an array of real numbers.
    ValueError
        Naming ``data`` if it is not a non-empty finite 2-D array with at least 2 columns, or with ``d + 1``
        columns when ``d`` is given.

    References
    ----------
    .. [1] [000 Def. 1] and [002 Def. 1]: datasets of records ``(x_i, y_i)``, neighbours when they differ in
       one record.

    Examples
    --------
    >>> X, y = split_records([[1.0, 2.0, 3.0]])
    >>> X.shape, float(y[0])
    ((1, 2), 3.0)
    """
    arr = check_finite_array("data", data, ndim=2)
    if arr.shape[1] < 2:
        raise ValueError(
            f"data must have at least 2 columns (records [x_1, ..., x_d, y] with d >= 1), got shape {arr.shape}"
        )
    if d is not None and arr.shape[1] != d + 1:
        raise ValueError(f"data must have d + 1 = {d + 1} columns (d features and y), got shape {arr.shape}")
    return arr[:, :-1], arr[:, -1]


def partition_records(records: ArrayLike, parts: int, *, name: str = "data") -> list[NDArray[np.float64]]:
    """Split records into ``parts`` equally sized consecutive chunks (a trailing remainder is dropped).

    Consecutive chunks keep neighbouring datasets aligned: a replaced row stays in its chunk.

    Parameters
    ----------
    records : array_like, shape (n, d + 1)
        Finite records.
    parts : int
        Number of chunks, ``>= 1``.
    name : str, default "data"
        Name of ``records`` in error messages.

    Returns
    -------
    list of numpy.ndarray of float64
        ``parts`` arrays of shape ``(n // parts, d + 1)``, views of the validated array.

    Raises
    ------
    TypeError
        If ``records`` is not an array of real numbers or ``parts`` is not an integer.
    ValueError
        Naming ``name`` if ``records`` is not a non-empty finite 2-D array or has fewer than ``parts``
        records; naming ``parts`` if it is below 1.

    References
    ----------
    .. [1] [002 Alg. 1 step 2] (the data split into ``T`` parts of ``m = n / T`` records, one per iteration);
       the ``m + 1`` parts of Boosting [004 App. E].

    Examples
    --------
    >>> chunks = partition_records(np.arange(14.0).reshape(7, 2), 3)
    >>> [c.shape for c in chunks]
    [(2, 2), (2, 2), (2, 2)]
    """
    z = check_finite_array(name, records, ndim=2)
    parts = check_integer("parts", parts, minimum=1)
    size = z.shape[0] // parts
    if size < 1:
        raise ValueError(f"{name} has {z.shape[0]} records, too few to split into {parts} parts")
    return [z[i * size : (i + 1) * size] for i in range(parts)]
