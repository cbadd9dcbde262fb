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
from scipy.special import expit

from ..validation import as_generator, check_finite_array, check_integer, check_positive

__all__ = ["DISTRIBUTIONS", "sample_distribution", "w_star_polytope", "w_star_sparse", "initial_polytope",
           "initial_sparse", "linear_data", "logistic_data", "FIGURES", "figure_dataset", "load_dataset"]

DISTRIBUTIONS = ("normal", "lognormal", "student_t", "loglogistic", "loggamma", "logistic", "laplace")


def sample_distribution(name, size, rng=None, **params):
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
    size : int or tuple
    rng : Generator, int or None

    Examples
    --------
    >>> sample_distribution("student_t", 3, rng=0).shape
    (3,)
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


def w_star_polytope(d, rng=None, *, l1_norm=1.0):
    """[002 Sec. 6.1], polytope case: a random ``w*`` with ``||w*||_1 = l1_norm`` (uniform on the l1 sphere).

    002 writes "such that ``||w*||_1``" with the relation lost; the unit l1 sphere is used
    (the domain is the unit l1 ball).
    """
    d = check_integer("d", d, minimum=1)
    gen = as_generator(rng)
    mags = gen.dirichlet(np.ones(d))
    return check_positive("l1_norm", l1_norm) * mags * gen.choice([-1.0, 1.0], size=d)


def w_star_sparse(d, s_star, rng=None, *, scale=100.0):
    """[002 Sec. 6.1], sparse case: ``N(0, scale^2)`` entries, ``d - s*`` random ones zeroed, projected on the unit l2 ball."""
    d = check_integer("d", d, minimum=1)
    s_star = check_integer("s_star", s_star, minimum=1, maximum=d)
    gen = as_generator(rng)
    w = gen.normal(0.0, check_positive("scale", scale), d)
    w[gen.permutation(d)[: d - s_star]] = 0.0
    norm = float(np.linalg.norm(w))
    return w / norm if norm > 1.0 else w


def initial_polytope(d, rng=None):
    """[002 Sec. 6.2]: a random initial vector in the unit l1 ball (uniform in the ball)."""
    d = check_integer("d", d, minimum=1)
    gen = as_generator(rng)
    mags = gen.dirichlet(np.ones(d + 1))[:d]
    return mags * gen.choice([-1.0, 1.0], size=d)


def initial_sparse(d, s_star, rng=None):
    """[002 Sec. 6.2]: a random ``s*``-sparse initial vector in the unit l2 ball (uniform on its support's ball)."""
    d = check_integer("d", d, minimum=1)
    s_star = check_integer("s_star", s_star, minimum=1, maximum=d)
    gen = as_generator(rng)
    w = np.zeros(d)
    support = gen.permutation(d)[:s_star]
    u = gen.normal(size=s_star)
    w[support] = u / np.linalg.norm(u) * gen.random() ** (1.0 / s_star)
    return w


def linear_data(n, w_star, x_law, noise_law, rng=None, *, x_params=None, noise_params=None):
    """[002 Sec. 6.1]: records ``[x, y]`` with ``y = <w*, x> + iota``, i.i.d. ``x_j`` and noise."""
    n = check_integer("n", n, minimum=1)
    w = check_finite_array("w_star", w_star, ndim=1)
    gen = as_generator(rng)
    X = sample_distribution(x_law, (n, w.size), gen, **(x_params or {}))
    y = X @ w + sample_distribution(noise_law, n, gen, **(noise_params or {}))
    return np.column_stack([X, y])


def logistic_data(n, w_star, x_law, noise_law, rng=None, *, x_params=None, noise_params=None):
    """[002 Sec. 6.1]: ``z = <x, w*> + zeta``, ``y = sign(sigmoid(z) - 0.5)`` (labels in {-1, 0, +1}; 0 has
    probability zero in exact arithmetic and occurs only if ``sigmoid(z)`` rounds to 0.5)."""
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


def figure_dataset(figure, n, d, rng=None, *, s_star=None):
    """Synthetic data of one figure of [002 Sec. 6] ([002 Fig. 1], [002 Fig. 2], [002 Fig. 5] to [002 Fig. 11]).

    Returns
    -------
    data : ndarray (n, d + 1)
        Records ``[x, y]``.
    w_star : ndarray (d,)
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


def load_dataset(path, *, target=-1, delimiter=",", npz_keys=("X", "y")):
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
    target : int
        Column of the target in a CSV (default: last).
    delimiter : str
    npz_keys : (str, str)
        Keys of the features and the target in an NPZ; an NPZ with a single
        array ``data`` is read as records already.

    Returns
    -------
    numpy.ndarray, shape (n, d + 1)
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
        raise ValueError(f"{p}: record {int(np.flatnonzero(bad)[0])} has a non-finite entry "
                         f"({int(bad.sum())} such records)")
    return rec
