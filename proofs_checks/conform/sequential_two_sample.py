"""Sequential stopping of the two-sample tests of the continuous whole algorithms ([002 Alg. 3, 5], 004's).

The counts tests of the finite laws stop early by :mod:`proofs_checks.conform.sequential`; the continuous
algorithms compare the port's runs with as many of the reference's (:func:`.algorithms_sparse.two_sample_test`).
Here both samples grow together, and are tested at the same three looks
(:data:`~proofs_checks.conform.sequential.LOOKS` of ``n``, ``m`` runs of each):

* **clearly wrong** -- at look ``k`` the two-sample test runs at level ``SPENDING[k] * alpha``
  (:data:`~proofs_checks.conform.sequential.SPENDING`, adding up to ``alpha``): by the union bound a correct port
  still fails with probability at most ``alpha`` whatever the dependence between the looks.
* **clearly right** -- at an interim look the test stops and passes when every coordinate's two-sample KS distance
  and every support pattern's frequency difference is below ``min_distance - 2 e(m)``, with
  ``e(m) = sqrt(log(4 / FUTILITY) / (2 m))``.  By the Dvoretzky-Kiefer-Wolfowitz inequality (Massart's constant)
  each sample's empirical CDF, and each pattern's frequency (Hoeffding), is within ``e(m)`` of its law's with
  probability at least ``1 - FUTILITY / 2``; so against a slip that moves one coordinate's CDF or one pattern's
  probability by ``min_distance`` or more, the observed distance falls below ``min_distance - 2 e(m)`` with
  probability at most ``FUTILITY``: each interim look gives up at most ``FUTILITY`` of the power against such a
  slip.  Slips that move the law by less than ``min_distance`` are not protected by this rule (``--no-sequential``
  draws everything).

``min_distance`` is per algorithm (:data:`.algorithms_sparse.EARLY_PASS_DISTANCE`): the smallest distance of its
stated slips (:func:`.algorithms_sparse.slip_distance`, 20,000 runs) less that estimate's own margin, so that every
stated slip is protected.  An early pass needs ``2 e(m) < min_distance``: with ``FUTILITY = 0.005``,
``m >= 2,700`` runs of each at 0.1, ``m >= 1,200`` at 0.15; where the slips are closer (below 0.05) no interim
look can pass and only the clearly-wrong stop saves runs.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np
from scipy import stats

from .lawtests import ALPHA
from .sequential import ENABLED, FUTILITY, LOOKS, SPENDING, look_sizes

__all__ = ["dkw_margin", "sample_distances", "clearly_right_two_sample", "sequential_two_sample_test"]


def dkw_margin(m: int, futility: float = FUTILITY) -> float:
    """``e(m) = sqrt(log(4 / futility) / (2 m))``: each of two samples of ``m`` is within it of its law (module doc).

    Parameters
    ----------
    m : int
        Runs in each sample, ``>= 1``.
    futility : float
        The chance, over both samples, that either strays further.

    Returns
    -------
    float
        The margin.

    Raises
    ------
    ValueError
        If ``m < 1`` or ``futility`` is not in (0, 1).

    Examples
    --------
    >>> round(dkw_margin(5_000), 4)
    0.0259
    """
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 1:
        raise ValueError(f"m must be an integer >= 1, got {m!r}")
    if not 0.0 < futility < 1.0:
        raise ValueError(f"futility must be in (0, 1), got {futility!r}")
    return math.sqrt(math.log(4.0 / futility) / (2.0 * int(m)))


def sample_distances(port: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Each coordinate's two-sample KS distance, then the largest support-pattern frequency difference.

    Parameters
    ----------
    port, reference : numpy.ndarray, shape (m, d) and (m', d)
        The two samples.

    Returns
    -------
    numpy.ndarray, shape (d + 1,)
        The ``d`` KS statistics and the pattern distance.

    Examples
    --------
    >>> a = np.array([[0.0, 1.0], [0.0, 2.0]])
    >>> sample_distances(a, np.array([[1.0, 1.0], [0.0, 2.0]])).tolist()
    [0.5, 0.0, 0.5]
    """
    port, reference = np.asarray(port, dtype=np.float64), np.asarray(reference, dtype=np.float64)
    d = port.shape[1]
    ks = [float(stats.ks_2samp(port[:, j], reference[:, j]).statistic) for j in range(d)]
    weights = 2 ** np.arange(d)
    codes = [((x != 0) @ weights).astype(np.int64) for x in (port, reference)]
    freq = [np.bincount(c, minlength=2**d) / c.size for c in codes]
    return np.array([*ks, float(np.max(np.abs(freq[0] - freq[1])))])


def clearly_right_two_sample(port: np.ndarray, reference: np.ndarray, min_distance: float) -> bool:
    """Whether every distance of :func:`sample_distances` is below ``min_distance - 2 e(m)`` (module doc).

    Examples
    --------
    >>> gen = np.random.default_rng(0)
    >>> a, b = gen.laplace(0, 1, (5000, 2)), gen.laplace(0, 1, (5000, 2))
    >>> clearly_right_two_sample(a, b, 0.1), clearly_right_two_sample(a[:500], b[:500], 0.1)
    (True, False)
    """
    m = min(len(port), len(reference))
    return bool(np.all(sample_distances(port, reference) < min_distance - 2.0 * dkw_margin(m)))


def sequential_two_sample_test(
    draw_port: Callable[[int], np.ndarray],
    draw_reference: Callable[[int], np.ndarray],
    n: int,
    test: Callable[..., tuple[bool, str | None, dict]],
    min_distance: float,
    alpha: float = ALPHA,
) -> tuple[bool, str | None, dict]:
    """The two-sample ``test`` over at most ``n`` runs of each side, stopping early (module doc).

    Parameters
    ----------
    draw_port, draw_reference : callable
        ``draw(m)`` returns ``m`` further runs, shape ``(m, d)`` (the port's output is checked by the caller).
    n : int
        The runs of a full test.
    test : callable
        ``test(port, reference, alpha) -> (ok, message, detail)``.
    min_distance : float
        The smallest slip an early pass must exclude (module doc); 0 never passes early.
    alpha : float
        The overall chance of failing a correct port.

    Returns
    -------
    tuple
        ``(ok, message, detail)``; ``detail`` adds ``draws_used``, ``look`` and ``stopped`` (``"clearly
        wrong"``, ``"clearly right"`` or ``"final"``).  With :data:`~proofs_checks.conform.sequential.ENABLED`
        false: one test of all ``n`` runs.

    Examples
    --------
    >>> from proofs_checks.conform.algorithms_sparse import two_sample_test
    >>> gen = np.random.default_rng(1)
    >>> ok, msg, detail = sequential_two_sample_test(lambda m: gen.laplace(0, 1, (m, 2)),
    ...                                              lambda m: gen.laplace(0, 1, (m, 2)), 20_000, two_sample_test, 0.1)
    >>> ok, detail["stopped"], detail["draws_used"]
    (True, 'clearly right', 5000)
    """
    sizes = look_sizes(n) if ENABLED.get() else [int(n)]
    if len(sizes) != len(LOOKS):  # one test of everything at alpha
        sizes = [int(n)]
    levels = [alpha * share for share in SPENDING] if len(sizes) == len(LOOKS) else [alpha]
    ports: list[np.ndarray] = []
    refs: list[np.ndarray] = []
    done = 0
    for look, target in enumerate(sizes):
        ports.append(np.asarray(draw_port(target - done), dtype=np.float64))
        refs.append(np.asarray(draw_reference(target - done), dtype=np.float64))
        done = target
        port, ref = np.concatenate(ports), np.concatenate(refs)
        final = look == len(sizes) - 1
        ok, msg, detail = test(port, ref, levels[look])
        detail.update(draws_used=done, look=look + 1, alpha_spent=sum(levels[: look + 1]))
        if not ok:
            where = "" if final else f" [stopped early at look {look + 1} of {len(sizes)}, {done} of {n} runs]"
            return False, f"{msg}{where}", dict(detail, stopped="final" if final else "clearly wrong")
        if not final and clearly_right_two_sample(port, ref, min_distance):
            return True, None, dict(detail, stopped="clearly right")
    return True, None, dict(detail, stopped="final")
