"""Privacy of Algorithm 1 under add/remove neighbours: [002 Thm. 1] read with [002 Def. 1]'s subsets.

[002 Def. 1] (file line 54) writes datasets as subsets ``D, D' of X`` that differ by one sample, which also
reads as adding or removing one record; [002 Alg. 1 step 2] splits the data into ``T`` parts of ``n / T``
without saying how.  The implementation's split (:func:`reference.hu.frank_wolfe.data_split`) is contiguous:
removing one record shifts a record across every later boundary and changes one part's size, so every
later iteration sees a changed part.  The checks compare exact output laws (every selection path
enumerated) of a dataset and each of its ``n`` one-record-removed datasets (the same pair read the other way
is an addition):

- the contiguous split, ``||W||_1`` read as the l1 radius (the implementation's default) and as the
  diameter (the paper's definition, [002 Sec. 3]);
- a uniformly random partition (a uniform permutation, then the contiguous split): its exact law is the
  average of the contiguous laws over all ``n!`` orders, so only small ``n`` are feasible.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from scipy.special import logsumexp

from reference.hu.frank_wolfe import dp_fw_output_log_prob_batch, l1_ball_vertices

from ...builders import PrivacyTally
from ...model import Claim, Mutant

__all__ = [
    "MAGNITUDE",
    "CONTIGUOUS_QUICK",
    "CONTIGUOUS_FULL",
    "RANDOM_QUICK",
    "RANDOM_FULL",
    "block_records",
    "random_sign_records",
    "contiguous_add_remove_check",
    "random_partition_add_remove_check",
    "merge_rounding_duplicates",
    "MERGE_TOLERANCE",
    "register",
]

#: Magnitude of the designed records ``(M, M, -/+ M)``: every per-record gradient entry saturates the estimator.
MAGNITUDE = 1e3
#: Robust-estimator scale, smoothing parameter and epsilon of every instance.
S, BETA, EPSILON = 1.0, 16.0, 1.0
#: Contiguous-split instances (T, m): n = T m records; the largest has 4^8 selection paths.
CONTIGUOUS_QUICK = ((4, 3), (6, 3))
CONTIGUOUS_FULL = ((8, 2), (2, 3))
#: Random-partition instances (T, m): the law averages n! contiguous laws.
RANDOM_QUICK = ((2, 2),)
RANDOM_FULL = ((2, 3), (3, 2))


def block_records(T: int, m: int, magnitude: float = MAGNITUDE) -> np.ndarray:
    """Records ``(M, M, -sign M)`` with the sign constant on each of ``T`` blocks of ``m`` and alternating.

    Parameters
    ----------
    T, m : int
        Blocks and records per block (``n = T m``).
    magnitude : float, default MAGNITUDE
        ``M``.

    Returns
    -------
    numpy.ndarray, shape (T m, 3)
        At ``w = 0`` the squared loss's gradient of record ``i`` is ``sign_i M^2 (1, 1)``: the blocks'
        robust gradients alternate in sign, and removing the first record moves every boundary.

    Examples
    --------
    >>> block_records(2, 1, 1.0).tolist()
    [[1.0, 1.0, -1.0], [1.0, 1.0, 1.0]]
    """
    signs = np.concatenate([np.full(m, (-1.0) ** k) for k in range(T)])
    return np.stack([np.array([magnitude, magnitude, -sg * magnitude]) for sg in signs])


def random_sign_records(n: int, rng, magnitude: float = MAGNITUDE) -> np.ndarray:
    """``n`` records ``(M, M, -/+ M)`` with independent uniform signs."""
    signs = rng.choice([-1.0, 1.0], size=n)
    return np.stack([np.array([magnitude, magnitude, -sg * magnitude]) for sg in signs])


#: Outputs closer than this (max norm) are one output of the algorithm: distinct selection paths that reach the same
#: w^T in exact arithmetic give floats a few ulps apart (measured: within 1e-12; distinct outputs are >= 1e-6 apart).
MERGE_TOLERANCE = 1e-9


def merge_rounding_duplicates(outputs, logp, tolerance=MERGE_TOLERANCE):
    """Merge outputs that differ only by float rounding: ``(merged log-probabilities (B, K), smallest gap kept)``.

    The exact-law engine merges selection paths whose ``w^T`` are bit-equal, the law of a float64 implementation's
    release.  The theorem is about the algorithm in exact arithmetic, where paths that reach the same point are one
    output; two floats within ``tolerance`` are taken as that one point (single linkage in the max norm), and the
    smallest distance between the outputs kept apart (between the clusters' first outputs, within the tolerance of
    the exact smallest distance) is returned so that the choice can be seen to be clear-cut.
    """
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components
    from scipy.spatial import cKDTree

    tree = cKDTree(outputs)
    pairs = tree.query_pairs(tolerance, p=np.inf, output_type="ndarray")
    k = outputs.shape[0]
    graph = coo_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(k, k))
    count, labels = connected_components(graph, directed=False)
    # one pass per dataset row over the outputs sorted by cluster (no loop over clusters)
    order = np.argsort(labels, kind="stable")
    starts = np.searchsorted(labels[order], np.arange(count))
    sizes = np.diff(np.append(starts, order.size))
    grouped = logp[:, order]
    top = np.maximum.reduceat(grouped, starts, axis=1)
    shift = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        merged = shift + np.log(np.add.reduceat(np.exp(grouped - np.repeat(shift, sizes, axis=1)), starts, axis=1))
    # each cluster's first output stands for it (a cluster is narrower than the tolerance)
    representatives = outputs[order[starts]]
    if count > 1:
        distance, _ = cKDTree(representatives).query(representatives, k=2, p=np.inf)
        gap = float(distance[:, 1].min())
    else:
        gap = math.inf
    return merged, gap


def _laws(stack, T, epsilon, sensitivity_factor):
    """Exact output laws of Algorithm 1 on a stack of datasets (contiguous split), unit l1 ball, ``w0 = 0``."""
    # the step-6 weight is epsilon / (2 Delta): scaling every part's Delta by f is running at epsilon / f
    return dp_fw_output_log_prob_batch(
        stack, "squared", np.zeros(2), S, T, BETA, epsilon / sensitivity_factor, vertices=l1_ball_vertices(2)
    )


def _removed(data):
    return np.stack([np.delete(data, i, axis=0) for i in range(data.shape[0])])


def _replaced(data):
    """Every row replaced by each of the four designed extremes (the same family, replace-one)."""
    M = MAGNITUDE
    pool = np.array([[M, M, M], [M, M, -M], [-M, M, M], [M, -M, M]])
    stack = []
    for i in range(data.shape[0]):
        for c in pool:
            nb = data.copy()
            nb[i] = c
            stack.append(nb)
    return np.stack(stack)


def _norm_factor(reading):
    if reading not in ("radius", "diameter"):
        raise ValueError(f"reading must be 'radius' or 'diameter', got {reading!r}")
    # the diameter of the unit l1 ball is 2, its radius 1: the paper's Delta is twice the implementation's
    return 1.0 if reading == "radius" else 2.0


def contiguous_add_remove_check(reading="radius", relation="add-remove", sensitivity_factor=1.0):
    """Exact check of [002 Thm. 1] under add/remove neighbours with the contiguous split of [002 Alg. 1 step 2].

    Parameters
    ----------
    reading : {"radius", "diameter"}
        The reading of ``||W||_1`` in Delta [002 Alg. 1 step 6].
    relation : {"add-remove", "replace-one"}
        The neighbouring relation; ``"replace-one"`` on the same instances is the control.
    sensitivity_factor : float
        Factor on Delta (1 as printed).
    """
    factor = _norm_factor(reading) * sensitivity_factor
    if relation not in ("add-remove", "replace-one"):
        raise ValueError(f"relation must be 'add-remove' or 'replace-one', got {relation!r}")
    pair_words = "D and D minus one of its records, read both ways" if relation == "add-remove" else "one replaced"
    text = (
        f"[002 Thm. 1] (file line 163) [002 Alg. 1 steps 2 and 6] (box at line 150) with [002 Def. 1] (line 54): "
        f"{relation} neighbours ({pair_words}); "
        "the split of step 2 read as the implementation's contiguous split (data_split: parts of n/T, sizes "
        "within one when T does not divide n; the box does not say how to split); "
        f"||W||_1 read as the l1 {reading} (the paper defines the diameter, [002 Sec. 3] line 50); standard "
        "robust gradient; Other reading: a uniformly random partition (hu.thm1.privacy.random-partition.add-remove)"
        + ("" if sensitivity_factor == 1.0 else f"; Delta x{sensitivity_factor:g}")
    )

    def check(ctx):
        rng = ctx.rng()
        configs = CONTIGUOUS_QUICK if ctx.profile == "quick" else CONTIGUOUS_QUICK + CONTIGUOUS_FULL
        tally, float_tally, gaps = PrivacyTally(), PrivacyTally(), []
        for T, m in configs:
            for design, data in (("block", block_records(T, m)), ("random signs", random_sign_records(T * m, rng))):
                neighbours = _removed(data) if relation == "add-remove" else _replaced(data)
                out0, lp0 = _laws(data[None], T, EPSILON, factor)
                out1, lp1 = _laws(neighbours, T, EPSILON, factor)
                if not np.array_equal(out0, out1):  # the outputs depend on the selection path only
                    raise RuntimeError("output sets of neighbouring datasets differ")
                float_tally.add_rows(np.vstack([lp0, lp1]), EPSILON, 0.0)
                merged, gap = merge_rounding_duplicates(out0, np.vstack([lp0, lp1]))
                gaps.append(gap)
                lp0, lp1 = merged[:1], merged[1:]

                def where(j, T=T, m=m, design=design, data=data):
                    row = j if relation == "add-remove" else j // 4
                    return {
                        "T": T,
                        "n": T * m,
                        "design": design,
                        "signs": (-np.sign(data[:, -1])).astype(int).tolist(),
                        "removed_row" if relation == "add-remove" else "replaced_row": row,
                    }

                tally.add_rows(np.vstack([lp0, lp1]), EPSILON, 0.0, where)
        return tally.result(
            method=f"exact output law of w^T (all 4^T selection paths on the unit l1 ball of R^2, w0 = 0, squared "
            f"loss, s = {S:g}, beta = {BETA:g}, epsilon = {EPSILON:g}) on (T, m) = "
            f"{', '.join(str(c) for c in configs)}: records (M, M, -/+M), M = {MAGNITUDE:g}, in alternating blocks "
            f"of m and with random signs; "
            + ("each record removed" if relation == "add-remove" else "each row replaced by 4 extremes")
            + f"; outputs within {MERGE_TOLERANCE:g} (max norm) merged as the one point they are in exact arithmetic",
            reading=text,
            quantity="largest privacy loss / epsilon",
            evidence={
                "norm_reading": reading,
                "relation": relation,
                "sensitivity_factor": sensitivity_factor,
                "epsilon": EPSILON,
                "output_merge_tolerance": MERGE_TOLERANCE,
                "output_merge_gap": min(gaps),
                "float64_outputs_max_loss_over_epsilon": float_tally.worst.value,
            },
        )

    return check


def _random_partition_law(stack, T, epsilon):
    """Law of Algorithm 1 with a uniform random partition: the average of the contiguous laws over all orders."""
    n = stack.shape[0]
    perms = np.array(list(itertools.permutations(range(n))))
    out, lp = _laws(stack[perms], T, epsilon, 1.0)
    return out, logsumexp(lp, axis=0) - math.log(perms.shape[0])


def random_partition_add_remove_check(reading="radius", sensitivity_factor=1.0):
    """Exact check of [002 Thm. 1] under add/remove neighbours when step 2's split is a uniform random partition."""
    factor = _norm_factor(reading) * sensitivity_factor
    text = (
        "[002 Thm. 1] [002 Alg. 1 step 2] [002 Def. 1]: add/remove neighbours (D and D minus one record); the "
        "split read as a uniformly random partition into parts of the contiguous split's sizes (a uniform "
        "order, then data_split), chosen independently of the data; "
        f"||W||_1 read as the l1 {reading}; standard robust gradient.  Exact law: the average over all n! "
        "orders, so only n <= 6.  No proof that this holds in general: a check on small instances.  Other "
        "reading: the contiguous split (hu.thm1.privacy.standard.add-remove, refuted)"
        + ("" if sensitivity_factor == 1.0 else f"; Delta x{sensitivity_factor:g}")
    )

    def check(ctx):
        rng = ctx.rng()
        configs = RANDOM_QUICK if ctx.profile == "quick" else RANDOM_QUICK + RANDOM_FULL
        tally, gaps = PrivacyTally(), []
        for T, m in configs:
            for design, data in (("block", block_records(T, m)), ("random signs", random_sign_records(T * m, rng))):
                eps = EPSILON / factor
                out0, lp0 = _random_partition_law(data, T, eps)
                for i in range(data.shape[0]):
                    out1, lp1 = _random_partition_law(np.delete(data, i, axis=0), T, eps)
                    if not np.array_equal(out0, out1):
                        raise RuntimeError("output sets of neighbouring datasets differ")
                    merged, gap = merge_rounding_duplicates(out0, np.vstack([lp0, lp1]))
                    gaps.append(gap)
                    where = {"T": T, "n": T * m, "design": design, "removed_row": i}
                    tally.add(merged[0], merged[1], EPSILON, 0.0, where)
        return tally.result(
            method=f"exact output law of w^T under a uniform random partition (average over all n! orders of the "
            f"contiguous laws) on (T, m) = {', '.join(str(c) for c in configs)}; records (M, M, -/+M), "
            f"M = {MAGNITUDE:g}, in alternating blocks and with random signs; each record removed; outputs within "
            f"{MERGE_TOLERANCE:g} (max norm) merged as the one point they are in exact arithmetic",
            reading=text,
            quantity="largest privacy loss / epsilon",
            evidence={
                "norm_reading": reading,
                "relation": "add-remove",
                "sensitivity_factor": sensitivity_factor,
                "epsilon": EPSILON,
                "output_merge_tolerance": MERGE_TOLERANCE,
                "output_merge_gap": min(gaps),
            },
        )

    return check


def register(registry):
    claim = registry.add_claim
    for reading, suffix in (("radius", ""), ("diameter", ".diameter")):
        claim(
            Claim(
                f"hu.thm1.privacy.standard{suffix}.add-remove",
                "[002 Thm. 1], [002 Alg. 1 step 2], [002 Def. 1]",
                "Algorithm 1 (contiguous split of step 2) is epsilon-DP for add/remove neighbours "
                f"(||W||_1 as the l1 {reading}).",
                "privacy",
                contiguous_add_remove_check(reading),
                algorithm="hu-1",
                variant="standard",
                mutants=(
                    Mutant(
                        "the same instances under replace-one neighbours (must be confirmed)",
                        contiguous_add_remove_check(reading, relation="replace-one"),
                        detected_by=("confirmed",),
                    ),
                    Mutant(
                        "Delta x0.5 (half the noise)",
                        contiguous_add_remove_check(reading, sensitivity_factor=0.5),
                        factor=0.5,
                    ),
                ),
            )
        )
    claim(
        Claim(
            "hu.thm1.privacy.random-partition.add-remove",
            "[002 Thm. 1], [002 Alg. 1 step 2], [002 Def. 1]",
            "Algorithm 1 with a uniformly random partition in step 2 is epsilon-DP for add/remove neighbours "
            "(||W||_1 as the l1 radius; small instances).",
            "privacy",
            random_partition_add_remove_check(),
            algorithm="hu-1",
            variant="standard",
            mutants=(
                Mutant(
                    "Delta x0.25 (four times the weight)",
                    random_partition_add_remove_check(sensitivity_factor=0.25),
                    factor=0.25,
                ),
            ),
        )
    )
