"""A port function against the reference on inputs of the caller's choosing, at the kit's tolerance.

The golden files fix their inputs; a property test (``hypothesis``) draws new ones.  :func:`check_against_reference`
calls the port function and the declared reference (:data:`.functions.FUNCTIONS`) on the same inputs and
compares the outputs exactly as the kit compares a golden case (:func:`.compare.compare_case`: the function's
tolerance in ulps, its scale, its non-finite rule), so a property test holds a port to the same rule as the golden
vectors.  ``tests/test_golden_hypothesis.py`` runs it with ``hypothesis`` on the example ports.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from .compare import compare_case
from .functions import declared

__all__ = ["check_against_reference"]


def check_against_reference(
    port: Any, name: str, args: Sequence[Any], kwargs: Optional[Mapping[str, Any]] = None, *, compare: str = "values"
) -> dict:
    """Compare ``port.<name>(*args, **kwargs)`` with the reference's output at the kit's tolerance.

    Parameters
    ----------
    port : module or object
        The port (any object with the declared function as an attribute).
    name : str
        A declared port function (``docs/porting.md``, the functions table).
    args, kwargs : sequence, mapping
        The inputs, passed to both.
    compare : {"values", "rows", "law"}, default "values"
        How the outputs compare (as the function's golden cases do).

    Returns
    -------
    dict
        The comparison's statistics (``max_ulps``, ``not_compared``, ...).

    Raises
    ------
    Mismatch
        If the port's output is outside the tolerance (the message names the function and the input).
    ValueError
        If ``name`` is not a declared port function.
    AttributeError
        If the port has no attribute ``name``.

    Examples
    --------
    >>> from proofs_checks.conform import reference_port
    >>> check_against_reference(reference_port, "laplace_scale", [1.5, 0.7])["max_ulps"]
    0.0
    """
    kwargs = dict(kwargs or {})
    function = declared(name)
    expected = function.reference(*args, **kwargs)
    if isinstance(expected, tuple):  # as the golden files encode it (wang_xu_log_prob's (net, log-probabilities))
        expected = list(expected)
    actual = getattr(port, name)(*args, **kwargs)
    case = {"id": f"{name}/property", "function": name, "compare": compare, "expected_decoded": expected}
    return compare_case(case, actual, list(args), kwargs)
