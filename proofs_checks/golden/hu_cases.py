"""Golden cases of paper 002: losses and per-example gradients, sensitivities, the parameter settings
of [002 Thm. 2-9] and [002 Sec. 6.2], and the exact output laws of [002 Alg. 1-2] at small d and T."""

from __future__ import annotations

import numpy as np

from reference.hu import frank_wolfe as FW
from reference.hu import parameters as P
from reference.losses import get_loss

from . import hu_law_mp, hu_mp
from . import mechanisms_mp as mp
from .cases import case, law_case, portable_matvec
from .independent import mp_keywords

__all__ = ["SUBJECT", "DESCRIPTION", "REFERENCE_PRECISION", "build"]

SUBJECT = "hu"
DESCRIPTION = (
    "paper 002: loss values and per-example gradients (squared, logistic, biweight), the "
    "sensitivities of [002 Alg. 1-2], the settings of [002 Thm. 2, 3, 5, 7, 8, 9] and [002 Sec. 6.2], "
    "and the exact output laws of [002 Alg. 1] and [002 Alg. 2] (d = 2, T = 2)"
)
REFERENCE_PRECISION = (
    "float64 reference (laws: exact enumeration of the |V|^T selection paths); every case also carries an "
    "independent mp_reference (proofs_checks/golden/hu_mp.py, hu_law_mp.py, mechanisms_mp.py)"
)


#: The two readings of ``||W||_1`` in the sensitivities of [002 Alg. 1 step 6] and [002 Alg. 2 step 4].
_NORM_READING = {
    "radius": (
        "||W||_1 = max over W of ||w||_1 (the l1 radius; the reference's default: half the printed Delta on the "
        "l1 ball, the smaller noise, so a privacy check of it is the stricter one)"
    ),
    "diameter": "||W||_1 = max over u, v in W of ||u - v||_1 (the l1 diameter, as [002 Sec. 3] defines it)",
}


def _mp_step(variant):
    value = mp.lasso_epsilon_step(0.5, 1e-5, 8, variant)
    if value is None:  # the standard budget: the root of advanced composition at slack delta/2
        value = mp.advanced_composition_split(0.5, 1e-5, 8, "standard")["epsilon_step"]
        return mp_keywords([value], mp.PROVENANCE + "; the root by mpmath.findroot (Anderson) on a bracket")
    return {"mp_reference": mp.to_strings(value), "mp_provenance": mp.PROVENANCE}


def build(seed):
    rng = np.random.default_rng(seed)
    cases = []
    X = rng.standard_t(3.0, size=(6, 3))
    y = np.sign(rng.standard_normal(6))
    W = rng.uniform(-1.0, 1.0, size=(4, 3))
    X[0, 0], y[1] = 1e150, -1e-300
    for loss in ("squared", "logistic", "biweight"):
        L = get_loss(loss)
        for j, w in enumerate(W[:2]):
            cases.append(
                case(
                    f"loss_value/{loss}/w{j}",
                    "loss_value",
                    [loss, w, X, y],
                    L.value(w, X, y),
                    **mp_keywords(hu_mp.loss_value(loss, w, X, y), hu_mp.PROVENANCE),
                )
            )
            cases.append(
                case(
                    f"loss_gradient/{loss}/w{j}",
                    "loss_gradient",
                    [loss, w, X, y],
                    L.gradient(w, X, y),
                    **mp_keywords(hu_mp.loss_gradient(loss, w, X, y), hu_mp.PROVENANCE),
                )
            )
        cases.append(
            case(
                f"loss_gradient_batch/{loss}",
                "loss_gradient_batch",
                [loss, W, X, y],
                L.gradient_batch(W, X, y),
                **mp_keywords(hu_mp.loss_gradient_batch(loss, W, X, y), hu_mp.PROVENANCE),
            )
        )
    V = FW.l1_ball_vertices(2)
    for reading in FW.NORM_READINGS:
        for s, m in [(1.0, 10), (3.5, 7)]:
            cases.append(
                case(
                    f"dp_fw_sensitivity/s={s:g},m={m}" + ("" if reading == "radius" else f"/{reading}"),
                    "dp_fw_sensitivity",
                    [V, s, m],
                    FW.dp_fw_sensitivity(V, s, m, reading),
                    kwargs={"reading": reading},
                    reading=_NORM_READING[reading],
                    mp_reference=mp.to_strings(mp.dp_fw_sensitivity(V, s, m, reading)),
                    mp_provenance=mp.PROVENANCE,
                )
            )
        for K, n in [(1.0, 10), (2.5, 100)]:
            cases.append(
                case(
                    f"lasso_sensitivity/K={K:g},n={n}" + ("" if reading == "radius" else f"/{reading}"),
                    "lasso_sensitivity",
                    [V, K, n],
                    FW.lasso_sensitivity(V, K, n, reading),
                    kwargs={"reading": reading},
                    reading=_NORM_READING[reading],
                    mp_reference=mp.to_strings(mp.lasso_sensitivity(V, K, n, reading)),
                    mp_provenance=mp.PROVENANCE,
                )
            )
    for variant in FW.LASSO_VARIANTS:
        cases.append(
            case(
                f"lasso_epsilon_step/{variant}",
                "lasso_epsilon_step",
                [0.5, 1e-5, 8],
                FW.lasso_epsilon_step(0.5, 1e-5, 8, variant),
                kwargs={"variant": variant},
                **_mp_step(variant),
            )
        )
    settings = [
        ("theorem2_parameters", [10**5, 1.0, 20, 40, 1.0, 2.0, 0.05], {}),
        ("theorem3_parameters", [10**5, 0.5, 20, 0.05], {}),
        ("theorem5_parameters", [10**5, 1.0, 1e-5, 20, 2.0, 0.05], {}),
        ("theorem7_parameters", [10**5, 1.0, 5, 2.0, 0.5], {}),
        ("theorem8_parameters", [10**5, 1.0, 5, 2.0, 0.5, 1.0], {}),
        ("theorem9_lower_bound", [10**5, 1.0, 1e-5, 100, 5, 1.0], {}),
        ("section62_parameters", [1, 10**4, 1.0], {}),
        ("section62_parameters", [2, 10**4, 1.0], {}),
        ("section62_parameters", [3, 10**4, 1.0], {"s_star": 5}),
        ("section62_parameters", [5, 10**4, 1.0], {"s_star": 5}),
    ]
    for name, args, kw in settings:
        got = getattr(P, name)(*args, **kw)
        indep = getattr(hu_mp, name)(*args, **kw)
        cases.append(
            case(
                f"hu_{name}/{args[0]}",
                f"hu_{name}",
                args,
                got,
                kwargs=kw,
                **mp_keywords(indep if isinstance(indep, dict) else [indep], hu_mp.PROVENANCE, like=got),
            )
        )
    Xd = rng.standard_t(3.0, size=(8, 2))
    data = np.column_stack([Xd, portable_matvec(Xd, [0.4, -0.3]) + rng.standard_t(3.0, size=8)])
    w0 = np.zeros(2)
    for variant in ("standard", "printed"):
        law = FW.dp_fw_output_log_prob(data, "squared", w0, 2.0, 2, 1.0, 1.0, variant=variant)
        cases.append(
            law_case(
                f"dp_fw_output_log_prob/{variant}",
                "dp_fw_output_log_prob",
                [data, "squared", w0, 2.0, 2, 1.0, 1.0],
                law,
                kwargs={"variant": variant},
                **mp_keywords(
                    hu_law_mp.match_law(law[0], hu_law_mp.dp_fw_law(data, w0, 2.0, 2, 1.0, 1.0, "squared")),
                    hu_law_mp.PROVENANCE,
                ),
                note="[002 Alg. 1], l1-ball vertices, T = 2",
                reading=f"variant={variant}; {_NORM_READING['radius']}",
            )
        )
    for variant in ("printed", "standard"):
        law = FW.private_lasso_output_log_prob(data, w0, 2.0, 2, 1.0, 1e-3, variant=variant)
        cases.append(
            law_case(
                f"private_lasso_output_log_prob/{variant}",
                "private_lasso_output_log_prob",
                [data, w0, 2.0, 2, 1.0, 1e-3],
                law,
                kwargs={"variant": variant},
                **mp_keywords(
                    hu_law_mp.match_law(law[0], hu_law_mp.private_lasso_law(data, w0, 2.0, 2, 1.0, 1e-3, variant)),
                    hu_law_mp.PROVENANCE,
                ),
                note="[002 Alg. 2], l1-ball vertices, T = 2",
                reading=f"variant={variant}; {_NORM_READING['radius']}",
            )
        )
    return cases
