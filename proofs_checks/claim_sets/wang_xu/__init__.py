"""Claims of Wang & Xu (000): private l1 regression by the exponential mechanism over a zeta-net.

Algorithms ``wang-xu-1`` ([000 Alg. 1], psi of [000 eq. (6)]) and ``wang-xu-2`` ([000 Alg. 2], psi
of [000 eq. (16)]), each with the ``printed`` exponent, the ``standard`` exponential-mechanism
calibration of [000 Def. 2] with the stated sensitivity and the ``calibrated`` one with the true
sensitivity, and their claims, one module per subject:

* :mod:`.privacy`: Theorems 1-2, eps-DP, checked exactly over replace-one neighbours (the paper's
  relation, [000 Def. 1]) and over add/remove neighbours, at several eps;
* :mod:`.gray_box`: the same, gray-box at n = 1000 on the paper's schedule, with mutants inside the algorithm;
* :mod:`.sensitivity`: the sensitivity of L-hat_iota stated for eq. (6) and (twice) for eq. (16);
* :mod:`.truncation`: psi satisfies (3) / (15), is non-decreasing, bounded by log theta, odd;
* :mod:`.nets`: [000 Lemma 2], the covering number ``<= (3 Delta / zeta)^d``;
* :mod:`.zeta_net`: the nets' covering radius against zeta ([000 Def. 4]), exact in d <= 2;
* :mod:`.schedule_privacy`: add/remove privacy when zeta and iota follow the theorems' schedule in n;
* :mod:`.proof_steps`: single steps: (26)'s coefficient on M, the display closing Theorem 1's proof, (39),
  Theorem 1's log(N/zeta);
* :mod:`.eps_sweeps`: the rates (7), (8), (18), (19) swept in eps at fixed n, two readings of O(rate);
* :mod:`.utility`: the exponential-mechanism step (9) / (20) of the utility proofs, exactly;
* :mod:`.concentration`: Lemmas 4, 5, 7, 8, 10 (uniform concentration over the net, d = 1);
* :mod:`.derivations`: do (14) and (26) follow from their premises (:mod:`.bounds`);
* :mod:`.error_split`: Lemma 6 / (24) for w-hat_iota, the split into statistical and mechanism terms, LAD;
* :mod:`.lemma9`: Lemma 9, L_D(w-hat_iota) against L-hat_iota(w-hat_iota) (d = 1, several eps);
* :mod:`.assumptions`: do the per-coordinate rates (8) (Assumption 2) and (19) (Assumption 4) follow;
* :mod:`.units`: the exact laws and stated sensitivities when radius, zeta and labels are rescaled together;
* :mod:`.statement_slips`: Theorem 2's failure probability zeta and Algorithm 2's text sensitivity, per reading;
* :mod:`.findings`: the findings about 000, each backed by claim ids;
* :mod:`.rates`, :mod:`.rates_dimension`: the rates (7) / (18) in ``n eps`` and in ``d``.

Every check is built by a factory whose arguments default to the implementation in
:mod:`reference.wang_xu`; the tests pass deliberately broken ones (a flipped psi, a halved
sensitivity, a quadrupled exponent, a wrong covering bound, a hot mechanism) to show each check can fail.
"""

from __future__ import annotations

import functools

from reference.wang_xu.l1_regression import make_mechanism

from ...model import Algorithm
from . import (
    assumptions,
    audit_records,
    concentration,
    derivations,
    eps_sweeps,
    error_split,
    findings,
    gray_box,
    lemma9,
    nets,
    privacy,
    proof_steps,
    rates,
    rates_dimension,
    schedule_privacy,
    sensitivity,
    statement_slips,
    truncation,
    units,
    utility,
    zeta_net,
)
from ._common import setup_for, stated_exponent

#: ``setup_for`` and ``stated_exponent``: the instances the claims of 000 run on, and the rates they state.
__all__ = ["register", "setup_for", "stated_exponent"]


def register(registry):
    """Register the two algorithms, their audit records (:mod:`.audit_records`) and every claim of 000."""
    for alg, eq in ((1, 6), (2, 16)):
        registry.add_algorithm(
            Algorithm(
                f"wang-xu-{alg}",
                f"[000 Alg. {alg}] [000 Thm. {alg}]",
                f"exponential mechanism over a zeta-net with the truncated l1 risk (2), psi of eq. ({eq})",
                variants=("printed", "standard", "calibrated"),
                mechanism=functools.partial(make_mechanism, alg),
                privacy_knob=("log-weight", 1.0),
            )
        )
    audit_records.register(registry)
    for module in (
        privacy,
        sensitivity,
        truncation,
        nets,
        utility,
        concentration,
        lemma9,
        derivations,
        assumptions,
        error_split,
        zeta_net,
        eps_sweeps,
        proof_steps,
        schedule_privacy,
        units,
        rates,
        rates_dimension,
        statement_slips,
        findings,
        gray_box,
    ):
        module.register(registry)
