"""A JAX (CPU, float64) port of the mechanisms, written from the papers, run by the kit through a thin adapter.

``python -m proofs_checks conform --port examples.jax_port`` (needs ``pip install -e ".[jax]"``).  The closed
forms and laws are jitted JAX functions; the samplers draw from JAX keys seeded by two words of the kit's numpy
generator (:mod:`examples.jax_adapter`), so they keep the kit's rng contract.  :func:`benchmark` times this port
against the reference on the same instance in the same process.

Provided: phi [002 eq. (2)], psi [000 eq. (6)] / [000 eq. (16)], the Laplace mechanism [002 Def. 2], the
exponential mechanism [002 Def. 3], report-noisy-max, Peeling [002 Alg. 4] and GEM [004 App. D.1].  Everything
else is declared in ``UNSUPPORTED``.
"""

from __future__ import annotations

import math
import time

import jax
import jax.numpy as jnp
import numpy as np

from examples.jax_adapter import sampler, to_numpy
from proofs_checks.conform.functions import FUNCTIONS

jax.config.update("jax_enable_x64", True)

_R = math.sqrt(2.0)
_B = 2.0 * _R / 3.0

_PROVIDED = (
    "phi",
    "psi",
    "laplace_scale",
    "laplace_mechanism",
    "report_noisy_max_scale",
    "report_noisy_max",
    "exponential_log_prob",
    "exponential_sample",
    "peeling_scale",
    "peeling",
    "gem_threshold",
    "gem_normalized_scores",
    "gem_log_prob",
    "gem_sample",
)

__all__ = list(_PROVIDED)

#: Everything this port does not implement (the kit skips these and only these).
UNSUPPORTED = {f.name: "not in the JAX example" for f in FUNCTIONS if f.name not in _PROVIDED}


def _key(words):
    return jax.random.key(jnp.asarray(words, dtype=jnp.uint32)[0].astype(jnp.uint64) * (2**32) + words[1])


def phi(x):
    """[002 eq. (2)]: x - x^3/6 on [-sqrt 2, sqrt 2], +-2 sqrt(2)/3 outside."""
    x = jnp.asarray(x, dtype=jnp.float64)
    inner = jnp.clip(x, -_R, _R)
    return to_numpy(jnp.where(jnp.abs(x) <= _R, inner - inner**3 / 6.0, jnp.sign(x) * _B))


def psi(x, theta=2.0):
    """[000 eq. (6)] / [000 eq. (16)]: -log(1 - t + t^theta/theta), t = min(|x|, 1); odd."""
    x = jnp.asarray(x, dtype=jnp.float64)
    t = jnp.minimum(jnp.abs(x), 1.0)
    # not log1p: XLA's CPU log1p is 8 ulps of log 2 off mpmath at x = 0.5 (the kit allows 4); log of the sum is
    # within 1 ulp on the golden grids (the tolerance is absolute, in ulps of max(log theta, 1/2), so the
    # cancellation of 1 - t for small t costs at most an ulp of 1)
    val = -jnp.log(1.0 - t + t**theta / theta)
    return to_numpy(jnp.where(x < 0, -val, val))


def laplace_scale(sensitivity, epsilon):
    """[002 Def. 2]: Delta / eps."""
    return float(jnp.float64(sensitivity) / jnp.float64(epsilon))


def report_noisy_max_scale(sensitivity, epsilon, *, monotone=False):
    """2 Delta / eps (Delta / eps for monotone scores)."""
    return float((1.0 if monotone else 2.0) * jnp.float64(sensitivity) / jnp.float64(epsilon))


def peeling_scale(s, epsilon, delta, lam):
    """[002 Alg. 4]: 2 lam sqrt(3 s log(1/delta)) / eps."""
    return float(2.0 * lam * jnp.sqrt(3.0 * s * jnp.log(1.0 / jnp.float64(delta))) / epsilon)


def gem_threshold(epsilon, beta, k):
    """[004 App. D.1]: t = 2 log(k / beta) / eps."""
    return float(2.0 * jnp.log(k / jnp.float64(beta)) / epsilon)


@jax.jit
def _log_softmax(logits):
    return logits - jax.scipy.special.logsumexp(logits, axis=-1, keepdims=True)


def exponential_log_prob(scores, epsilon, sensitivity, *, weight_factor=0.5):
    """[002 Def. 3]: log-softmax of eps w u / Delta (the maximum subtracted inside logsumexp)."""
    u = jnp.asarray(scores, dtype=jnp.float64)
    return to_numpy(_log_softmax(weight_factor * epsilon * u / sensitivity))


def _gem_normalized(g, q, t):
    pen = q + t * g
    den = g[..., :, None] + g[..., None, :]
    ratio = jnp.where(den > 0, (pen[..., :, None] - pen[..., None, :]) / jnp.where(den > 0, den, 1.0), 0.0)
    return jnp.max(ratio, axis=-1)


def gem_normalized_scores(sensitivities, scores, epsilon, beta):
    """[004 App. D.1]: s_i = max_j [(q_i + t g_i) - (q_j + t g_j)] / (g_i + g_j)."""
    g = jnp.asarray(sensitivities, dtype=jnp.float64)
    q = jnp.asarray(scores, dtype=jnp.float64)
    return to_numpy(_gem_normalized(g, q, gem_threshold(epsilon, beta, q.shape[-1])))


def gem_log_prob(sensitivities, scores, epsilon, beta):
    """GEM's law: the exponential mechanism on -s with sensitivity 1."""
    s = jnp.asarray(gem_normalized_scores(sensitivities, scores, epsilon, beta))
    return to_numpy(_log_softmax(-epsilon * s / 2.0))


def _laplace_draw(words, n, value, sensitivity, epsilon):
    q = jnp.asarray(value, dtype=jnp.float64)
    noise = jax.random.laplace(_key(words), (n,) + q.shape, dtype=jnp.float64)
    return q + laplace_scale(sensitivity, epsilon) * noise


def _rnm_draw(words, n, scores, scale):
    u = jnp.asarray(scores, dtype=jnp.float64)
    noise = scale * jax.random.laplace(_key(words), (n,) + u.shape, dtype=jnp.float64)
    return jnp.argmax(u + noise, axis=-1)


def _exponential_draw(words, n, scores, epsilon, sensitivity, *, weight_factor=0.5):
    logp = jnp.asarray(exponential_log_prob(scores, epsilon, sensitivity, weight_factor=weight_factor))
    return jax.random.categorical(_key(words), logp, shape=(n,) + logp.shape[:-1])


def _gem_draw(words, n, sensitivities, scores, epsilon, beta):
    logp = jnp.asarray(gem_log_prob(sensitivities, scores, epsilon, beta))
    return jax.random.categorical(_key(words), logp, shape=(n,) + logp.shape[:-1])


def _peeling_draw(words, n, v, s, epsilon, delta, lam):
    v = jnp.asarray(v, dtype=jnp.float64)
    b = peeling_scale(s, epsilon, delta, lam)
    keys = jax.random.split(_key(words), s + 1)
    taken = jnp.zeros((n, v.size), dtype=bool)
    picks = []
    for i in range(s):  # s rounds of report-noisy-max on |v| without replacement
        noisy = jnp.abs(v) + b * jax.random.laplace(keys[i], (n, v.size), dtype=jnp.float64)
        j = jnp.argmax(jnp.where(taken, -jnp.inf, noisy), axis=1)
        taken = taken.at[jnp.arange(n), j].set(True)
        picks.append(j)
    selected = jnp.stack(picks, axis=1)
    released = v[selected] + b * jax.random.laplace(keys[s], (n, s), dtype=jnp.float64)
    values = jnp.zeros((n, v.size)).at[jnp.arange(n)[:, None], selected].set(released)
    return values, selected


laplace_mechanism = sampler(_laplace_draw)
report_noisy_max = sampler(_rnm_draw)
exponential_sample = sampler(_exponential_draw)
gem_sample = sampler(_gem_draw)
peeling = sampler(_peeling_draw)


def benchmark(draws=200_000, repeats=3, seed=0):
    """Seconds per call of each sampler here and in the reference on the kit's instance (best of ``repeats``).

    The first JAX call compiles; it is made once before timing.  Returns ``{sampler: {"jax": s, "reference": s}}``.
    """
    from proofs_checks.conform.samplers import INSTANCES
    from reference import mechanisms as M

    calls = {
        "laplace_mechanism": ("value", "sensitivity", "epsilon"),
        "report_noisy_max": ("scores", "scale"),
        "exponential_sample": ("scores", "epsilon", "sensitivity"),
        "gem_sample": ("sensitivities", "scores", "epsilon", "beta"),
        "peeling": ("v", "s", "epsilon", "delta", "lam"),
    }
    out = {}
    for name, keys in calls.items():
        args = [INSTANCES[name][k] for k in keys]
        timings = {}
        for label, fn in (("jax", globals()[name]), ("reference", getattr(M, name))):
            fn(*args, draws, np.random.default_rng(seed))
            best = math.inf
            for r in range(repeats):
                start = time.perf_counter()
                fn(*args, draws, np.random.default_rng(seed + r + 1))
                best = min(best, time.perf_counter() - start)
            timings[label] = best
        out[name] = timings
    return out
