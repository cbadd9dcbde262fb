"""Golden cases of the shared mechanisms: scales, exact laws (exponential, report-noisy-max, Peeling's
support [002 Alg. 4], GEM [004 App. D.1]) and advanced composition [002 Lemma 2]."""

from __future__ import annotations

import numpy as np

from reference import mechanisms as M

from . import mechanisms_mp as mp
from .cases import case, law_case
from .independent import mp_keywords

__all__ = ["SUBJECT", "DESCRIPTION", "REFERENCE_PRECISION", "build"]

SUBJECT = "mechanisms"
DESCRIPTION = (
    "noise scales (Laplace [002 Def. 2], Peeling [002 Alg. 4], report-noisy-max, GEM threshold), "
    "exact output laws of the exponential mechanism, report-noisy-max, Peeling's ordered support "
    "and GEM [004 App. D.1], and advanced composition [002 Lemma 2]"
)
REFERENCE_PRECISION = (
    "float64; report-noisy-max and Peeling laws by quadrature (reference.mechanisms."
    "report_noisy_max): fixed Gauss-Legendre exact to rounding for rows within 80 noise "
    "scales, adaptive in log space (relative tolerance 1e-11) otherwise"
)


def _mp(value, provenance=mp.PROVENANCE):
    """The ``mp_reference`` keywords of a case: 25-digit strings of an independent value and how it was computed."""
    return {"mp_reference": mp.to_strings(value), "mp_provenance": provenance}


def build(seed):
    rng = np.random.default_rng(seed)
    cases = []
    for sens, eps in [(1.0, 1.0), (0.5, 0.1), (3.0, 2.0)]:
        cases.append(
            case(
                f"laplace_scale/{sens:g},{eps:g}",
                "laplace_scale",
                [sens, eps],
                M.laplace_scale(sens, eps),
                **_mp(mp.laplace_scale(sens, eps)),
            )
        )
        cases.append(
            case(
                f"report_noisy_max_scale/{sens:g},{eps:g}",
                "report_noisy_max_scale",
                [sens, eps],
                M.report_noisy_max_scale(sens, eps),
                **_mp(mp.report_noisy_max_scale(sens, eps)),
            )
        )
    for s, eps, delta, lam in [(2, 1.0, 1e-5, 0.3), (5, 0.5, 1e-3, 1.0), (1, 4.0, 0.1, 2.0)]:
        cases.append(
            case(
                f"peeling_scale/s={s},eps={eps:g}",
                "peeling_scale",
                [s, eps, delta, lam],
                M.peeling_scale(s, eps, delta, lam),
                **_mp(mp.peeling_scale(s, eps, delta, lam)),
            )
        )
    for eps, beta, k in [(1.0, 0.1, 5), (0.3, 0.05, 100)]:
        cases.append(
            case(
                f"gem_threshold/eps={eps:g},k={k}",
                "gem_threshold",
                [eps, beta, k],
                M.gem_threshold(eps, beta, k),
                **_mp(mp.gem_threshold(eps, beta, k)),
            )
        )
    scores = np.array([[0.0, 1.0, 2.5, -1.0, 0.3], [1e6, 1e6 - 2.0, -1e6, 1e6 - 0.5, 0.0]])
    for eps, sens in [(1.0, 1.0), (0.2, 0.5), (0.7, 1.5)]:
        cases.append(
            case(
                f"exponential_log_prob/eps={eps:g}",
                "exponential_log_prob",
                [scores, eps, sens],
                M.exponential_log_prob(scores, eps, sens),
                **_mp(mp.exponential_log_prob(scores, eps, sens)),
            )
        )
    rnm = np.array([[0.0, 1.0, 2.5, -1.0, 0.3], [5.0, 5.0, 4.0, 0.0, 100.0]])
    for scale in (1.0, 0.2):
        cases.append(
            case(
                f"report_noisy_max_log_prob/scale={scale:g}",
                "report_noisy_max_log_prob",
                [rnm, scale],
                M.report_noisy_max_log_prob(rnm, scale),
                **_mp(mp.report_noisy_max_log_prob(rnm, scale), mp.QUADRATURE),
            )
        )
    v = np.array([0.9, -0.2, 0.5, 0.05, -0.7])
    for s, eps, delta, lam in [(2, 1.0, 1e-3, 0.1), (3, 2.0, 1e-2, 0.05)]:
        seqs, logp = M.peeling_support_log_prob(v, s, eps, delta, lam)
        mp_seqs, mp_logp = mp.peeling_support_log_prob(v, s, eps, delta, lam)
        exact = dict(zip((tuple(q) for q in mp_seqs), mp_logp))
        cases.append(
            law_case(
                f"peeling_support_log_prob/s={s}",
                "peeling_support_log_prob",
                [v, s, eps, delta, lam],
                (seqs, logp),
                note="[002 Alg. 4] steps 3-6: law of the ordered selected indices",
                **_mp([exact[tuple(int(i) for i in q)] for q in seqs], mp.QUADRATURE),
            )
        )
    g = np.array([0.1, 0.2, 0.4, 0.8, 1.6])
    q = np.array([1.0, 0.7, 0.65, 0.9, 0.2])
    for eps, beta in [(1.0, 0.1), (4.0, 0.01)]:
        cases.append(
            case(
                f"gem_normalized_scores/eps={eps:g}",
                "gem_normalized_scores",
                [g, q, eps, beta],
                M.gem_normalized_scores(g, q, eps, beta),
                **_mp(mp.gem_normalized_scores(g, q, eps, beta)),
            )
        )
        cases.append(
            case(
                f"gem_log_prob/eps={eps:g}",
                "gem_log_prob",
                [g, q, eps, beta],
                M.gem_log_prob(g, q, eps, beta),
                **_mp(mp.gem_log_prob(g, q, eps, beta)),
            )
        )
    for eps_step, T, ds in [(0.1, 10, 1e-5), (0.01, 1000, 1e-6)]:
        cases.append(
            case(
                f"advanced_composition_epsilon/T={T}",
                "advanced_composition_epsilon",
                [eps_step, T, ds],
                M.advanced_composition_epsilon(eps_step, T, ds),
                **_mp(mp.advanced_composition_epsilon(eps_step, T, ds)),
            )
        )
    for variant in ("printed", "standard"):
        for eps, delta, T in [(0.5, 1e-5, 10), (0.9, 1e-6, 200)]:
            cases.append(
                case(
                    f"advanced_composition_split/{variant}/T={T}",
                    "advanced_composition_split",
                    [eps, delta, T],
                    got := M.advanced_composition_split(eps, delta, T, variant),
                    kwargs={"variant": variant},
                    **mp_keywords(
                        mp.advanced_composition_split(eps, delta, T, variant),
                        mp.PROVENANCE
                        + ("; the root by mpmath.findroot (Anderson) on a bracket" if variant == "standard" else ""),
                        like=got,
                    ),
                )
            )
    del rng
    return cases
