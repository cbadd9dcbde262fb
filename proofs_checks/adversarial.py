"""Adversarial heavy-tailed replacement records, shared by the DP auditor and the sensitivity search.

A neighbouring dataset replaces one record.  For heavy-tailed algorithms the
replacements that stress a privacy proof are extreme: huge ``|x|`` and ``|y|``
in every sign pattern, values near the float64 limits, exact zeros,
subnormals, and draws from laws with infinite variance.  This module makes
such candidate records; the searches that pick among them live with the checks.
"""

from __future__ import annotations

import itertools

import numpy as np

from reference.validation import as_generator, check_integer

__all__ = ["EXTREME_MAGNITUDES", "extreme_records", "heavy_tailed_records", "candidate_records"]

#: Magnitudes spanning float64: subnormal, tiny, moderate, large, near the overflow limit.
EXTREME_MAGNITUDES = np.array([0.0, 5e-324, 1e-300, 1e-8, 1.0, 1e3, 1e8, 1e150, 1e300, 1.7e308])


def extreme_records(width, *, magnitudes=EXTREME_MAGNITUDES, max_patterns=64, rng=None):
    """Records of length ``width`` made of one magnitude with sign patterns, plus one-hot records.

    For ``width <= 6`` every sign pattern is used; beyond that ``max_patterns``
    random patterns (always including all-plus and alternating signs).
    Returns an array of shape (m, width).
    """
    width = check_integer("width", width, minimum=1)
    gen = as_generator(rng)
    if width <= 6:
        signs = np.array(list(itertools.product([1.0, -1.0], repeat=width)))
    else:
        base = [np.ones(width), np.resize([1.0, -1.0], width)]
        signs = np.vstack(base + [gen.choice([-1.0, 1.0], size=width) for _ in range(max_patterns - 2)])
    mags = np.asarray(magnitudes, dtype=np.float64)
    dense = (mags[:, None, None] * signs[None, :, :]).reshape(-1, width)
    eye = np.eye(width)
    one_hot = np.concatenate([mags[:, None, None] * eye[None] * s for s in (1.0, -1.0)]).reshape(-1, width)
    return np.unique(np.vstack([dense, one_hot]), axis=0)


def heavy_tailed_records(width, count, rng=None, *, df=1.5):
    """``count`` records with i.i.d. Student-t(``df``) entries (infinite variance for df <= 2)."""
    width = check_integer("width", width, minimum=1)
    count = check_integer("count", count, minimum=0)
    return as_generator(rng).standard_t(df, size=(count, width))


def candidate_records(width, rng=None, *, random_count=64):
    """Extreme records followed by heavy-tailed random ones: the default candidate pool."""
    gen = as_generator(rng)
    return np.vstack([extreme_records(width, rng=gen), heavy_tailed_records(width, random_count, gen)])
