"""The conformance kit for ports: ``python -m proofs_checks conform --port MODULE`` (``docs/porting.md``).

* :mod:`.functions`: the port functions, declared once (name, signature, reference, kind, tolerance, checks);
* :mod:`.scales`: what a tolerance is (:class:`Tol`) and the scales an error is measured against;
* :mod:`.tolerances`: the table the kit reads, built from the declaration;
* :mod:`.compare`: ulp distances and the comparison of one case;
* :mod:`.deterministic`: the port's functions against the golden vectors;
* :mod:`.samplers`: the port's samplers against the exact laws (distributional tests of stated power);
* :mod:`.privacy`: the port's mechanisms through the auditor (:func:`proofs_checks.audit.api.audit`);
* :mod:`.kit`: loading a port, running everything, the report and the exit status;
* :mod:`.guide`: the porting guide's tables, generated from the declaration;
* :mod:`.property`: a port function against the reference on inputs of the caller's choosing (property tests);
* :mod:`.algorithms`, :mod:`.algorithms_sparse`: the whole-algorithm checks (exact laws; two-sample tests);
* :mod:`.coverage`, :mod:`.drawfile`, :mod:`.rng_contract`: declared gaps, the draw-file protocol, the rng contract;
* :mod:`.reference_port` and :mod:`.adapters`: the reference as a port.

Examples
--------
>>> from proofs_checks.conform import exit_status, load_port, run_kit, summarise
>>> port = load_port("proofs_checks.conform.reference_port")
>>> records = run_kit(port, only={"laplace_scale"}, samplers=False, privacy=False)
>>> summarise(records)["laplace_scale"]["status"], exit_status(records)
('passed', 0)
"""

from .algorithms import ALGORITHM_CHECKS, ALGORITHM_INSTANCES
from .algorithms_sparse import SPARSE_CHECKS, SPARSE_INSTANCES
from .compare import Mismatch, compare_case, ulp_error
from .coverage import GAPS_ATTRIBUTE, coverage_summary, declared_gaps
from .deterministic import GOLDEN_DIR, load_cases, load_results, run_deterministic
from .drawfile import DRAWS_SCHEMA, ReplayPort, instances_document, load_draws
from .functions import (
    FUNCTIONS,
    KINDS,
    STAGES,
    PortFunction,
    audited_functions,
    declared,
    golden_functions,
    sampler_functions,
)
from .guide import guide_differences, update_guide
from .kit import KitResult, exit_status, load_port, results_from_file, run_draw_file, run_kit, summarise
from .privacy import PRIVACY_CHECKS, PRIVACY_INSTANCES, run_privacy
from .property import check_against_reference
from .rng_contract import run_rng_contract
from .samplers import ALPHA, INSTANCES, SAMPLER_CHECKS, SIZES, run_samplers, stated_power
from .scales import PHI_BOUND, Scale, Tol
from .tolerances import TOLERANCES, tolerance_for, tolerance_text

__all__ = [
    # running the kit
    "run_kit",
    "KitResult",
    "load_port",
    "results_from_file",
    "summarise",
    "exit_status",
    # its parts
    "run_deterministic",
    "run_samplers",
    "run_privacy",
    "run_rng_contract",
    "run_draw_file",
    "instances_document",
    "load_draws",
    "ReplayPort",
    "DRAWS_SCHEMA",
    "declared_gaps",
    "coverage_summary",
    "GAPS_ATTRIBUTE",
    "check_against_reference",
    "load_cases",
    "load_results",
    "compare_case",
    "Mismatch",
    "ulp_error",
    "stated_power",
    "GOLDEN_DIR",
    # the declaration and what comes from it
    "FUNCTIONS",
    "PortFunction",
    "KINDS",
    "STAGES",
    "declared",
    "golden_functions",
    "sampler_functions",
    "audited_functions",
    "Tol",
    "Scale",
    "PHI_BOUND",
    "TOLERANCES",
    "tolerance_for",
    "tolerance_text",
    "SAMPLER_CHECKS",
    "ALGORITHM_CHECKS",
    "ALGORITHM_INSTANCES",
    "SPARSE_CHECKS",
    "SPARSE_INSTANCES",
    "PRIVACY_CHECKS",
    "ALPHA",
    "SIZES",
    "INSTANCES",
    "PRIVACY_INSTANCES",
    "update_guide",
    "guide_differences",
]
