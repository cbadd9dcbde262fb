"""Datasets as arrays of records ``[x_1, ..., x_d, y]``: splitting into features and labels, and into parts.

Every algorithm of :mod:`reference` takes its dataset as one 2-D array whose rows are
records ``[x, y]`` (the mechanism protocol of :mod:`reference.mechanisms`); replacing a
row gives a replace-one neighbour.
"""

from __future__ import annotations

from .validation import check_finite_array, check_integer

__all__ = ["split_records", "partition_records"]


def split_records(data, d=None):
    """Split records ``[x_1, ..., x_d, y]`` into ``X`` (n, d) and ``y`` (n,).

    Parameters
    ----------
    data : array_like, shape (n, d + 1)
        Finite records, ``n >= 1``, ``d >= 1``.
    d : int or None
        Expected number of features; ``None`` accepts any ``d >= 1``.

    Returns
    -------
    X : numpy.ndarray, shape (n, d)
    y : numpy.ndarray, shape (n,)
        Views of the validated float64 array.

    Raises
    ------
    ValueError
        Naming ``data`` if it is not a non-empty finite 2-D array with ``d + 1`` columns.

    Examples
    --------
    >>> X, y = split_records([[1.0, 2.0, 3.0]])
    >>> X.shape, float(y[0])
    ((1, 2), 3.0)
    """
    arr = check_finite_array("data", data, ndim=2)
    if arr.shape[1] < 2:
        raise ValueError(f"data must have at least 2 columns (records [x_1, ..., x_d, y] with d >= 1), "
                         f"got shape {arr.shape}")
    if d is not None and arr.shape[1] != d + 1:
        raise ValueError(f"data must have d + 1 = {d + 1} columns (d features and y), got shape {arr.shape}")
    return arr[:, :-1], arr[:, -1]


def partition_records(records, parts, *, name="data"):
    """Split records into ``parts`` equally sized consecutive chunks (a trailing remainder is dropped).

    Consecutive chunks keep neighbouring datasets aligned: a replaced row stays in its chunk.

    Parameters
    ----------
    records : array_like, shape (n, d + 1)
    parts : int >= 1
    name : str
        Name of ``records`` in error messages.

    Returns
    -------
    list of numpy.ndarray
        ``parts`` arrays of ``n // parts`` records each.

    Raises
    ------
    ValueError
        Naming ``name`` when fewer than one record per chunk is available.
    """
    z = check_finite_array(name, records, ndim=2)
    parts = check_integer("parts", parts, minimum=1)
    size = z.shape[0] // parts
    if size < 1:
        raise ValueError(f"{name} has {z.shape[0]} records, too few to split into {parts} parts")
    return [z[i * size:(i + 1) * size] for i in range(parts)]
