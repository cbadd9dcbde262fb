"""``python -m proofs_checks audit --gray-box``: the gray-box audit of a user's algorithm ``algorithm(data, rng)``.

Dispatched to by :mod:`proofs_checks.commands.audit`; reads ``--algorithm MODULE:NAME``, ``--data FILE.npy``
(optional: else the algorithm's ``example_data(rng)``), ``--data-prime FILE.npy`` (optional: else the neighbour
is searched, ``--relation``, ``--search-budget``), the claim (``--epsilon``, ``--delta``), ``--paths``,
``--confidence``, ``--seed`` and ``--json``.  The report goes to stdout, progress to stderr.
"""

from __future__ import annotations

import json
import sys

from . import UsageError

__all__ = ["add_gray_box_arguments", "run_gray_box"]


def add_gray_box_arguments(parser):
    """The flags only the gray-box audit reads (the claim, ``--seed``, ``--confidence``, ``--search-budget`` and
    ``--json`` are the audit's own)."""
    group = parser.add_argument_group("gray-box audit (--gray-box)")
    group.add_argument(
        "--gray-box",
        action="store_true",
        help="replay --algorithm on a neighbouring pair with the same randomness and check every primitive call",
    )
    group.add_argument(
        "--algorithm",
        dest="gray_algorithm",
        metavar="MODULE:NAME",
        help="the callable algorithm(data, rng) to audit, built from recorded primitives",
    )
    group.add_argument("--data", metavar="FILE.npy", help="the dataset D (default: the algorithm's example_data(rng))")
    group.add_argument("--data-prime", metavar="FILE.npy", help="the neighbour D' (default: searched)")
    group.add_argument("--paths", type=int, default=200, metavar="N", help="paths per direction (default: 200)")
    group.add_argument(
        "--relation",
        choices=("replace-one", "add-remove"),
        default="replace-one",
        help="neighbouring relation of the searched neighbour (default: replace-one)",
    )


def _load_array(path, flag):
    import numpy as np

    try:
        return np.load(path, allow_pickle=False)
    except (OSError, ValueError) as exc:
        raise UsageError(f"{flag} {path}: {exc}") from None


def run_gray_box(args, load, given):
    """Run the gray-box audit from parsed arguments; ``load`` resolves MODULE:NAME, ``given`` the audit's options
    given on the command line.  Returns the exit status."""
    import numpy as np

    from ..audit.gray_box import gray_box_audit

    if args.gray_algorithm is None:
        raise UsageError("--gray-box needs --algorithm MODULE:NAME")
    if args.algorithm is not None or args.mechanism is not None:
        raise UsageError("--gray-box audits --algorithm MODULE:NAME; give no ALGORITHM_ID nor --mechanism")
    if given.get("epsilon") is None:
        raise UsageError("--epsilon is required with --gray-box")
    algorithm = load(args.gray_algorithm, "--algorithm")
    if not callable(algorithm):
        raise UsageError(f"--algorithm {args.gray_algorithm} is not callable")
    seed = given.get("seed", 0)
    if args.data is not None:
        D = _load_array(args.data, "--data")
    elif hasattr(algorithm, "example_data"):
        D = np.asarray(algorithm.example_data(np.random.default_rng(seed)))
    else:
        raise UsageError("--data FILE.npy is required (the algorithm has no example_data(rng))")
    D_prime = _load_array(args.data_prime, "--data-prime") if args.data_prime else None
    budget = given.get("search_budget") or 200
    try:
        result = gray_box_audit(
            algorithm,
            D,
            D_prime,
            epsilon=given["epsilon"],
            delta=given.get("delta") or 0.0,
            paths=args.paths,
            confidence=given.get("confidence", 0.95),
            seed=seed,
            neighbours=None if D_prime is not None else "search",
            relation=args.relation,
            search_budget=budget,
            progress=lambda message: print(message, file=sys.stderr, flush=True),
        )
    except (TypeError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print(json.dumps(result.as_dict(), indent=2, allow_nan=False))
    else:
        print(result.report())
    return 0
