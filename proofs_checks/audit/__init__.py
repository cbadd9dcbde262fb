"""The DP auditor: exact audits of finite-output mechanisms, statistical audits of black boxes, privacy curves.

The public interface, importable from here:

* :func:`audit` (judges "this mechanism is (epsilon, delta)-DP") with its settings :class:`AuditOptions` and
  its outcome :class:`AuditResult`; :func:`profile_options` (the sizes of the verify profiles);
* the exact audit's parts: :func:`search_exact` (worst neighbouring pair of a mechanism with ``log_prob``),
  :func:`exact_pair_epsilon`, :func:`privacy_profile`; the statistical audit: :func:`statistical_audit`,
  :class:`StatisticalAuditResult`, :func:`black_box_pairs`;
* privacy curves: :func:`exact_curve`, :func:`density_curve`, :func:`laplace_curve`, :func:`gaussian_curve`,
  :func:`statistical_curve`, :class:`CurveResult`;
* the attacks of the statistical audit: :func:`register_attack`, :func:`unregister_attack`,
  :func:`attack_names`, :class:`Attack`;
* gray-box audits (replay on a neighbour with the primitives' outputs forced; every call checked):
  :func:`gray_box_audit`, :class:`GrayBoxResult`, :class:`GrayBoxCheck`, :func:`search_neighbours`,
  :class:`NeighbourSearchResult`;
* errors: :class:`MechanismError`, :class:`NoRunnablePair`, :class:`InvalidLawError`, :class:`LawError`,
  :class:`FeatureError`.

Importing the package loads none of them (no numpy): each name loads its module when it is first used, so that
the command line, which reads :mod:`proofs_checks.audit.options` to build its parser, answers ``--help`` at once.
The auditor knows nothing of claims; :mod:`proofs_checks.audit_claims` turns audits into claims' results.

Examples
--------
>>> from proofs_checks.audit import AuditOptions, audit
>>> from proofs_checks.audit.calibration import RandomizedResponse
>>> rr = RandomizedResponse(true_eps=1.0)
>>> res = audit(rr, AuditOptions(epsilon=1.0, sampler_samples=0), pairs=[rr.pair()])
>>> res.verdict, round(res.epsilon_lower, 12)
('not refuted', 1.0)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

#: Public name -> the module of the package that defines it.
_EXPORTS = {
    "audit": "api",
    "audit_claim": "claim_audit",
    "ClaimAuditResult": "claim_audit",
    "parse_claim": "claim_types",
    "AuditResult": "api",
    "MechanismError": "api",
    "InvalidLawError": "api",
    "NoRunnablePair": "api",
    "profile_options": "api",
    "AuditOptions": "options",
    "search_exact": "exact_search",
    "ExactSearchResult": "exact_search",
    "exact_pair_epsilon": "datasets",
    "black_box_pairs": "datasets",
    "privacy_profile": "exact",
    "statistical_audit": "statistical",
    "StatisticalAuditResult": "statistical",
    "exact_curve": "curves",
    "density_curve": "curves",
    "laplace_curve": "curves",
    "gaussian_curve": "curves",
    "statistical_curve": "curves",
    "CurveResult": "curves",
    "Attack": "attacks",
    "register_attack": "attacks",
    "unregister_attack": "attacks",
    "attack_names": "classifiers",
    "LawError": "laws",
    "FeatureError": "features",
    "gray_box_audit": "gray_box",
    "GrayBoxResult": "gray_box",
    "GrayBoxCheck": "gray_box",
    "search_neighbours": "gray_box",
    "NeighbourSearchResult": "gray_box",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # looked up once
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:  # the same names for type checkers and editors; `X as X` marks each as re-exported
    from .api import (
        AuditResult as AuditResult,
    )
    from .api import (
        InvalidLawError as InvalidLawError,
    )
    from .api import (
        MechanismError as MechanismError,
    )
    from .api import (
        NoRunnablePair as NoRunnablePair,
    )
    from .api import (
        audit as audit,
    )
    from .api import (
        profile_options as profile_options,
    )
    from .attacks import Attack as Attack
    from .attacks import register_attack as register_attack
    from .attacks import unregister_attack as unregister_attack
    from .classifiers import attack_names as attack_names
    from .curves import (
        CurveResult as CurveResult,
    )
    from .curves import (
        density_curve as density_curve,
    )
    from .curves import (
        exact_curve as exact_curve,
    )
    from .curves import (
        gaussian_curve as gaussian_curve,
    )
    from .curves import (
        laplace_curve as laplace_curve,
    )
    from .curves import (
        statistical_curve as statistical_curve,
    )
    from .datasets import black_box_pairs as black_box_pairs
    from .datasets import exact_pair_epsilon as exact_pair_epsilon
    from .exact import privacy_profile as privacy_profile
    from .exact_search import ExactSearchResult as ExactSearchResult
    from .exact_search import search_exact as search_exact
    from .features import FeatureError as FeatureError
    from .gray_box import GrayBoxCheck as GrayBoxCheck
    from .gray_box import GrayBoxResult as GrayBoxResult
    from .gray_box import NeighbourSearchResult as NeighbourSearchResult
    from .gray_box import gray_box_audit as gray_box_audit
    from .gray_box import search_neighbours as search_neighbours
    from .laws import LawError as LawError
    from .options import AuditOptions as AuditOptions
    from .statistical import StatisticalAuditResult as StatisticalAuditResult
    from .statistical import statistical_audit as statistical_audit
