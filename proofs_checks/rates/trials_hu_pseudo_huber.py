"""Trial of [002 Thm. 3] on the pseudo-Huber loss, a loss inside [002 Assumption 2] as printed.

The data are those of :func:`proofs_checks.rates.trials_hu.trial_theorem3` (``x ~ N(0, I_d)``, ``w*`` on the
l1 sphere of radius ``w_norm`` (0.5), symmetric Student-t(3) noise ``xi``), so ``lambda_max(E x x^T) = 1`` and
``<x, w - w*>`` is ``N(0, v)``, ``v = ||w - w*||_2^2``.  The excess population risk is therefore
``G(v) = E[psi(sqrt(v) Z - xi) - psi(xi)]`` (``Z ~ N(0, 1)`` independent of ``xi``; ``psi`` even), evaluated
by :func:`pseudo_huber_excess_risk`:

* the ``xi`` integral over ``[0, inf)`` (the integrand is even in ``xi``) with ``xi = sqrt(3) tan(theta)``,
  which turns the t(3) density times ``d xi`` into ``(2 / pi) cos^2(theta) d theta`` (the t(3) density is
  ``6 sqrt(3) / (pi (3 + xi^2)^2)``), an analytic integrand on ``[0, pi / 2]``: Gauss-Legendre, 200 nodes;
* the ``Z`` expectation by Gauss-Hermite, 100 nodes (``psi`` is analytic in a strip about the real axis).

``tests/test_rates_hu_thm3_pseudo_huber.py`` checks it against mpmath's double quadrature.  The broken modes of
:mod:`.trials_hu` apply (``ignore_data``, ``fixed_noise``, ``noise_x20``, ``output_noise``, ``step_small``,
``frozen_truncation``) through that module's own helpers.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from reference.hu.data import initial_polytope, linear_data, w_star_polytope
from reference.hu.frank_wolfe import heavy_tailed_dp_fw
from reference.hu.parameters import theorem3_parameters
from reference.losses.pseudo_huber import PseudoHuberLoss, pseudo_huber_psi

from . import trials_hu

__all__ = ["PSEUDO_HUBER_DELTA", "pseudo_huber_excess_risk", "trial_theorem3_pseudo_huber"]

#: Scale of the pseudo-Huber loss of the trial: ``C_psi = 1`` in [002 Assumption 2] item 1.
PSEUDO_HUBER_DELTA = 1.0


@functools.lru_cache(maxsize=1)
def _nodes():
    """Gauss-Hermite (100, weights normalised to 1) and Gauss-Legendre (200, mapped to ``[0, pi / 2]``) nodes."""
    gh_z, gh_w = np.polynomial.hermite_e.hermegauss(100)
    gl_x, gl_w = np.polynomial.legendre.leggauss(200)
    theta = math.pi / 4.0 * (gl_x + 1.0)
    # t(3) density times d xi / d theta on [0, pi/2], doubled for xi < 0: (4 / pi) cos^2(theta) (pi / 4) w_k
    xi_w = np.cos(theta) ** 2 * gl_w
    return gh_z, gh_w / gh_w.sum(), math.sqrt(3.0) * np.tan(theta), xi_w


def pseudo_huber_excess_risk(v, delta=PSEUDO_HUBER_DELTA):
    """``E psi(sqrt(v) Z - xi) - E psi(xi)``: the excess risk at ``||w - w*||_2^2 = v`` (``xi ~ t(3)``).

    Parameters
    ----------
    v : float
        ``||w - w*||_2^2``, >= 0.
    delta : float
        The pseudo-Huber scale.

    Returns
    -------
    float
        The excess population risk; 0 at ``v = 0``, increasing in ``v``, ``~ v E[psi''(xi)] / 2`` near 0.

    Raises
    ------
    ValueError
        If ``v`` is negative or not finite.

    References
    ----------
    .. [1] [002 Thm. 3] (the excess population risk ``L_D(w) - min L_D``), [002 Assumption 2] item 3.

    Examples
    --------
    >>> round(pseudo_huber_excess_risk(0.5), 6)
    0.119381
    """
    v = float(v)
    if not (math.isfinite(v) and v >= 0.0):
        raise ValueError(f"v must be finite and >= 0, got {v!r}")
    if v == 0.0:
        return 0.0
    gh_z, gh_w, xi, xi_w = _nodes()
    shifted = pseudo_huber_psi(math.sqrt(v) * gh_z[None, :] - xi[:, None], delta) @ gh_w
    return float(np.sum(xi_w * (shifted - pseudo_huber_psi(xi, delta))))


def trial_theorem3_pseudo_huber(point, rng):
    """Algorithm 1, pseudo-Huber loss, Theorem 3 parameters (constant step ``1/sqrt(T)``); exact excess risk.

    The same draws, parameters and broken modes as :func:`.trials_hu.trial_theorem3`, with
    :class:`~reference.losses.pseudo_huber.PseudoHuberLoss` (``delta = point["delta_loss"]``, default 1) in
    place of the biweight.
    """
    n, eps, d = int(point["n"]), float(point["epsilon"]), int(point["d"])
    delta = float(point.get("delta_loss", PSEUDO_HUBER_DELTA))
    w_star = w_star_polytope(d, rng) * point.get("w_norm", 0.5)
    draw = dict(x_params={"var": 1.0}, noise_params={"df": trials_hu.T_DF_NOISE3})
    data = linear_data(n, w_star, "normal", "student_t", rng, **draw)
    if point.get("broken") == "ignore_data":
        data = linear_data(n, -w_star, "normal", "student_t", rng, **draw)
    zeta, c_T, c_s = point.get("zeta", 0.1), point.get("c_T", 1.0), point.get("c_s", 1.0)
    p = theorem3_parameters(n, eps, d, zeta, c_T=c_T, c_s=c_s)
    if point.get("broken") == "frozen_truncation":
        p["s"] = theorem3_parameters(n, trials_hu._truncation_epsilon(point), d, zeta, c_T=c_T, c_s=c_s)["s"]
    sens = None
    if point.get("broken") in trials_hu._NOISE_MODES:
        sens = 4.0 * math.sqrt(2.0) * p["s"] / (3.0 * (n / p["T"])) * trials_hu._noise_factor(point)
    w = heavy_tailed_dp_fw(
        data,
        PseudoHuberLoss(delta),
        initial_polytope(d, rng),
        p["s"],
        p["T"],
        p["beta"],
        eps,
        rng=rng,
        step_size=[trials_hu._step(point, p["eta"])] * p["T"],
        sensitivity=sens,
    )
    w = trials_hu._output_noise(point, w, rng)
    diff = w - w_star
    return pseudo_huber_excess_risk(float(diff @ diff), delta)
