"""The grid size K of [004 Thm. 2] (Private Grid Search with boosted output perturbation), as printed.

[004 Thm. 2] states ``K = Theta(log max{Y sqrt(n) / (X sqrt(H)), Y^2 (n eps)^(2/3) / (sqrt(H) X^2)})``;
its proof [004 App. D.3] asks for guesses ``B = Omega(max{Y sqrt(n eps) / (X sqrt(H)),
Y^2 (n eps)^(2/3) / (sqrt(H) X^2)})`` (``sqrt(n eps)`` where the statement has ``sqrt(n)``).
The Theta/Omega constants are not given; here they are 1 and K is the smallest integer with
``2^K`` at least the argument (the guesses of [004 Alg. 1] are ``B_j = 2^j``).
"""

from __future__ import annotations

import math

from ..validation import check_choice, check_epsilon, check_integer, check_positive

__all__ = ["K_RULES", "theorem2_guess_scale", "theorem2_grid_size"]

#: ``"statement"``: the max of [004 Thm. 2]; ``"proof"``: the Omega of [004 App. D.3]; ``"first-term"``:
#: the statement's first argument only.
K_RULES = ("statement", "proof", "first-term")


def theorem2_guess_scale(
    n: int, epsilon: float, x_bound: float, y_bound: float, smoothness: float, rule: str = "statement"
) -> float:
    """The largest guess the rule asks for (the argument of the log), as a float.

    Parameters
    ----------
    n : int
        Sample size, ``>= 1``.
    epsilon : float
        Privacy parameter, finite and > 0.
    x_bound : float
        ``X``, finite and > 0.
    y_bound : float
        ``Y``, finite and > 0.
    smoothness : float
        ``H``, finite and > 0.
    rule : {"statement", "proof", "first-term"}, default "statement"
        Which reading (:data:`K_RULES`).

    Returns
    -------
    float
        The guess scale.

    Raises
    ------
    TypeError
        If ``n`` is not an integer or another parameter not a real number.
    ValueError
        If ``n < 1``, a real parameter is not finite and positive, ``rule`` is unknown, or the scale overflows
        float64 (its log exceeds 700).

    References
    ----------
    .. [1] [004 Thm. 2] and its proof [004 App. D.3]; [004 Alg. 1] (the guesses ``B_j = 2^j``).

    Examples
    --------
    >>> round(theorem2_guess_scale(10**4, 1.0, 1.0, 1.0, 1.0, "first-term"), 9)
    100.0
    """
    n = check_integer("n", n, minimum=1)
    eps = check_epsilon(epsilon)
    X, Y, H = (
        check_positive(k, v) for k, v in (("x_bound", x_bound), ("y_bound", y_bound), ("smoothness", smoothness))
    )
    rule = check_choice("rule", rule, K_RULES)
    # in logs, so that 1e300 inputs do not overflow before the comparison
    second = 2 * math.log(Y) + (2 / 3) * (math.log(n) + math.log(eps)) - 0.5 * math.log(H) - 2 * math.log(X)
    root = math.log(n) + (math.log(eps) if rule == "proof" else 0.0)
    first = math.log(Y) + 0.5 * root - math.log(X) - 0.5 * math.log(H)
    log_scale = first if rule == "first-term" else max(first, second)
    if log_scale > 700:
        raise ValueError(f"the guess scale overflows float64 (log = {log_scale!r}) for n={n!r}, epsilon={eps!r}")
    return math.exp(log_scale)


def theorem2_grid_size(
    n: int, epsilon: float, x_bound: float, y_bound: float, smoothness: float, rule: str = "statement"
) -> int:
    """``K``: the smallest integer ``>= 1`` with ``2^K >= theorem2_guess_scale(...)``.

    Parameters
    ----------
    n : int
        Sample size, ``>= 1``.
    epsilon : float
        Privacy parameter, finite and > 0.
    x_bound : float
        ``X``, finite and > 0.
    y_bound : float
        ``Y``, finite and > 0.
    smoothness : float
        ``H``, finite and > 0.
    rule : {"statement", "proof", "first-term"}, default "statement"
        Which reading (:data:`K_RULES`).

    Returns
    -------
    int
        The grid size ``K``.

    Raises
    ------
    TypeError
        If ``n`` is not an integer or another parameter not a real number.
    ValueError
        If ``n < 1``, a real parameter is not finite and positive, ``rule`` is unknown, or the scale overflows
        float64 (its log exceeds 700).

    References
    ----------
    .. [1] [004 Thm. 2] and its proof [004 App. D.3]; [004 Alg. 1] (the guesses ``B_j = 2^j``).

    Examples
    --------
    >>> theorem2_grid_size(10**4, 1.0, 1.0, 1.0, 1.0, "first-term")
    7
    """
    scale = theorem2_guess_scale(n, epsilon, x_bound, y_bound, smoothness, rule)
    return max(1, math.ceil(math.log2(scale) - 1e-12))
