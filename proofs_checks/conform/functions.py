"""The port functions, declared once: name, signature, reference, kind, tolerance and where they are checked.

Everything else the kit knows about a port function comes from :data:`FUNCTIONS`:

* the reference port (:mod:`.reference_port`): each name bound to its ``reference``;
* the tolerance table the kit reads (:data:`.tolerances.TOLERANCES`): each ``tolerance``;
* the functions each golden file must cover (``subject``; ``python -m proofs_checks golden`` refuses a
  file whose cases do not cover exactly the functions declared for it);
* the samplers run against their exact laws (``kind = "sampler"``, the check of the same name in
  :data:`.samplers.SAMPLER_CHECKS`) and the mechanisms audited (``audited``, the check of the same name in
  :data:`.privacy.PRIVACY_CHECKS`), in the order declared here;
* the function and tolerance tables of ``docs/porting.md`` (:mod:`.guide`).

Adding a port function is one :class:`PortFunction` here plus its golden cases (a ``*_cases`` builder of
:mod:`proofs_checks.golden`) or its sampler/privacy check; the completeness and tolerance tests
(``tests/test_conform_functions.py``, ``tests/test_conform_tolerances.py``) pick it up from here.
"""

from __future__ import annotations

import ast
import inspect
from dataclasses import dataclass
from typing import Callable, Optional

from reference import mechanisms as M
from reference.hu import catoni
from reference.hu import frank_wolfe as FW
from reference.hu import parameters as HP
from reference.wang_xu import l1_regression as WX
from reference.wang_xu.truncation import psi as _psi

from . import adapters
from .scales import (
    PHI_BOUND,
    Scale,
    Tol,
    c_hat_scale,
    exponential_logit_scale,
    gem_logit_scale,
    gem_terms_scale,
    printed_mean_scale,
    psi_scale,
    standard_mean_scale,
    wang_xu_logit_scale,
)

__all__ = [
    "KINDS",
    "GOLDEN_KINDS",
    "STAGES",
    "PortFunction",
    "FUNCTIONS",
    "declared",
    "golden_functions",
    "sampler_functions",
    "audited_functions",
]

#: What a function's golden cases or checks compare (the golden cases' ``compare`` mode for golden kinds).
KINDS = {
    "values": "golden values, element-wise",
    "rows": "golden rows, as a set (any order)",
    "law": "golden exact law: (outputs, log-probabilities), outputs in any order",
    "sampler": "draws tested against the exact law (002's Alg. 3, 5 and 004's Alg. 1: two-sample against the reference's draws)",
}

#: The kinds checked against golden files (their ``kind`` is the cases' ``compare`` mode).
GOLDEN_KINDS = ("values", "rows", "law")

#: The porting guide's order of implementation: cheap closed forms first, samplers last.
STAGES = {
    1: "the truncation functions",
    2: "scales and sensitivities",
    3: "parameter settings (dicts)",
    4: "the smoothed Catoni estimator",
    5: "losses, per-example gradients, nets, scores",
    6: "exact laws",
    7: "samplers (all take size, rng)",
    8: "whole algorithms (take size, rng; each row one run)",
}


def _parse_signature(text):
    """An :class:`inspect.Signature` from ``"(x, theta=2.0, *, variant='printed')"`` (literal defaults only)."""
    try:
        node = ast.parse(f"def _{text}: pass").body[0]
    except SyntaxError:
        raise ValueError(f"signature must read like '(x, theta=2.0)', got {text!r}") from None
    a = node.args
    if a.vararg or a.kwarg:
        raise ValueError(f"signature must not take *args or **kwargs, got {text!r}")
    params = []
    positional = a.posonlyargs + a.args
    defaults = [inspect.Parameter.empty] * (len(positional) - len(a.defaults)) + list(a.defaults)
    kinds = [inspect.Parameter.POSITIONAL_ONLY] * len(a.posonlyargs) + [inspect.Parameter.POSITIONAL_OR_KEYWORD] * len(
        a.args
    )
    for arg, default, kind in zip(positional, defaults, kinds):
        value = default if default is inspect.Parameter.empty else ast.literal_eval(default)
        params.append(inspect.Parameter(arg.arg, kind, default=value))
    for arg, default in zip(a.kwonlyargs, a.kw_defaults):
        value = inspect.Parameter.empty if default is None else ast.literal_eval(default)
        params.append(inspect.Parameter(arg.arg, inspect.Parameter.KEYWORD_ONLY, default=value))
    return inspect.Signature(params)


@dataclass(frozen=True)
class PortFunction:
    """One function a port may provide, and how the kit checks it.

    Parameters
    ----------
    name : str
        The name a port exposes (a Python identifier).
    signature : str
        The call the kit makes, ``"(x, theta=2.0)"``: the golden cases' arguments bind to it and it binds to
        the reference's own signature.
    reference : callable
        The reference implementation (or an adapter of :mod:`.adapters`); the reference port exposes it.
    kind : str
        A key of :data:`KINDS`: ``"values"``, ``"rows"`` or ``"law"`` (golden cases compared so) or
        ``"sampler"`` (run against its exact law by :mod:`.samplers`).
    stage : int
        A key of :data:`STAGES`: where the porting guide puts it in the order of implementation.
    source : str
        Where the papers print it (citation tags such as ``[002 Alg. 4]``) or what it is.
    subject : str, optional
        The golden file holding its cases (``catoni``, ``wang_xu``, ``hu``, ``mechanisms``): required for the
        golden kinds, absent for samplers.
    tolerance : Tol, optional
        Its stated tolerance with the reason (:mod:`.scales`): required for the golden kinds.
    audited : bool
        Whether :mod:`proofs_checks.conform.privacy` audits it (a check of the same name in ``PRIVACY_CHECKS``).

    Raises
    ------
    TypeError, ValueError
        On a field of the wrong type or value (naming the field and the function).

    Examples
    --------
    >>> f = declared("psi")
    >>> f.kind, f.subject, f.tolerance.ulps
    ('values', 'wang_xu', 4)
    >>> str(f.parameters)
    '(x, theta=2.0)'
    """

    name: str
    signature: str
    reference: Callable
    kind: str
    stage: int
    source: str
    subject: Optional[str] = None
    tolerance: Optional[Tol] = None
    audited: bool = False

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise ValueError(f"name must be a Python identifier, got {self.name!r}")
        where = f"port function {self.name!r}"
        if not callable(self.reference):
            raise TypeError(f"{where}: reference must be callable, got {self.reference!r}")
        if self.kind not in KINDS:
            raise ValueError(f"{where}: kind must be one of {sorted(KINDS)}, got {self.kind!r}")
        if self.stage not in STAGES:
            raise ValueError(f"{where}: stage must be one of {sorted(STAGES)}, got {self.stage!r}")
        if not isinstance(self.source, str) or not self.source:
            raise ValueError(f"{where}: source must be a non-empty string, got {self.source!r}")
        if not isinstance(self.audited, bool):
            raise TypeError(f"{where}: audited must be a bool, got {self.audited!r}")
        _parse_signature(self.signature)
        if self.kind in GOLDEN_KINDS:
            if not isinstance(self.subject, str) or not self.subject:
                raise ValueError(
                    f"{where}: a {self.kind} function needs the subject of its golden file, got {self.subject!r}"
                )
            if not isinstance(self.tolerance, Tol):
                raise TypeError(f"{where}: a {self.kind} function needs a Tol, got {self.tolerance!r}")
            if not isinstance(self.tolerance.why, str) or not self.tolerance.why.strip():
                raise ValueError(f"{where}: its tolerance needs a reason (why), got {self.tolerance.why!r}")
        elif self.subject is not None or self.tolerance is not None:
            raise ValueError(
                f"{where}: a sampler has no golden subject or tolerance (its tests have a level "
                f"and a power: conform.samplers), got subject={self.subject!r}, "
                f"tolerance={self.tolerance!r}"
            )

    @property
    def parameters(self):
        """The declared call as an :class:`inspect.Signature`."""
        return _parse_signature(self.signature)

    @property
    def checks(self):
        """The kit's checks of this function, in words (for the porting guide)."""
        out = [KINDS[self.kind]]
        if self.audited:
            out.append("privacy audit")
        return tuple(out)


_SCALE_WHY = "one or two IEEE operations and a correctly rounded sqrt/log (libm log and pow within 1 ulp each)"
_B = Scale.constant(PHI_BOUND, "B = 2 sqrt(2)/3")
_MEAN_TOL = Tol(
    16,
    Scale("s B", standard_mean_scale),
    "standard: s times a mean of E[phi] terms, each within 16 ulps of B (absolute: 16 ulps of s*B)",
    variants={
        "printed": Tol(
            64,
            Scale("s times the C-hat scale of the terms (x/s, |x|/(s sqrt beta))", printed_mean_scale),
            "s times a mean of printed C-hat terms, each defined to 64 ulps of the terms it cancels",
            nonfinite_compared=False,
        )
    },
    nonfinite_compared=False,
)
_SETTINGS_TOL = Tol(4, "value", "closed forms in pow/log/sqrt; integers (T, s, k) exact")
_WX_SETTINGS_TOL = Tol(4, "value", "closed forms in pow/log/sqrt")
_LAW_AS_DP_FW = (
    "exponential mechanism over enumerated paths; output points matched within 1e-12 relative. The "
    "golden log-probabilities are the reference's float64 log-sum-exp: they moved by 68 ulps "
    "(3.0e-14) between numpy's AVX-512 exp/log and the C library's, far inside law_atol"
)


def _value(name, signature, reference, subject, stage, source, tolerance, *, kind="values", audited=False):
    return PortFunction(name, signature, reference, kind, stage, source, subject, tolerance, audited)


def _sampler(name, signature, reference, source, *, audited=False, stage=7):
    return PortFunction(name, signature, reference, "sampler", stage, source, audited=audited)


#: Every port function, in the porting guide's order (stage, then as listed).  The samplers and the audited
#: mechanisms run in this order.
FUNCTIONS = (
    # 1: the truncation functions
    _value(
        "phi",
        "(x)",
        catoni.phi,
        "catoni",
        1,
        "[002 eq. (2)]",
        Tol(
            2,
            "value",
            "x - x^3/6 has no cancellation on [-sqrt 2, sqrt 2] (x^3/6 <= x/3); 2 ulps allow x*x*x versus pow(x, 3)",
        ),
    ),
    _value(
        "psi",
        "(x, theta=2.0)",
        _psi,
        "wang_xu",
        1,
        "[000 eq. (6)], [000 eq. (16)]",
        Tol(
            4,
            Scale("max(log(theta), 1/2)", psi_scale),
            "the golden values are mpmath's, correctly rounded; log(theta) is psi's range and the scale on which "
            "the scores of [000 Alg. 1-2] use it, floored at 1/2 because the argument 1 - t + t^theta/theta is "
            "rounded at the scale of 1 whatever theta: as theta -> 1 a float64 evaluation (the reference's, "
            "log1p or log of the sum) stays within 1.06 ulps of 1/2 but is 63 ulps of log(theta) off at "
            "theta = 1.01 and 8,720 at 1 + 1e-4 (mpmath, 50 digits); numpy's AVX-512 log1p and the C library's "
            "differ by 1 ulp",
        ),
    ),
    # 2: scales and sensitivities
    _value(
        "laplace_scale",
        "(sensitivity, epsilon)",
        M.laplace_scale,
        "mechanisms",
        2,
        "[002 Def. 2]",
        Tol(0, "value", "one IEEE division (Delta/eps): correctly rounded, bit-exact"),
    ),
    _value(
        "report_noisy_max_scale",
        "(sensitivity, epsilon, *, monotone=False)",
        M.report_noisy_max_scale,
        "mechanisms",
        2,
        "report-noisy-max (Dwork and Roth, Claim 3.9), [002 Alg. 4 step 5]",
        Tol(0, "value", "2*Delta/eps: multiplication by 2 is exact, then one division"),
    ),
    _value(
        "peeling_scale",
        "(s, epsilon, delta, lam)",
        M.peeling_scale,
        "mechanisms",
        2,
        "[002 Alg. 4]",
        Tol(4, "value", _SCALE_WHY),
    ),
    _value(
        "gem_threshold",
        "(epsilon, beta, k)",
        M.gem_threshold,
        "mechanisms",
        2,
        "[004 App. D.1]",
        Tol(4, "value", _SCALE_WHY),
    ),
    _value(
        "dp_fw_sensitivity",
        "(vertices, s, m, reading='radius')",
        FW.dp_fw_sensitivity,
        "hu",
        2,
        "[002 Alg. 1 step 6]",
        Tol(4, "value", _SCALE_WHY),
    ),
    _value(
        "lasso_sensitivity",
        "(vertices, K, n, reading='radius')",
        FW.lasso_sensitivity,
        "hu",
        2,
        "[002 Alg. 2 step 4]",
        Tol(4, "value", _SCALE_WHY),
    ),
    _value(
        "lasso_epsilon_step",
        "(epsilon, delta, T, variant='printed')",
        FW.lasso_epsilon_step,
        "hu",
        2,
        "[002 Alg. 2]",
        Tol(4, "value", _SCALE_WHY),
    ),
    _value(
        "advanced_composition_epsilon",
        "(epsilon_step, rounds, delta_slack)",
        M.advanced_composition_epsilon,
        "mechanisms",
        2,
        "[002 Lemma 2]",
        Tol(4, "value", _SCALE_WHY),
    ),
    _value(
        "advanced_composition_split",
        "(epsilon, delta, rounds, variant='printed')",
        M.advanced_composition_split,
        "mechanisms",
        2,
        "[002 Lemma 2]",
        Tol(
            64,
            "value",
            "the standard split solves an equation numerically (root found to full precision); printed: closed form",
        ),
    ),
    # 3: parameter settings
    _value(
        "hu_theorem2_parameters",
        "(n, epsilon, d, n_vertices, alpha, tau, zeta)",
        HP.theorem2_parameters,
        "hu",
        3,
        "[002 Thm. 2]",
        _SETTINGS_TOL,
    ),
    _value(
        "hu_theorem3_parameters",
        "(n, epsilon, d, zeta)",
        HP.theorem3_parameters,
        "hu",
        3,
        "[002 Thm. 3]",
        _SETTINGS_TOL,
    ),
    _value(
        "hu_theorem5_parameters",
        "(n, epsilon, delta, d, lambda_max, zeta)",
        HP.theorem5_parameters,
        "hu",
        3,
        "[002 Thm. 5]",
        _SETTINGS_TOL,
    ),
    _value(
        "hu_theorem7_parameters",
        "(n, epsilon, s_star, gamma, mu)",
        HP.theorem7_parameters,
        "hu",
        3,
        "[002 Thm. 7]",
        _SETTINGS_TOL,
    ),
    _value(
        "hu_theorem8_parameters",
        "(n, epsilon, s_star, gamma_r, mu_r, tau)",
        HP.theorem8_parameters,
        "hu",
        3,
        "[002 Thm. 8]",
        _SETTINGS_TOL,
    ),
    _value(
        "hu_theorem9_lower_bound",
        "(n, epsilon, delta, d, s_star, tau)",
        HP.theorem9_lower_bound,
        "hu",
        3,
        "[002 Thm. 9]",
        _SETTINGS_TOL,
    ),
    _value(
        "hu_section62_parameters",
        "(algorithm, n, epsilon, *, s_star=None)",
        HP.section62_parameters,
        "hu",
        3,
        "[002 Sec. 6.2]",
        _SETTINGS_TOL,
    ),
    _value(
        "wang_xu_theorem1_parameters",
        "(n, d, epsilon, eta, tau, assumption=1)",
        WX.theorem1_parameters,
        "wang_xu",
        3,
        "[000 Thm. 1]",
        _WX_SETTINGS_TOL,
    ),
    _value(
        "wang_xu_theorem2_parameters",
        "(n, d, epsilon, eta, tau, theta)",
        WX.theorem2_parameters,
        "wang_xu",
        3,
        "[000 Thm. 2]",
        _WX_SETTINGS_TOL,
    ),
    # 4: the smoothed Catoni estimator
    _value(
        "expected_phi",
        "(a, b)",
        catoni.expected_phi,
        "catoni",
        4,
        "[002 eq. (4)-(5)]",
        Tol(
            16,
            _B,
            "the reference is accurate to 1e-15 (9 ulps of B) in absolute terms against mpmath over "
            "the whole float64 range; a port of the same accuracy may differ by the sum of both errors. "
            "Not bit-exact: the batch and scalar paths of the reference itself may differ by 1 ulp",
            bound=Scale.constant(PHI_BOUND, "B"),
        ),
    ),
    _value(
        "c_hat",
        "(a, b)",
        catoni.c_hat,
        "catoni",
        4,
        "[002 App. A]",
        Tol(
            64,
            Scale("|a|(1 + b^2/2) + |a|^3/6 + b^3 + B", c_hat_scale),
            "the printed form cancels terms of size |a|(1+b^2/2)+|a|^3/6 (+ b^3); its float64 value is only "
            "defined to a few ulps of that size; non-finite golden values (b = 0, overflow) are not compared",
            nonfinite_compared=False,
        ),
    ),
    _value(
        "robust_mean",
        "(x, s, beta, *, variant='standard', axis=0)",
        catoni.robust_mean,
        "catoni",
        4,
        "[002 eq. (4)]",
        _MEAN_TOL,
    ),
    _value(
        "robust_gradient",
        "(per_example_grads, s, beta, *, variant='standard')",
        catoni.robust_gradient,
        "catoni",
        4,
        "[002 Alg. 1 step 4]",
        _MEAN_TOL,
    ),
    # 5: losses, per-example gradients, nets, scores
    _value(
        "loss_value",
        "(loss, w, X, y)",
        adapters.loss_value,
        "hu",
        5,
        "per-record losses: squared [002 Alg. 2], logistic [002 Sec. 6.1], biweight (footnote to [002 Thm. 3])",
        Tol(64, "case", "a mean over records"),
    ),
    _value(
        "loss_gradient",
        "(loss, w, X, y)",
        adapters.loss_gradient,
        "hu",
        5,
        "per-example gradients of the same losses",
        Tol(64, "case", "a mean over records"),
    ),
    _value(
        "loss_gradient_batch",
        "(loss, W, X, y)",
        adapters.loss_gradient_batch,
        "hu",
        5,
        "per-example gradients at each row of W",
        Tol(64, "case", "per-example gradients; logistic via a stable sigmoid"),
    ),
    _value(
        "net_points",
        "(kind, radius, zeta, dim)",
        adapters.net_points,
        "wang_xu",
        5,
        "zeta-nets of the l1 and l2 balls [000 Def. 4]",
        Tol(2, 1.0, "grid coordinates k*h: one multiplication; rows compared as a set"),
        kind="rows",
    ),
    _value(
        "truncated_empirical_risk",
        "(W, X, y, iota, theta=2.0)",
        WX.truncated_empirical_risk,
        "wang_xu",
        5,
        "[000 eq. (2)]",
        Tol(64, "case", "a mean of n psi terms: summation order changes the last bits"),
    ),
    _value(
        "l1_loss",
        "(W, X, y)",
        WX.l1_loss,
        "wang_xu",
        5,
        "[000 eq. (1)]",
        Tol(64, "case", "a mean of n absolute residuals"),
    ),
    _value(
        "log_weights",
        "(W, X, y, epsilon, iota, theta=2.0, variant='printed')",
        WX.log_weights,
        "wang_xu",
        5,
        "[000 Alg. 1 step 2], [000 Alg. 2 step 2]",
        Tol(64, "case", "scores times eps factor: sums of n terms"),
    ),
    _value(
        "exponent_factor",
        "(epsilon, theta=2.0, variant='printed')",
        WX.exponent_factor,
        "wang_xu",
        5,
        "[000 Alg. 1 step 2], [000 Alg. 2 step 2]",
        Tol(4, "value", _SCALE_WHY),
    ),
    # 6: exact laws
    _value(
        "exponential_log_prob",
        "(scores, epsilon, sensitivity, *, weight_factor=0.5)",
        M.exponential_log_prob,
        "mechanisms",
        6,
        "[002 Def. 3]",
        Tol(
            64,
            Scale("2 max|eps w u / Delta| + log k (the logits the log-sum-exp cancels)", exponential_logit_scale),
            "log-sum-exp of eps*u/(2 Delta): errors relative to the largest term, the logits (a port computing "
            "z - logsumexp(z) is 0.5 ulps of the logits off, 495 ulps of the output at two equal scores 12, eps 86; "
            "found by the property tests of tests/test_golden_hypothesis.py, when the scale was max|log p|)",
        ),
        audited=True,
    ),
    _value(
        "report_noisy_max_log_prob",
        "(scores, scale)",
        M.report_noisy_max_log_prob,
        "mechanisms",
        6,
        "report-noisy-max (Dwork and Roth, Claim 3.9)",
        Tol(
            2**22,
            1.0,
            "9.3e-10 absolute in log-probability (2^22 ulps of 1): the reference integrates by "
            "fixed Gauss-Legendre panels for rows within 80 noise scales (7.1e-15 against mpmath), "
            "else by adaptive quadrature at relative tolerance 1e-11, through exp/log whose last "
            "bits move with the CPU, so bits are not portable and a port may integrate otherwise",
        ),
        audited=True,
    ),
    _value(
        "gem_normalized_scores",
        "(sensitivities, scores, epsilon, beta)",
        M.gem_normalized_scores,
        "mechanisms",
        6,
        "[004 App. D.1]",
        Tol(
            8,
            Scale("the largest (|q_i + t g_i| + |q_j + t g_j|)/(g_i + g_j) at i", gem_terms_scale),
            "a max of ratios of differences: the difference of two penalised scores cancels, so its float64 value "
            "is defined to a few ulps of the terms, not of the result (the reference is 48 ulps of the value from "
            "mpmath's exact value at gem_normalized_scores/eps=4, 0.07 ulps of the terms)",
        ),
    ),
    _value(
        "gem_log_prob",
        "(sensitivities, scores, epsilon, beta)",
        M.gem_log_prob,
        "mechanisms",
        6,
        "[004 App. D.1]",
        Tol(
            64,
            Scale(
                "eps T + log k, T the largest term of the normalised scores (the logits' own scale)", gem_logit_scale
            ),
            "log-sum-exp of the logits -eps s_i/2, each s_i defined to ulps of the terms T it cancels (the tolerance "
            "of gem_normalized_scores): a port forming s_i as (q_i - q_j) + t(g_i - g_j), then z - logsumexp(z), is "
            "0.05 ulps of this scale off but 3.1e6 ulps of max|log p| at scores near 6.65e6 (found by the property "
            "tests of tests/test_golden_hypothesis.py, when the scale was max|log p|)",
        ),
        audited=True,
    ),
    _value(
        "peeling_support_log_prob",
        "(v, s, epsilon, delta, lam)",
        M.peeling_support_log_prob,
        "mechanisms",
        6,
        "[002 Alg. 4 steps 3-6]",
        Tol(
            0,
            "value",
            "sums of report-noisy-max log-probabilities (quadrature); the golden values are the "
            "reference's float64 sums, which move by an ulp with the CPU's exp/log",
            law_atol=1e-9,
        ),
        kind="law",
        audited=True,
    ),
    _value(
        "wang_xu_log_prob",
        "(X, y, net, epsilon, iota, theta=2.0, variant='printed')",
        WX.wang_xu_log_prob,
        "wang_xu",
        6,
        "[000 Alg. 1], [000 Alg. 2]",
        Tol(
            64,
            Scale("2 max|w| + log k, w the log-weights (what the log-sum-exp cancels)", wang_xu_logit_scale),
            "log-sum-exp normalisation of the log-weights, themselves sums of n terms defined to ulps of max|w| (the "
            "tolerance of log_weights): the reference's w - logsumexp(w) is 495 ulps of max|log p| = log 2 off a "
            "port that subtracts max w first (two mirrored net points, eps = 1000, log-weights -1414; found by the "
            "property tests of tests/test_golden_hypothesis.py, when the scale was max|log p|)",
            law_atol=0.0,
        ),
    ),
    _value(
        "dp_fw_output_log_prob",
        "(data, loss, w0, s, T, beta, epsilon, *, variant='standard')",
        FW.dp_fw_output_log_prob,
        "hu",
        6,
        "[002 Alg. 1]",
        Tol(0, "value", _LAW_AS_DP_FW, law_atol=1e-9),
        kind="law",
    ),
    _value(
        "private_lasso_output_log_prob",
        "(data, w0, K, T, epsilon, delta, *, variant='printed')",
        FW.private_lasso_output_log_prob,
        "hu",
        6,
        "[002 Alg. 2]",
        Tol(0, "value", "as dp_fw_output_log_prob", law_atol=1e-9),
        kind="law",
    ),
    # 7: samplers
    _sampler(
        "laplace_mechanism",
        "(value, sensitivity, epsilon, size=None, rng=None)",
        M.laplace_mechanism,
        "[002 Def. 2]",
        audited=True,
    ),
    _sampler(
        "report_noisy_max",
        "(scores, scale, size=None, rng=None)",
        M.report_noisy_max,
        "report-noisy-max (Dwork and Roth, Claim 3.9)",
    ),
    _sampler(
        "exponential_sample",
        "(scores, epsilon, sensitivity, size=None, rng=None, *, weight_factor=0.5)",
        M.exponential_sample,
        "[002 Def. 3]",
    ),
    _sampler(
        "gem_sample", "(sensitivities, scores, epsilon, beta, size=None, rng=None)", M.gem_sample, "[004 App. D.1]"
    ),
    _sampler("peeling", "(v, s, epsilon, delta, lam, size=None, rng=None)", M.peeling, "[002 Alg. 4]"),
    # 8: whole algorithms (run end to end, draws tested against the exact law of the output)
    _sampler(
        "dp_fw",
        "(data, loss, w0, s, T, beta, epsilon, size=None, rng=None, *, variant='standard')",
        adapters.dp_fw,
        "[002 Alg. 1] over the unit l1 ball",
        stage=8,
    ),
    _sampler(
        "private_lasso",
        "(data, w0, K, T, epsilon, delta, size=None, rng=None, *, variant='printed')",
        adapters.private_lasso,
        "[002 Alg. 2] over the unit l1 ball",
        stage=8,
    ),
    _sampler(
        "wang_xu_algorithm1",
        "(X, y, net, epsilon, iota, size=None, rng=None, *, variant='printed')",
        adapters.wang_xu_algorithm1,
        "[000 Alg. 1] over a net given as rows",
        stage=8,
    ),
    _sampler(
        "wang_xu_algorithm2",
        "(X, y, net, epsilon, iota, theta, size=None, rng=None, *, variant='printed')",
        adapters.wang_xu_algorithm2,
        "[000 Alg. 2] over a net given as rows",
        stage=8,
    ),
    _sampler(
        "sparse_linear_regression",
        "(data, w1, K, T, eta0, s, epsilon, delta, size=None, rng=None)",
        adapters.sparse_linear_regression,
        "[002 Alg. 3]",
        stage=8,
    ),
    _sampler(
        "sparse_optimization",
        "(data, loss, w1, s, beta, k, T, eta, epsilon, delta, size=None, rng=None, *, variant='standard', "
        "gradient_at='current')",
        adapters.sparse_optimization,
        "[002 Alg. 5]; gradient_at: the reading of steps 4-6 (at w^t, the analysis'; at w^{t-1}, as printed)",
        stage=8,
    ),
    _sampler(
        "private_grid_search",
        "(data, loss, x_bound, y_bound, K, epsilon, delta, beta, size=None, rng=None, *, variant='standard')",
        adapters.private_grid_search,
        "[004 Alg. 1] with output perturbation as the base learner",
        stage=8,
    ),
    _sampler(
        "boosting",
        "(data, loss, x_bound, y_bound, B, m, epsilon, delta, sigma_tilde, size=None, rng=None, *, variant='printed')",
        adapters.boosting,
        "[004 App. E] with output perturbation as the base learner; sigma_tilde given; variant: the reading of "
        "Lap(sigma_tilde) (printed: scale sigma_tilde; standard: variance sigma_tilde^2)",
        stage=8,
    ),
    _sampler(
        "noisy_gd",
        "(data, loss, x_bound, y_bound, B, epsilon, delta, steps, size=None, rng=None)",
        adapters.noisy_gd,
        "the noisy projected gradient descent base learner of [004 Alg. 1] ([004 Lemma D.4])",
        stage=8,
    ),
    _sampler(
        "output_perturbation",
        "(data, loss, x_bound, y_bound, B, lam, epsilon, delta, size=None, rng=None)",
        adapters.output_perturbation,
        "the output-perturbation base learner of [004 Alg. 1] ([004 Lemma D.4]): the lam-regularised minimiser "
        "over the B-ball plus Gaussian noise for its sensitivity 2G/(n lam); lam given",
        stage=8,
    ),
    _sampler(
        "private_grid_search_noisy_gd",
        "(data, loss, x_bound, y_bound, K, epsilon, delta, beta, steps, size=None, rng=None, *, variant='standard')",
        adapters.private_grid_search_noisy_gd,
        "[004 Alg. 1] with noisy projected gradient descent (steps given) as the base learner",
        stage=8,
    ),
)

_BY_NAME = {f.name: f for f in FUNCTIONS}
if len(_BY_NAME) != len(FUNCTIONS):  # pragma: no cover - a duplicate is a slip of this module
    raise ValueError("FUNCTIONS declares a name twice")


def declared(name: str) -> PortFunction:
    """The :class:`PortFunction` named ``name``.

    Parameters
    ----------
    name : str
        A declared port function's name.

    Returns
    -------
    PortFunction
        Its declaration.

    Raises
    ------
    ValueError
        If no port function has that name.

    Examples
    --------
    >>> declared("laplace_scale").tolerance.ulps
    0
    """
    try:
        return _BY_NAME[name]
    except (KeyError, TypeError):
        raise ValueError(f"name must be a declared port function, got {name!r}") from None


def golden_functions(subject: Optional[str] = None) -> tuple[PortFunction, ...]:
    """The functions checked against golden files (of ``subject`` only, when given), in declaration order.

    Parameters
    ----------
    subject : str or None
        A golden file's subject (``catoni``, ``wang_xu``, ``hu``, ``mechanisms``); None: every subject.

    Returns
    -------
    tuple of PortFunction
        The declarations of kind ``values``, ``rows`` or ``law``.

    Examples
    --------
    >>> [f.name for f in golden_functions("catoni")]
    ['phi', 'expected_phi', 'c_hat', 'robust_mean', 'robust_gradient']
    """
    return tuple(f for f in FUNCTIONS if f.kind in GOLDEN_KINDS and (subject is None or f.subject == subject))


def sampler_functions() -> tuple[PortFunction, ...]:
    """The samplers, in the order the kit runs them.

    Returns
    -------
    tuple of PortFunction
        The declarations of kind ``sampler``.

    Examples
    --------
    >>> [f.name for f in sampler_functions()][:2]
    ['laplace_mechanism', 'report_noisy_max']
    """
    return tuple(f for f in FUNCTIONS if f.kind == "sampler")


def audited_functions() -> tuple[PortFunction, ...]:
    """The mechanisms the kit audits, in the order it audits them.

    Returns
    -------
    tuple of PortFunction
        The declarations with ``audited=True``.

    Examples
    --------
    >>> [f.name for f in audited_functions()]
    ['exponential_log_prob', 'report_noisy_max_log_prob', 'gem_log_prob', 'peeling_support_log_prob',
     'laplace_mechanism']
    """
    return tuple(f for f in FUNCTIONS if f.audited)
