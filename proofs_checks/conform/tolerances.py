"""The tolerance table the kit reads, one entry per golden port function, each with its reason.

:data:`TOLERANCES` is built from the declaration (:data:`.functions.FUNCTIONS`); what a tolerance means is
described in :mod:`.scales`.  :func:`tolerance_for` resolves the entry of one call (its variant and its
scale); :func:`tolerance_text` says it in the porting guide's words.
"""

from __future__ import annotations

import numbers
from typing import Any, Mapping, Sequence

from .functions import FUNCTIONS, GOLDEN_KINDS, declared
from .scales import PHI_BOUND, Tol, c_hat_scale

__all__ = ["Tol", "TOLERANCES", "PHI_BOUND", "tolerance_for", "tolerance_text", "c_hat_scale"]

#: ``{function: Tol}`` for every function checked against golden files (the kit reads this at each call).
TOLERANCES = {f.name: f.tolerance for f in FUNCTIONS if f.kind in GOLDEN_KINDS}


def tolerance_for(function: str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> tuple[Tol, Any]:
    """The tolerance in force for one call and its scale.

    Parameters
    ----------
    function : str
        A key of :data:`TOLERANCES`.
    args : sequence
        The call's positional arguments (what input scales are computed from).
    kwargs : mapping
        Its keyword arguments (``variant`` selects an entry of ``Tol.variants``).

    Returns
    -------
    tol : Tol
        The entry in force (the variant's, where it has one).
    scale : str, float or numpy.ndarray
        ``"value"`` or ``"case"`` (resolved against the expected value by the comparison), or the number or
        array the allowed ulps are measured at.

    Raises
    ------
    KeyError
        If ``function`` has no tolerance.

    Examples
    --------
    >>> tol, scale = tolerance_for("robust_mean", [[1.0], 2.0, 0.5], {"variant": "standard"})
    >>> tol.ulps, scale == 2.0 * PHI_BOUND
    (16, True)
    >>> tolerance_for("robust_mean", [[1.0], 2.0, 0.5], {"variant": "printed"})[0].ulps
    64
    """
    tol = TOLERANCES[function]
    if tol.variants and kwargs.get("variant") in tol.variants:
        tol = tol.variants[kwargs["variant"]]
    if callable(tol.scale):
        return tol, tol.scale(args, kwargs)
    if isinstance(tol.scale, numbers.Real):
        return tol, float(tol.scale)
    return tol, tol.scale  # "value" / "case": resolved against the expected value


def _scale_words(scale):
    if scale == "value":
        return "the value"
    if scale == "case":
        return "the case's largest |value|"
    if isinstance(scale, numbers.Real):
        return f"{float(scale):g}"
    return getattr(scale, "label", getattr(scale, "__name__", repr(scale)))


def _ulps_words(tol, kind):
    if tol.ulps == 0:
        return "**0 ulps (bit-exact)**"
    if kind == "rows":
        return (
            f"{tol.ulps:g} ulps of {_scale_words(tol.scale)}, times 1 + the row's largest |coordinate| "
            f"(max distance between matched rows)"
        )
    return f"{tol.ulps:g} ulps of {_scale_words(tol.scale)}"


def tolerance_text(name: str) -> str:
    """The tolerance in force for port function ``name``, in the porting guide's words.

    Parameters
    ----------
    name : str
        A declared port function checked against golden files.

    Returns
    -------
    str
        What the kit compares and within what (Markdown).

    Raises
    ------
    ValueError
        If ``name`` is not declared or has no golden cases.

    Examples
    --------
    >>> tolerance_text("phi")
    '2 ulps of the value'
    >>> tolerance_text("peeling_support_log_prob")
    '1e-09 absolute in log-probability (outputs matched within 1e-12 relative)'
    """
    f = declared(name)
    if f.kind not in GOLDEN_KINDS:
        raise ValueError(f"name must be a function with golden cases, got the {f.kind} {name!r}")
    tol = f.tolerance
    if tol is None:  # PortFunction refuses a golden kind without a Tol: its own error, should that ever change
        raise TypeError(f"{name}: a {f.kind} function needs a Tol, got None")
    if f.kind == "law":
        text = f"{tol.law_atol:g} absolute in log-probability (outputs matched within 1e-12 relative)"
    else:
        text = _ulps_words(tol, f.kind)
        for variant, vtol in (tol.variants or {}).items():
            text += f"; {variant}: {_ulps_words(vtol, f.kind)}"
        if tol.law_atol:
            text += (
                f" (the declared law_atol {tol.law_atol:g} is not used: the golden cases compare {f.kind}, not a law)"
            )
    if not tol.nonfinite_compared:
        text += "; non-finite golden values not compared"
    if tol.bound is not None:
        text += f"; never outside [-{tol.bound.label}, {tol.bound.label}]"
    return text
