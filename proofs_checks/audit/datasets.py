"""Neighbouring datasets: the replace-one relation, a default dataset, candidate records and black-box pairs.

The papers' relation: ``D`` and ``D'`` are 2-D arrays of records (rows) of the same shape that differ in
at most one row (:func:`check_neighbouring`, with an ``any_pair`` escape for pairs taken as given).
Candidate replacement records come from :func:`proofs_checks.adversarial.candidate_records`
(:func:`replacement_candidates`); the black-box audit's pairs are the StatDP / DP-Sniper input patterns
moved to one replaced record (:func:`black_box_pairs`).  The exact search over pairs is in
:mod:`~proofs_checks.audit.exact_search`.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

import numpy as np
from numpy.typing import ArrayLike

from reference.validation import as_generator, check_integer

from ..adversarial import candidate_records
from .exact import privacy_profile
from .laws import align_laws, validate_law

__all__ = [
    "differing_rows",
    "check_neighbouring",
    "replace_row",
    "domain_projector",
    "default_dataset",
    "replacement_candidates",
    "CANNOT_RUN",
    "mechanism_law",
    "exact_pair_epsilon",
    "black_box_pairs",
    "load_pair",
]


def _as_dataset(name, value, allow_nan=False):
    arr = np.asarray(value)
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == bool):
        raise TypeError(f"{name} must be a numeric array, got dtype {arr.dtype}")
    arr = arr.astype(np.float64)
    if not allow_nan and np.isnan(arr).any():
        raise ValueError(
            f"{name} contains NaN (a mechanism whose domain holds NaN records says so with nan_records = True)"
        )
    return arr


def differing_rows(D: ArrayLike, D_prime: ArrayLike, allow_nan: bool = False) -> np.ndarray:
    """Indices of the rows where two datasets of the same shape differ (NaN equals NaN with ``allow_nan``)."""
    a, b = _as_dataset("D", D, allow_nan), _as_dataset("D_prime", D_prime, allow_nan)
    if a.shape != b.shape:
        raise ValueError(f"D and D_prime must have the same shape, got {a.shape} and {b.shape}")
    if a.ndim == 1:
        a, b = a[:, None], b[:, None]
    a, b = a.reshape(len(a), -1), b.reshape(len(b), -1)
    return np.flatnonzero(np.any((a != b) & ~(np.isnan(a) & np.isnan(b)), axis=1))


def check_neighbouring(
    D: ArrayLike, D_prime: ArrayLike, any_pair: bool = False, allow_nan: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """Raise ValueError unless ``D`` and ``D_prime`` differ in at most one record (row).

    With ``any_pair=True`` only the shapes must agree: the pair is taken as
    given (e.g. two vectors of query answers at sensitivity 1).  ``allow_nan=True`` accepts records
    holding NaN (a mechanism's ``nan_records = True``); a NaN coordinate equals a NaN coordinate.
    Returns the two arrays as float64.
    """
    a, b = _as_dataset("D", D, allow_nan), _as_dataset("D_prime", D_prime, allow_nan)
    if a.ndim == 0:
        raise ValueError("D must have at least one axis (rows are records), got a scalar")
    if any_pair:
        if a.shape != b.shape:
            raise ValueError(f"D and D_prime must have the same shape, got {a.shape} and {b.shape}")
        return a, b
    rows = differing_rows(a, b, allow_nan)
    if rows.size > 1:
        raise ValueError(
            f"D and D_prime are not neighbouring: {rows.size} records differ (rows "
            f"{rows[:10].tolist()}{'...' if rows.size > 10 else ''}); neighbouring datasets "
            f"replace one record. Pass any_pair=True (CLI: --any-pair) to audit the pair as given"
        )
    return a, b


def replace_row(D, row, record):
    """Copy of ``D`` with row ``row`` replaced by ``record``."""
    out = np.array(D, dtype=np.float64, copy=True)
    out[row] = record
    return out


def domain_projector(mechanism):
    """The mechanism's ``project_records(records)`` hook, or the identity.

    A mechanism whose data domain is bounded (e.g. ``||x|| <= X, |y| <= Y`` in 004)
    defines ``project_records`` to map arbitrary candidate records into it; the
    auditor applies it to every replacement it builds, so adversarial search
    stays inside the domain on which the privacy claim is made.
    """
    project = getattr(mechanism, "project_records", None)
    if project is None:
        return lambda records: records
    return lambda records: np.asarray(project(np.atleast_2d(records)), dtype=np.float64).reshape(np.shape(records))


def default_dataset(mechanism: Any, rng: Any = None, n: int = 8, max_width: int = 16) -> np.ndarray:
    """A small heavy-tailed dataset the mechanism accepts.

    Uses ``mechanism.example_data(rng)`` when present, else ``record_width``
    (or ``dim``) to make ``n`` Student-t(1.5) records; otherwise probes widths
    1..``max_width`` with one call of ``sample`` and keeps the first accepted.
    """
    gen = as_generator(rng)
    if hasattr(mechanism, "example_data"):
        return np.asarray(mechanism.example_data(gen), dtype=np.float64)
    project = domain_projector(mechanism)
    width = getattr(mechanism, "record_width", None) or getattr(mechanism, "dim", None)
    if width:
        return project(gen.standard_t(1.5, size=(n, int(width))))
    errors = []
    for w in range(1, max_width + 1):
        data = gen.standard_t(1.5, size=(n, w))
        try:
            data = project(data)
            mechanism.sample(data, 1, np.random.default_rng(0))
            return data
        except (ValueError, TypeError, IndexError) as exc:
            errors.append(f"width {w}: {exc}")
    raise ValueError(
        "could not find a record width the mechanism accepts; give pairs explicitly or "
        f"add example_data(rng) to the mechanism (first error: {errors[0]})"
    )


def replacement_candidates(width, rng=None, *, random_count=64, scale_count=32):
    """Adversarial candidate records of length ``width``.

    :func:`proofs_checks.adversarial.candidate_records` (extreme magnitudes in
    sign patterns, one-hot records, Student-t(1.5) draws) followed by
    ``scale_count`` random-direction records of log-uniform magnitude in
    ``[1e-3, 1e300]`` (random search over scales).
    """
    gen = as_generator(rng)
    base = candidate_records(width, gen, random_count=random_count)
    direction = gen.standard_normal((scale_count, width))
    mags = 10.0 ** gen.uniform(-3, 300, size=(scale_count, 1))
    direction /= np.max(np.abs(direction), axis=1, keepdims=True)
    return np.vstack([base, direction * mags])


#: Exceptions that mean "the mechanism cannot run on this dataset" (e.g. a printed formula giving
#: NaN): the search skips the dataset and counts it.  Anything else propagates.
CANNOT_RUN = (ValueError, ArithmeticError)


def mechanism_law(mechanism, D, where="D"):
    """The validated law of ``mechanism.log_prob(D)`` (:func:`~proofs_checks.audit.laws.validate_law`)."""
    outputs, logs = mechanism.log_prob(D)
    return validate_law(outputs, logs, where)


def _aligned_logs(mechanism, D, Dp):
    """Log-probabilities of ``D`` and ``D'`` on the union of their outputs (aligned by output value)."""
    _, lp, lq = align_laws(mechanism_law(mechanism, D, "D"), mechanism_law(mechanism, Dp, "D_prime"))
    return lp, lq


def exact_pair_epsilon(mechanism: Any, D: ArrayLike, D_prime: ArrayLike, delta: float = 0.0) -> tuple[float, str]:
    """Exact epsilon at ``delta`` of one pair (both directions): ``(epsilon, direction)``.

    Parameters
    ----------
    mechanism : object
        A mechanism with ``log_prob(data) -> (outputs, log_probabilities)``.
    D, D_prime : array_like
        The two datasets (2-D arrays of records).
    delta : float
        In [0, 1): the delta the epsilon is measured at.

    Returns
    -------
    epsilon : float
        :func:`~proofs_checks.audit.exact.privacy_profile` of the two laws, aligned by output value.
    direction : {"forward", "backward"}
        ``"forward"`` when ``D`` against ``D_prime`` attains it.

    Raises
    ------
    LawError
        A ``log_prob`` is not a probability law.

    Examples
    --------
    >>> from proofs_checks.audit.calibration import RandomizedResponse
    >>> eps, direction = exact_pair_epsilon(RandomizedResponse(true_eps=1.0), [[0.0]], [[1.0]])
    >>> round(eps, 9), direction
    (1.0, 'forward')
    """
    lp, lq = _aligned_logs(mechanism, D, D_prime)
    return privacy_profile(lp, lq, delta)


def _pattern_records(w, B):
    """The StatDP / DP-Sniper input patterns for records of width ``w`` at magnitude ``B``.

    Those tools audit a vector of ``w`` query answers at sensitivity 1 against the
    reference vector of ones, moving answers by one ("above" = +1, "below" = -1).
    For records the reference is the zero record and a move is ``+-B``: one above,
    one below, one above rest below, one below rest above, half above half below,
    all above, all below, and the "x shape" (first half against second half).
    """
    one = np.zeros(w)
    one[0] = B
    rest = np.full(w, B)
    rest[0] = 0.0
    half = np.zeros(w)
    half[: w // 2] = B
    top = np.zeros(w)
    top[w // 2 :] = B
    z = np.zeros(w)
    return [
        (z, one, "one above"),
        (z, -one, "one below"),
        (z, one - rest, "one above, rest below"),
        (z, rest - one, "one below, rest above"),
        (z, half - top, "half above, half below"),
        (z, np.full(w, B), "all above"),
        (z, np.full(w, -B), "all below"),
        (half, top, "x shape"),
    ]


def black_box_pairs(
    D: ArrayLike,
    *,
    magnitudes: Sequence[float] = (1e300, 1e3),
    project: Optional[Callable] = None,
    budget: Optional[int] = None,
    row: int = 0,
) -> list[tuple[np.ndarray, np.ndarray, str]]:
    """Neighbouring pairs for a black-box audit: one replaced record, deduplicated, at most ``budget``.

    In this order, for each magnitude ``B`` (row ``row`` replaced in both datasets):

    1. ``+B`` against ``-B`` on every coordinate (the widest swing of a clipped sum);
    2. the input patterns of StatDP (Ding et al., CCS 2018) and DP-Sniper (Bichsel et
       al., S&P 2021), moved to records (:func:`_pattern_records`): the zero record
       against one above, one below, one above rest below, one below rest above, half
       above half below, all above, all below, and the x shape;
    3. alternating signs against their mirror, and ``+-B`` on the last coordinate;

    after the first magnitude, the record patterns of dataset audits: the record against its
    negation, against a copy of another record, and against the zero record.

    ``project`` (see :func:`domain_projector`) maps records into the mechanism's domain
    before the pairs are compared: two pairs equal after projection (in either order) are
    one pair, and a pair whose two records project to the same record is dropped.  So no
    pair is audited twice and the selection budget of the statistical audit is split only
    over distinct pairs.

    Parameters
    ----------
    D : array_like
        Base dataset, a 2-D array of records.
    magnitudes : sequence of float
        The magnitudes ``B`` of the replaced records, in order.
    project : callable or None
        Maps an array of records into the mechanism's domain (default: the identity).
    budget : int or None
        Keep the first ``budget`` distinct pairs (>= 1; None: all).
    row : int
        The replaced row, in ``[0, n)``.

    Returns
    -------
    list of (numpy.ndarray, numpy.ndarray, str)
        ``(D, D_prime, description)`` triples, distinct after projection.

    Raises
    ------
    ValueError
        ``row`` or ``budget`` out of range.

    References
    ----------
    .. [1] Z. Ding, Y. Wang, G. Wang, D. Zhang and D. Kifer, "Detecting violations of differential
           privacy", CCS 2018.
    .. [2] B. Bichsel, S. Steffen, I. Bogunovic and M. Vechev, "DP-Sniper: black-box discovery of
           differential privacy violations using classifiers", IEEE S&P 2021.

    Examples
    --------
    >>> pairs = black_box_pairs([[0.5, 0.5], [0.2, 0.1]], budget=3)
    >>> [desc for _, _, desc in pairs]
    ['row 0: +1e+300 vs -1e+300 everywhere', 'row 0: one above (1e+300)', 'row 0: one below (1e+300)']
    >>> pairs[1][1][0].tolist()
    [1e+300, 0.0]
    """
    project = project or (lambda records: records)
    D = np.array(D, dtype=np.float64, copy=True)
    n, w = D.shape
    row = check_integer("row", row, minimum=0, maximum=n - 1)
    if budget is not None:
        budget = check_integer("budget", budget, minimum=1)
    raw = []
    for k, B in enumerate(magnitudes):
        alt = np.resize([1.0, -1.0], w) * B
        last = np.zeros(w)
        last[-1] = B
        raw.append((np.full(w, B), np.full(w, -B), f"+{B:g} vs -{B:g} everywhere"))
        raw += [(a, b, f"{what} ({B:g})") for a, b, what in _pattern_records(w, B)]
        raw += [
            (alt, -alt, f"alternating +-{B:g} vs its mirror"),
            (last, -last, f"+{B:g} vs -{B:g} on the last coordinate"),
        ]
        if k == 0:
            raw.append((D[row], -D[row], "the record vs its negation"))
            if n > 1:
                raw.append((D[row], D[(row + 1) % n], f"the record vs a copy of row {(row + 1) % n}"))
            raw.append((D[row], np.zeros(w), "the record vs zeros"))
    out, seen = [], set()
    for a, b, what in raw:
        a, b = project(np.asarray(a, dtype=np.float64)[None])[0], project(np.asarray(b, dtype=np.float64)[None])[0]
        ka, kb = (a + 0.0).tobytes(), (b + 0.0).tobytes()
        if ka == kb or (ka, kb) in seen:
            continue
        seen.update({(ka, kb), (kb, ka)})
        out.append((replace_row(D, row, a), replace_row(D, row, b), f"row {row}: {what}"))
        if budget is not None and len(out) >= budget:
            break
    return out


def load_pair(path: str) -> tuple[np.ndarray, np.ndarray]:
    """Read arrays ``D`` and ``D_prime`` from an ``.npz`` file."""
    with np.load(path, allow_pickle=False) as f:
        missing = [k for k in ("D", "D_prime") if k not in f.files]
        if missing:
            raise ValueError(f"pair file {path} lacks array(s) {missing}; it has {f.files}")
        return np.array(f["D"]), np.array(f["D_prime"])
