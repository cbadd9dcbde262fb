"""Advanced composition: the split of [002 Lemma 2] and the theorem it rests on.

References
----------
.. [1] C. Dwork, G. N. Rothblum and S. Vadhan, "Boosting and differential privacy", FOCS 2010.
.. [2] C. Dwork and A. Roth, "The algorithmic foundations of differential privacy",
       Theorem 3.20 (2014).
.. [3] Hu, Ni, Xiao and Wang, [002 Lemma 2].
"""

from __future__ import annotations

import math
from typing import NamedTuple

from scipy.optimize import brentq

from ..validation import check_choice, check_delta, check_epsilon, check_finite_result, check_integer

__all__ = ["CompositionSplit", "advanced_composition_epsilon", "advanced_composition_split"]


class CompositionSplit(NamedTuple):
    """Per-mechanism budget and the total it is claimed to compose to.

    Parameters
    ----------
    epsilon_step : float
        epsilon of each of the ``T`` mechanisms.
    delta_step : float
        delta of each of the ``T`` mechanisms.
    epsilon_total : float
        The total epsilon claimed.
    delta_total : float
        The total delta claimed.
    variant : str
        ``"printed"`` or ``"standard"`` (see :func:`advanced_composition_split`).

    References
    ----------
    .. [1] [002 Lemma 2]; C. Dwork and A. Roth, "The algorithmic foundations of differential privacy",
       2014, Thm. 3.20.

    Examples
    --------
    >>> CompositionSplit(0.1, 1e-6, 1.0, 2e-5, "printed").epsilon_total
    1.0
    """

    epsilon_step: float
    delta_step: float
    epsilon_total: float
    delta_total: float
    variant: str


def advanced_composition_epsilon(epsilon_step: float, rounds: int, delta_slack: float) -> float:
    """Total epsilon of ``rounds`` adaptive ``(epsilon_step, .)``-DP mechanisms by advanced composition.

    ``sqrt(2 T log(1/delta_slack)) eps' + T eps' (e^eps' - 1)``; the composed mechanism is
    ``(that, T delta' + delta_slack)``-DP.

    Parameters
    ----------
    epsilon_step : float
        ``eps'`` of each mechanism, finite and > 0.
    rounds : int
        Number of mechanisms ``T >= 1``.
    delta_slack : float
        The slack ``delta``, in (0, 1).

    Returns
    -------
    float
        The total epsilon.

    Raises
    ------
    TypeError
        If a parameter is not a real number (``rounds``: not an integer).
    ValueError
        If ``epsilon_step`` is not finite and positive, ``rounds < 1`` or ``delta_slack`` is not in (0, 1).

    References
    ----------
    .. [1] C. Dwork and A. Roth, "The algorithmic foundations of differential privacy", 2014, Thm. 3.20.

    Examples
    --------
    >>> round(advanced_composition_epsilon(0.1, 10, 1e-5), 6)
    1.622598
    """
    e = check_epsilon(epsilon_step, "epsilon_step")
    t = check_integer("rounds", rounds, minimum=1)
    ds = check_delta(delta_slack, "delta_slack")
    try:
        total = math.sqrt(2.0 * t * math.log(1.0 / ds)) * e + t * e * math.expm1(e)
    except OverflowError:  # math.expm1 raises instead of returning inf
        total = math.inf
    return check_finite_result("advanced_composition_epsilon", total, epsilon_step=e, rounds=t, delta_slack=ds)


def advanced_composition_split(epsilon: float, delta: float, rounds: int, variant: str = "printed") -> CompositionSplit:
    """Per-round budget for ``rounds`` mechanisms to compose to (about) (epsilon, delta).

    Parameters
    ----------
    epsilon, delta : float
        Target privacy: ``epsilon`` finite and > 0, ``delta`` in (0, 1).  [002 Lemma 2] assumes
        ``0 < epsilon < 1``.
    rounds : int
        Number of mechanisms T, ``>= 1``.
    variant : {"printed", "standard"}, default "printed"
        ``"printed"``: [002 Lemma 2] as printed, ``eps' = eps / (2 sqrt(2 T ln(2/delta)))``,
        ``delta' = delta / T``, claimed total ``(eps, T delta' + delta) = (eps, 2 delta)``.
        ``"standard"``: the largest ``eps'`` with
        :func:`advanced_composition_epsilon` ``(eps', T, delta/2) = eps`` and
        ``delta' = delta / (2T)``, so the total is exactly ``(eps, delta)``.

    Returns
    -------
    CompositionSplit
        The per-round budget and the claimed total.

    Raises
    ------
    TypeError
        If ``epsilon`` or ``delta`` is not a real number, or ``rounds`` not an integer.
    ValueError
        If ``epsilon`` is not finite and positive, ``delta`` not in (0, 1), ``rounds < 1``, or ``variant`` is
        neither ``"printed"`` nor ``"standard"``.

    Notes
    -----
    Proof note (printed variant).  With slack ``delta``, Theorem 3.20 gives a
    total of ``eps/2 * sqrt(ln(1/delta)/ln(2/delta)) + T eps'(e^eps' - 1)``; the
    first term is ``< eps/2`` and, for ``eps' <= 1``, the second is at most
    ``2 T eps'^2 = eps^2 / (4 ln(2/delta)) < eps/2`` when ``eps < 1``.  So
    the printed split is valid on its stated range; the checker
    ``primitives.composition.lemma2`` verifies this numerically.

    References
    ----------
    .. [1] [002 Lemma 2]; C. Dwork and A. Roth, "The algorithmic foundations of differential privacy",
       2014, Thm. 3.20.

    Examples
    --------
    >>> split = advanced_composition_split(0.5, 1e-5, 10)
    >>> round(split.epsilon_step, 6), round(split.delta_total, 12)
    (0.016001, 2e-05)
    >>> s = advanced_composition_split(0.5, 1e-5, 10, variant="standard")
    >>> round(advanced_composition_epsilon(s.epsilon_step, 10, 0.5e-5), 9)
    0.5
    """
    check_choice("variant", variant, ("printed", "standard"))
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta)
    t = check_integer("rounds", rounds, minimum=1)
    if variant == "printed":
        e_step = eps / (2.0 * math.sqrt(2.0 * t * math.log(2.0 / dlt)))
        return CompositionSplit(e_step, dlt / t, eps, t * (dlt / t) + dlt, variant)
    if variant == "standard":
        slack = dlt / 2.0
        hi = eps  # the first term alone exceeds eps at eps' = eps whenever 2T ln(1/slack) >= 1
        while advanced_composition_epsilon(hi, t, slack) < eps:
            hi *= 2.0
        e_step = brentq(
            lambda e: advanced_composition_epsilon(e, t, slack) - eps, 1e-300, hi, xtol=1e-300, rtol=4 * 2.0**-52
        )
        return CompositionSplit(e_step, dlt / (2.0 * t), eps, dlt, variant)
    raise ValueError(f"variant must be 'printed' or 'standard', got {variant!r}")
