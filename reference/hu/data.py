"""Data of the experiments of [002 Sec. 6]: laws, ``w*``, initial vectors, models and figure datasets.

* :func:`sample_distribution`: the laws named in [002 Sec. 6.3] to [002 Sec. 6.5] (normal, lognormal,
  Student t, log-logistic, log-gamma, logistic, Laplace).
* :func:`w_star_polytope`, :func:`w_star_sparse`: the two ways of [002 Sec. 6.1] to draw ``w*``.
* :func:`initial_polytope`, :func:`initial_sparse`: the initial vectors of [002 Sec. 6.2].
* :func:`linear_data`, :func:`logistic_data`: the models of [002 Sec. 6.1].
* :func:`figure_dataset`: the synthetic setting of each figure (1, 2, 5-11).
* :func:`load_dataset`: a user's own CSV / NPZ file as records ``[x, y]`` (the four UCI
  sets of [002 Sec. 6.1] cannot be downloaded here).

Conventions (the paper leaves them implicit; fixed here and documented in ``docs/hu.md``):
the second parameter of ``N(0, v)`` and ``Lognormal(0, v)`` is the *variance*
(002 writes ``Lognormal(0, sigma^2)`` with that density); ``Laplace(5)`` has scale 5;
"``scale=100``" for the sparse ``w*`` is a standard deviation (numpy's ``scale``).

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``: [002 Sec. 6.1] to [002 Sec. 6.5].
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import expit

from ..validation import RNGLike, as_generator, check_finite_array, check_integer, check_positive

__all__ = [
    "DISTRIBUTIONS",
    "sample_distribution",
    "w_star_polytope",
    "w_star_sparse",
    "initial_polytope",
    "initial_sparse",
    "linear_data",
    "logistic_data",
    "FIGURES",
    "figure_dataset",
    "load_dataset",
]

DISTRIBUTIONS = ("normal", "lognormal", "student_t", "loglogistic", "loggamma", "logistic", "laplace")


def sample_distribution(
    name: str, size: int | tuple[int, ...], rng: RNGLike = None, **params: float
) -> NDArray[np.float64]:
    """Draw i.i.d. samples of one of the laws of [002 Sec. 6.3] to [002 Sec. 6.5].

    Parameters
    ----------
    name : str
        ``"normal"`` (``var``, default 1), ``"lognormal"`` (``var`` of the log, default 0.6),
        ``"student_t"`` (``df``, default 10), ``"loglogistic"`` (``c``, default 0.1; density
        ``c w^(-c-1) (1 + w^(-c))^(-2)``), ``"loggamma"`` (``c``, default 0.5; density
        ``exp(c w - e^w) / Gamma(c)``: 002 prints ``exp(cw) - exp(w)`` in the numerator, which is
        not a density; the log of a Gamma(c) variable is used), ``"logistic"`` (``loc`` 0, ``scale`` 0.5),
        ``"laplace"`` (``scale``, default 5).
    size : int or tuple of int
        Shape of the sample, as numpy takes it.
    rng : numpy.random.Generator, int, SeedSequence or None, default None
        Source of randomness (:func:`~reference.validation.as_generator`).
    **params : float
        The law's parameters named above.

    Returns
    -------
    numpy.ndarray of float64
        The sample, of shape ``size``.

    Raises
    ------
    ValueError
        If ``name`` is not one of :data:`DISTRIBUTIONS`, or a parameter is not finite and positive.
    TypeError
        If a parameter is not a real number or ``rng`` not a generator or seed.

    References
    ----------
    .. [1] [002 Sec. 6.1] and [002 Sec. 6.3] to [002 Sec. 6.5] (the laws of the experiments).

    Examples
    --------
    >>> sample_distribution("student_t", 3, rng=0).shape
    (3,)
    >>> sample_distribution("laplace", (2, 2), rng=0, scale=1.0).shape
    (2, 2)
    """
    gen = as_generator(rng)
    if name == "normal":
        return gen.normal(0.0, math.sqrt(check_positive("var", params.get("var", 1.0))), size)
    if name == "lognormal":
        return gen.lognormal(0.0, math.sqrt(check_positive("var", params.get("var", 0.6))), size)
    if name == "student_t":
        return gen.standard_t(check_positive("df", params.get("df", 10.0)), size)
    if name == "loglogistic":
        c = check_positive("c", params.get("c", 0.1))
        # Inverse CDF F(w) = 1/(1 + w^-c): w = (u/(1-u))^(1/c), in log space (c = 0.1 gives ~1e150 tails).
        u = gen.random(size)
        return np.exp((np.log(u) - np.log1p(-u)) / c)
    if name == "loggamma":
        c = check_positive("c", params.get("c", 0.5))
        return np.log(gen.gamma(c, 1.0, size))
    if name == "logistic":
        return gen.logistic(params.get("loc", 0.0), check_positive("scale", params.get("scale", 0.5)), size)
    if name == "laplace":
        return gen.laplace(0.0, check_positive("scale", params.get("scale", 5.0)), size)
    raise ValueError(f"name must be one of {DISTRIBUTIONS}, got {name!r}")


def w_star_polytope(d: int, rng: RNGLike = None, *, l1_norm: float = 1.0) -> NDArray[np.float64]:
    """[002 Sec. 6.1], polytope case: a random ``w*`` with ``||w*||_1 = l1_norm`` (uniform on the l1 sphere).

    002 writes "such that ``||w*||_1``" with the relation lost; the unit l1 sphere is used
    (the domain is the unit l1 ball).

    Parameters
    ----------
    d : int
        Dimension, ``>= 1``.
    rng : numpy.random.Generator, int, SeedSequence or None, default None
        Source of randomness (:func:`~reference.validation.as_generator`).
    l1_norm : float, default 1.0
        ``||w*||_1``, finite and > 0.

    Returns
    -------
    numpy.ndarray of float64, shape (d,)
        ``w*``.

    Raises
    ------
    TypeError
        If ``d`` is not an integer, ``l1_norm`` not a real number, or ``rng`` not a generator or seed.
    ValueError
        If ``d < 1`` or ``l1_norm`` not finite and positive.

    References
    ----------
    .. [1] [002 Sec. 6.1].

    Examples
    --------
    >>> round(float(np.abs(w_star_polytope(5, rng=0)).sum()), 12)
    1.0
    """
    d = check_integer("d", d, minimum=1)
    gen = as_generator(rng)
    mags = gen.dirichlet(np.ones(d))
    return check_positive("l1_norm", l1_norm) * mags * gen.choice([-1.0, 1.0], size=d)


def w_star_sparse(d: int, s_star: int, rng: RNGLike = None, *, scale: float = 100.0) -> NDArray[np.float64]:
    """[002 Sec. 6.1], sparse case: ``N(0, scale^2)`` entries, ``d - s*`` random ones zeroed, in the unit l2 ball.

    The vector is divided by its l2 norm when that exceeds 1 (projected on the unit l2 ball).

    Parameters
    ----------
    d : int
        Dimension, ``>= 1``.
    s_star : int
        Non-zeros, ``1 <= s_star <= d``.
    rng : numpy.random.Generator, int, SeedSequence or None, default None
        Source of randomness (:func:`~reference.validation.as_generator`).
    scale : float, default 100.0
        Standard deviation of the entries, finite and > 0.

    Returns
    -------
    numpy.ndarray of float64, shape (d,)
        ``w*``.

    Raises
    ------
    TypeError
        If ``d`` or ``s_star`` is not an integer, ``scale`` not a real number, or ``rng`` not a generator or seed.
    ValueError
        If ``d < 1``, ``s_star`` not in ``[1, d]``, or ``scale`` not finite and positive.

    References
    ----------
    .. [1] [002 Sec. 6.1].

    Examples
    --------
    >>> w = w_star_sparse(10, 3, rng=0)
    >>> int(np.count_nonzero(w)), round(float(np.linalg.norm(w)), 12)
    (3, 1.0)
    """
    d = check_integer("d", d, minimum=1)
    s_star = check_integer("s_star", s_star, minimum=1, maximum=d)
    gen = as_generator(rng)
    w = gen.normal(0.0, check_positive("scale", scale), d)
    w[gen.permutation(d)[: d - s_star]] = 0.0
    norm = float(np.linalg.norm(w))
    return w / norm if norm > 1.0 else w


def initial_polytope(d: int, rng: RNGLike = None) -> NDArray[np.float64]:
    """[002 Sec. 6.2]: a random initial vector in the unit l1 ball (uniform in the ball).

    Parameters
    ----------
    d : int
        Dimension, ``>= 1``.
    rng : numpy.random.Generator, int, SeedSequence or None, default None
        Source of randomness (:func:`~reference.validation.as_generator`).

    Returns
    -------
    numpy.ndarray of float64, shape (d,)
        ``w^0``.

    Raises
    ------
    TypeError
        If ``d`` is not an integer or ``rng`` not a generator or seed.
    ValueError
        If ``d < 1``.

    References
    ----------
    .. [1] [002 Sec. 6.2].

    Examples
    --------
    >>> float(np.abs(initial_polytope(5, rng=0)).sum()) <= 1.0
    True
    """
    d = check_integer("d", d, minimum=1)
    gen = as_generator(rng)
    mags = gen.dirichlet(np.ones(d + 1))[:d]
    return mags * gen.choice([-1.0, 1.0], size=d)


def initial_sparse(d: int, s_star: int, rng: RNGLike = None) -> NDArray[np.float64]:
    """[002 Sec. 6.2]: a random ``s*``-sparse initial vector in the unit l2 ball (uniform on its support's ball).

    Parameters
    ----------
    d : int
        Dimension, ``>= 1``.
    s_star : int
        Non-zeros, ``1 <= s_star <= d``.
    rng : numpy.random.Generator, int, SeedSequence or None, default None
        Source of randomness (:func:`~reference.validation.as_generator`).

    Returns
    -------
    numpy.ndarray of float64, shape (d,)
        ``w^1``.

    Raises
    ------
    TypeError
        If ``d`` or ``s_star`` is not an integer, or ``rng`` not a generator or seed.
    ValueError
        If ``d < 1`` or ``s_star`` not in ``[1, d]``.

    References
    ----------
    .. [1] [002 Sec. 6.2].

    Examples
    --------
    >>> w = initial_sparse(10, 3, rng=0)
    >>> int(np.count_nonzero(w)), float(np.linalg.norm(w)) <= 1.0
    (3, True)
    """
    d = check_integer("d", d, minimum=1)
    s_star = check_integer("s_star", s_star, minimum=1, maximum=d)
    gen = as_generator(rng)
    w = np.zeros(d)
    support = gen.permutation(d)[:s_star]
    u = gen.normal(size=s_star)
    w[support] = u / np.linalg.norm(u) * gen.random() ** (1.0 / s_star)
    return w


def linear_data(
    n: int,
    w_star: ArrayLike,
    x_law: str,
    noise_law: str,
    rng: RNGLike = None,
    *,
    x_params: dict[str, float] | None = None,
    noise_params: dict[str, float] | None = None,
) -> NDArray[np.float64]:
    """[002 Sec. 6.1]: records ``[x, y]`` with ``y = <w*, x> + iota``, i.i.d. ``x_j`` and noise.

    Parameters
    ----------
    n : int
        Number of records, ``>= 1``.
    w_star : array_like, shape (d,)
        The true parameter, finite.
    x_law : str
        The law of each ``x_j`` (:func:`sample_distribution`).
    noise_law : str
        The law of the noise.
    rng : numpy.random.Generator, int, SeedSequence or None, default None
        Source of randomness (:func:`~reference.validation.as_generator`).
    x_params, noise_params : dict or None, default None
        Parameters of the two laws.

    Returns
    -------
    numpy.ndarray of float64, shape (n, d + 1)
        The records.

    Raises
    ------
    TypeError
        If ``n`` is not an integer, ``w_star`` not an array of real numbers, or ``rng`` not a generator or seed.
    ValueError
        If ``n < 1``, ``w_star`` is not a non-empty finite vector, or a law or its parameter is unknown or out
        of range.

    References
    ----------
    .. [1] [002 Sec. 6.1].

    Examples
    --------
    >>> linear_data(5, [1.0, -1.0], "normal", "student_t", rng=0).shape
    (5, 3)
    """
    n = check_integer("n", n, minimum=1)
    w = check_finite_array("w_star", w_star, ndim=1)
    gen = as_generator(rng)
    X = sample_distribution(x_law, (n, w.size), gen, **(x_params or {}))
    y = X @ w + sample_distribution(noise_law, n, gen, **(noise_params or {}))
    return np.column_stack([X, y])


def logistic_data(
    n: int,
    w_star: ArrayLike,
    x_law: str,
    noise_law: str,
    rng: RNGLike = None,
    *,
    x_params: dict[str, float] | None = None,
    noise_params: dict[str, float] | None = None,
) -> NDArray[np.float64]:
    """[002 Sec. 6.1]: ``z = <x, w*> + zeta``, ``y = sign(sigmoid(z) - 0.5)``, labels in {-1, 0, +1}.

    The label 0 has probability zero in exact arithmetic and occurs only if ``sigmoid(z)`` rounds to 0.5.

    Parameters
    ----------
    n : int
        Number of records, ``>= 1``.
    w_star : array_like, shape (d,)
        The true parameter, finite.
    x_law : str
        The law of each ``x_j`` (:func:`sample_distribution`).
    noise_law : str
        The law of the noise.
    rng : numpy.random.Generator, int, SeedSequence or None, default None
        Source of randomness (:func:`~reference.validation.as_generator`).
    x_params, noise_params : dict or None, default None
        Parameters of the two laws.

    Returns
    -------
    numpy.ndarray of float64, shape (n, d + 1)
        The records.

    Raises
    ------
    TypeError
        If ``n`` is not an integer, ``w_star`` not an array of real numbers, or ``rng`` not a generator or seed.
    ValueError
        If ``n < 1``, ``w_star`` is not a non-empty finite vector, or a law or its parameter is unknown or out
        of range.

    References
    ----------
    .. [1] [002 Sec. 6.1].

    Examples
    --------
    >>> data = logistic_data(50, [1.0, -1.0], "normal", "logistic", rng=0)
    >>> data.shape, set(np.unique(data[:, -1]).tolist()) <= {-1.0, 0.0, 1.0}
    ((50, 3), True)
    """
    n = check_integer("n", n, minimum=1)
    w = check_finite_array("w_star", w_star, ndim=1)
    gen = as_generator(rng)
    X = sample_distribution(x_law, (n, w.size), gen, **(x_params or {}))
    z = X @ w + sample_distribution(noise_law, n, gen, **(noise_params or {}))
    return np.column_stack([X, np.sign(expit(z) - 0.5)])


#: Synthetic setting of each figure: (model, w* kind, x law, x params, noise law, noise params).
#: [002 Fig. 2] does not name its noise; N(0, 0.1) as in [002 Fig. 1] is used.
#: [002 Fig. 10]'s caption says log-normal noise, its text logistic(0, 0.5); the text is followed.
FIGURES = {
    1: ("linear", "polytope", "lognormal", {"var": 0.6}, "normal", {"var": 0.1}),
    2: ("logistic", "polytope", "lognormal", {"var": 0.6}, "normal", {"var": 0.1}),
    5: ("linear", "polytope", "lognormal", {"var": 0.6}, "normal", {"var": 0.1}),
    6: ("linear", "polytope", "student_t", {"df": 10.0}, "normal", {"var": 0.1}),
    7: ("linear", "sparse", "normal", {"var": 5.0}, "lognormal", {"var": 0.5}),
    8: ("linear", "sparse", "normal", {"var": 5.0}, "loglogistic", {"c": 0.1}),
    9: ("linear", "sparse", "normal", {"var": 5.0}, "loggamma", {"c": 0.5}),
    10: ("logistic", "sparse", "normal", {"var": 5.0}, "logistic", {"loc": 0.0, "scale": 0.5}),
    11: ("logistic", "sparse", "laplace", {"scale": 5.0}, "loggamma", {"c": 0.5}),
}


def figure_dataset(
    figure: int, n: int, d: int, rng: RNGLike = None, *, s_star: int | None = None
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Synthetic data of one figure of [002 Sec. 6] ([002 Fig. 1], [002 Fig. 2], [002 Fig. 5] to [002 Fig. 11]).

    Parameters
    ----------
    figure : int
        A key of :data:`FIGURES`.
    n : int
        Number of records, ``>= 1``.
    d : int
        Dimension, ``>= 1``.
    rng : numpy.random.Generator, int, SeedSequence or None, default None
        Source of randomness (:func:`~reference.validation.as_generator`).
    s_star : int or None, default None
        Non-zeros of ``w*`` for the sparse figures; 20 by default.

    Returns
    -------
    data : numpy.ndarray of float64, shape (n, d + 1)
        Records ``[x, y]``.
    w_star : numpy.ndarray of float64, shape (d,)
        The true parameter.

    Raises
    ------
    ValueError
        If ``figure`` is unknown, ``n`` or ``d`` below 1, or ``s_star`` not in ``[1, d]``.
    TypeError
        If ``n``, ``d`` or ``s_star`` is not an integer or ``rng`` not a generator or seed.

    References
    ----------
    .. [1] [002 Sec. 6.1], [002 Sec. 6.3] to [002 Sec. 6.5].

    Examples
    --------
    >>> figure = sorted(FIGURES)[0]
    >>> data, w = figure_dataset(figure, 30, 25, rng=0)
    >>> data.shape, w.shape
    ((30, 26), (25,))
    """
    if figure not in FIGURES:
        raise ValueError(f"figure must be one of {sorted(FIGURES)}, got {figure!r}")
    model, kind, xl, xp, nl, npar = FIGURES[figure]
    gen = as_generator(rng)
    if kind == "polytope":
        w = w_star_polytope(d, gen)
    else:
        w = w_star_sparse(d, 20 if s_star is None else s_star, gen)
    make = linear_data if model == "linear" else logistic_data
    return make(n, w, xl, nl, gen, x_params=xp, noise_params=npar), w


def load_dataset(
    path: str | Path, *, target: int = -1, delimiter: str = ",", npz_keys: tuple[str, str] = ("X", "y")
) -> NDArray[np.float64]:
    """Load a user's own dataset (CSV or NPZ) as records ``[x, y]``.

    002 uses four UCI datasets (Blog Feedback, Twitter, Winnipeg, Year Prediction)
    and states no preprocessing for them; none is applied here either: the
    numbers are returned as they are, with the target moved to the last column.
    A non-numeric header line of a CSV is skipped; any other non-numeric or
    non-finite entry is an error naming its row (no row is dropped silently).

    Parameters
    ----------
    path : str or Path
        ``.csv`` (or any delimited text) or ``.npz``.
    target : int, default -1
        Column of the target in a CSV (default: last).
    delimiter : str, default ","
        The CSV's delimiter.
    npz_keys : (str, str), default ("X", "y")
        Keys of the features and the target in an NPZ; an NPZ with a single
        array ``data`` is read as records already.

    Returns
    -------
    numpy.ndarray of float64, shape (n, d + 1)
        The records.

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    ValueError
        If a line is not numeric, rows differ in length, there is no data row, an NPZ lacks its keys or has
        arrays of mismatched shapes, or an entry is not finite.

    References
    ----------
    .. [1] [002 Sec. 6] (the real datasets of the experiments).

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "d.csv")
    ...     with open(path, "w") as f:
    ...         _ = f.write("y,x1,x2\\n1,2,3\\n4,5,6\\n")
    ...     load_dataset(path, target=0)
    array([[2., 3., 1.],
           [5., 6., 4.]])
    """
    p = Path(path)
    if not p.exists():
        raise FileNotFoundError(f"path does not exist: {p}")
    if p.suffix.lower() == ".npz":
        with np.load(p, allow_pickle=False) as z:
            if "data" in z.files and len(z.files) == 1:
                rec = np.asarray(z["data"], dtype=np.float64)
            else:
                kx, ky = npz_keys
                missing = [k for k in (kx, ky) if k not in z.files]
                if missing:
                    raise ValueError(f"npz file {p} lacks keys {missing}; has {z.files}")
                X = np.asarray(z[kx], dtype=np.float64)
                y = np.asarray(z[ky], dtype=np.float64).ravel()
                if X.ndim != 2 or X.shape[0] != y.size:
                    raise ValueError(f"npz {kx} must be (n, d) and {ky} (n,), got {X.shape} and {y.shape}")
                rec = np.column_stack([X, y])
        return _check_records(rec, p)
    lines = p.read_text().splitlines()
    rows, start = [], 0
    if lines and not _numeric_line(lines[0], delimiter):
        start = 1
    for i, line in enumerate(lines[start:], start=start + 1):
        if not line.strip():
            continue
        try:
            rows.append([float(v) for v in line.split(delimiter)])
        except ValueError:
            raise ValueError(f"line {i} of {p} is not numeric: {line[:80]!r}") from None
    if not rows:
        raise ValueError(f"{p} has no data rows")
    widths = {len(r) for r in rows}
    if len(widths) != 1:
        raise ValueError(f"{p} has rows of different lengths {sorted(widths)}")
    arr = np.array(rows, dtype=np.float64)
    t = target % arr.shape[1]
    rec = np.column_stack([np.delete(arr, t, axis=1), arr[:, t]])
    return _check_records(rec, p)


def _numeric_line(line, delimiter):
    try:
        [float(v) for v in line.split(delimiter)]
        return True
    except ValueError:
        return False


def _check_records(rec, p):
    if rec.ndim != 2 or rec.shape[1] < 2 or rec.shape[0] < 1:
        raise ValueError(f"{p} must hold at least one record with a feature and a target, got shape {rec.shape}")
    bad = ~np.all(np.isfinite(rec), axis=1)
    if np.any(bad):
        raise ValueError(
            f"{p}: record {int(np.flatnonzero(bad)[0])} has a non-finite entry ({int(bad.sum())} such records)"
        )
    return rec
