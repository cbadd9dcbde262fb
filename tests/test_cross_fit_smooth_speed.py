"""Bit-identity of the threshold-scoring rules' selection (issue 14: cross-fit-smooth made cheap).

The speed-ups of ``threshold_scoring="cross-fit-smooth"`` (shared sorts and cumulative sums of the weighted
threshold searches, the spline's basis kept from its fit, the cross-fitted searches' shared work) must not change
one bit of any result: every candidate's score and threshold (``select_event(..., scores=[])``), the chosen event,
and the audit's ``epsilon_lower``, threshold and counts.  The values below were recorded from main before those
changes (provenance: main 91837e0 cross-fit-smooth, ``float.hex``), on small seeded black-box cases: one and two
columns, continuous outputs and outputs rounded to a binary grid (ties within and across the two datasets, too few
repeats per value for atoms, so the smoothed candidates are still built), an odd selection size (unequal folds), and
two exact log-ratios (the weighted search of ``best_threshold_exact``, more than 2048 distinct values).
"""

import numpy as np
import pytest

from proofs_checks.audit import classifiers
from proofs_checks.audit import statistical as st


@pytest.fixture(autouse=True)
def _logistic_fit_as_recorded(monkeypatch):
    # the pins were recorded with the logistic regression fitted by L-BFGS-B; branch lnewt fits it by Newton's
    # method (the exact minimiser: other weights, so other bits on the two-column cases). These tests check
    # the threshold-scoring code, not the fit, so they run with the recorded fit (auto -> L-BFGS-B at any
    # width, bit for bit as before); Newton's fit is tested in tests/test_logistic_newton.py.
    monkeypatch.setattr(classifiers, "NEWTON_MAX_COLUMNS", 0)


class Lap:
    """Black box: x + Laplace(scale) in column 0 (rounded to ``step`` if given: ties), N(0,1) noise columns."""

    def __init__(self, scale=1.0, step=None, cols=1):
        self.scale, self.step, self.cols = scale, step, cols

    def sample(self, data, size, rng):
        x = float(np.asarray(data).ravel()[0])
        z = x + rng.laplace(0.0, self.scale, size)
        if self.step is not None:
            z = np.round(z / self.step) * self.step
        cols = [z] + [rng.standard_normal(size) for _ in range(self.cols - 1)]
        return np.column_stack(cols)


class Exact(Lap):
    """As :class:`Lap` (one column, no rounding) with its log-density: the exact log-ratio's weighted search
    (:func:`~proofs_checks.audit.statistical.best_threshold_exact`); ``gauss`` for N(x, scale^2) instead."""

    def __init__(self, scale=1.0, gauss=False):
        super().__init__(scale)
        self.gauss = gauss

    def sample(self, data, size, rng):
        if not self.gauss:
            return super().sample(data, size, rng)
        return float(np.asarray(data).ravel()[0]) + self.scale * rng.standard_normal((size, 1))

    def log_density(self, data, outputs):
        z = (np.asarray(outputs, dtype=np.float64)[:, 0] - float(np.asarray(data).ravel()[0])) / self.scale
        return -0.5 * z * z if self.gauss else -np.abs(z)


CASES = {
    "lap1": (Lap(1.0), 4_000, 3),
    "lap1-odd": (Lap(1.0), 3_001, 4),
    "lap1-ties": (Lap(1.0, 2.0 ** -14), 4_000, 5),
    "lap1-ties3": (Lap(3.0, 2.0 ** -13), 3_001, 6),
    "lap2": (Lap(1.0, None, 2), 4_000, 7),
    "lap2-ties": (Lap(1.0, 2.0 ** -14, 2), 4_000, 8),
    "exact-lap": (Exact(1.0), 40_000, 9),
    "exact-gauss": (Exact(2.0, gauss=True), 40_000, 10),
}


def _statistic(mech):
    return "auto" if hasattr(mech, "log_density") else "estimate"


def run_case(st, name, rule):
    mech, n_sel, seed = CASES[name]
    pair = (np.array([[0.0]]), np.array([[1.0]]))
    scores = []
    best, _, _ = st.select_event(mech, [pair], np.random.SeedSequence(seed).spawn(1), n_sel, 20_000, 0.0, 0.025,
                                 statistic=_statistic(mech), scores=scores, threshold_scoring=rule)
    rows = [(s["statistic"], s["direction"], float(s["score"]).hex(), s["fixed"], float(s["event"][1]).hex(),
             float(s["event"][2]).hex()) for s in scores]
    b = (float(best[0]).hex(), best[1], best[3], float(best[4]).hex(), float(best[5]).hex())
    return b, rows


def run_audit(st, name, rule):
    mech, n_sel, seed = CASES[name]
    pair = (np.array([[0.0]]), np.array([[1.0]]))
    r = st.statistical_audit(mech, [pair], 0.1, samples=2 * n_sel, seed=seed, statistic=_statistic(mech),
                             threshold_scoring=rule)
    return float(r.epsilon_lower).hex(), float(r.threshold).hex(), repr(r.counts)


#: main 91837e0 cross-fit-smooth (and its pessimistic / cross-fit rules), recorded with ``run_case`` / ``run_audit``
#: above before the speed-ups; JSON lists as tuples.
PINNED = {'exact-gauss|cross-fit': {'audit': ['0x1.444ba9342af48p+0', '-0x1.4c9ae933fffffp+0',
                                     "{'in_S_numerator': 320, 'in_S_other': 63, 'n_each': 36000}"],
                           'select': [['0x1.07a6bdf33cb2cp+0', 0, "D' vs D", '-0x1.0000000000000p+0',
                                       '0x1.2e1af4f7fffffp+0'],
                                      [['exact log-likelihood ratio', "D vs D'", '0x1.077febab11ea0p+0', False,
                                        '0x1.0000000000000p+0', '0x1.2e9ba0effffffp+0'],
                                       ['exact log-likelihood ratio', "D' vs D", '0x1.07a6bdf33cb2cp+0', False,
                                        '-0x1.0000000000000p+0', '0x1.2e1af4f7fffffp+0']]]},
 'exact-gauss|cross-fit-smooth': {'audit': ['0x1.444ba9342af48p+0', '-0x1.4c9ae933fffffp+0',
                                            "{'in_S_numerator': 320, 'in_S_other': 63, 'n_each': 36000}"],
                                  'select': [['0x1.07a6bdf33cb2cp+0', 0, "D' vs D", '-0x1.0000000000000p+0',
                                              '0x1.2e1af4f7fffffp+0'],
                                             [['exact log-likelihood ratio', "D vs D'", '0x1.077febab11ea0p+0', False,
                                               '0x1.0000000000000p+0', '0x1.2e9ba0effffffp+0'],
                                              ['exact log-likelihood ratio', "D' vs D", '0x1.07a6bdf33cb2cp+0', False,
                                               '-0x1.0000000000000p+0', '0x1.2e1af4f7fffffp+0']]]},
 'exact-gauss|pessimistic': {'audit': ['0x1.444ba9342af48p+0', '-0x1.4c9ae933fffffp+0',
                                       "{'in_S_numerator': 320, 'in_S_other': 63, 'n_each': 36000}"],
                             'select': [['0x1.07a6bdf33cb2cp+0', 0, "D' vs D", '-0x1.0000000000000p+0',
                                         '0x1.2e1af4f7fffffp+0'],
                                        [['exact log-likelihood ratio', "D vs D'", '0x1.077febab11ea0p+0', False,
                                          '0x1.0000000000000p+0', '0x1.2e9ba0effffffp+0'],
                                         ['exact log-likelihood ratio', "D' vs D", '0x1.07a6bdf33cb2cp+0', False,
                                          '-0x1.0000000000000p+0', '0x1.2e1af4f7fffffp+0']]]},
 'exact-lap|cross-fit': {'audit': ['0x1.f23ac337a8707p-1', '0x1.f40f3e4ffffffp-1',
                                   "{'in_S_numerator': 18313, 'in_S_other': 6704, 'n_each': 36000}"],
                         'select': [['0x1.ea19fceb552efp-1', 0, "D' vs D", '-0x1.0000000000000p+0',
                                     '0x1.efae1487fffffp-1'],
                                    [['exact log-likelihood ratio', "D vs D'", '0x1.ea0952a861adcp-1', False,
                                      '0x1.0000000000000p+0', '0x1.ef97b707fffffp-1'],
                                     ['exact log-likelihood ratio', "D' vs D", '0x1.ea19fceb552efp-1', False,
                                      '-0x1.0000000000000p+0', '0x1.efae1487fffffp-1']]]},
 'exact-lap|cross-fit-smooth': {'audit': ['0x1.f23ac337a8707p-1', '0x1.f40f3e4ffffffp-1',
                                          "{'in_S_numerator': 18313, 'in_S_other': 6704, 'n_each': 36000}"],
                                'select': [['0x1.ea19fceb552efp-1', 0, "D' vs D", '-0x1.0000000000000p+0',
                                            '0x1.efae1487fffffp-1'],
                                           [['exact log-likelihood ratio', "D vs D'", '0x1.ea0952a861adcp-1', False,
                                             '0x1.0000000000000p+0', '0x1.ef97b707fffffp-1'],
                                            ['exact log-likelihood ratio', "D' vs D", '0x1.ea19fceb552efp-1', False,
                                             '-0x1.0000000000000p+0', '0x1.efae1487fffffp-1']]]},
 'exact-lap|pessimistic': {'audit': ['0x1.f23ac337a8707p-1', '0x1.f40f3e4ffffffp-1',
                                     "{'in_S_numerator': 18313, 'in_S_other': 6704, 'n_each': 36000}"],
                           'select': [['0x1.ea19fceb552efp-1', 0, "D' vs D", '-0x1.0000000000000p+0',
                                       '0x1.efae1487fffffp-1'],
                                      [['exact log-likelihood ratio', "D vs D'", '0x1.ea0952a861adcp-1', False,
                                        '0x1.0000000000000p+0', '0x1.ef97b707fffffp-1'],
                                       ['exact log-likelihood ratio', "D' vs D", '0x1.ea19fceb552efp-1', False,
                                        '-0x1.0000000000000p+0', '0x1.efae1487fffffp-1']]]},
 'lap1-odd|cross-fit': {'audit': ['0x1.8602f173e149cp-1', '-0x1.542c90b9e74f8p-1',
                                  "{'in_S_numerator': 1402, 'in_S_other': 591, 'n_each': 2251}"],
                        'select': [['0x1.01c147ece46ecp+0', 0, "D' vs D", '-0x1.0000000000000p+0',
                                    '0x1.05af157fbe5e5p+0'],
                                   [['output', "D vs D'", '-0x1.c8017b871c7f3p-11', False, '0x1.0000000000000p+0',
                                     '-inf'],
                                    ['output', "D' vs D", '-0x1.ba7a22cf48429p-10', False, '-0x1.0000000000000p+0',
                                     '-0x1.a299e22d4d0e1p+2'],
                                    ['minus output', "D vs D'", '0x1.d96a3dcac15b7p-1', False, '0x1.0000000000000p+0',
                                     '-0x1.78e3ee66a5cf8p-8'],
                                    ['minus output', "D' vs D", '0x1.ef295678c7fd3p-1', False,
                                     '-0x1.0000000000000p+0', '0x1.b00043102653ep-1'],
                                    ['histogram log-ratio of output', "D vs D'", '0x1.e331cc4031350p-1', False,
                                     '0x1.0000000000000p+0', '0x1.920dec2247c6bp-1'],
                                    ['histogram log-ratio of output', "D' vs D", '0x1.01c147ece46ecp+0', False,
                                     '-0x1.0000000000000p+0', '0x1.05af157fbe5e5p+0'],
                                    ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D vs D'",
                                     '0x1.b06634e1021e7p-1', False, '0x1.0000000000000p+0', '0x1.a20025b1a80f7p-1'],
                                    ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D' vs D",
                                     '0x1.ef320a32072afp-1', False, '-0x1.0000000000000p+0',
                                     '0x1.db6c530adb349p-1']]]},
 'lap1-odd|cross-fit-smooth': {'audit': ['0x1.8602f173e149cp-1', '-0x1.542c90b9e74f8p-1',
                                         "{'in_S_numerator': 1402, 'in_S_other': 591, 'n_each': 2251}"],
                               'select': [['0x1.068373941c5fcp+0', 0, "D vs D'", '0x1.0000000000000p+0',
                                           '0x1.40554feb1daedp-1'],
                                          [['output', "D vs D'", '-0x1.c8017b871c7f3p-11', False,
                                            '0x1.0000000000000p+0', '-inf'],
                                           ['output', "D' vs D", '-0x1.ba7a22cf48429p-10', False,
                                            '-0x1.0000000000000p+0', '-0x1.a299e22d4d0e1p+2'],
                                           ['output (smoothed threshold)', "D vs D'", '-0x1.ba7a22cf48429p-10', False,
                                            '0x1.0000000000000p+0', '-0x1.ea111ca159080p+2'],
                                           ['output (smoothed threshold)', "D' vs D", '-0x1.c8017b871c7f3p-11', False,
                                            '-0x1.0000000000000p+0', '-0x1.fe4671ce8d50cp+2'],
                                           ['minus output', "D vs D'", '0x1.d96a3dcac15b7p-1', False,
                                            '0x1.0000000000000p+0', '-0x1.78e3ee66a5cf8p-8'],
                                           ['minus output', "D' vs D", '0x1.ef295678c7fd3p-1', False,
                                            '-0x1.0000000000000p+0', '0x1.b00043102653ep-1'],
                                           ['minus output (smoothed threshold)', "D vs D'", '0x1.068373941c5fcp+0',
                                            False, '0x1.0000000000000p+0', '0x1.40554feb1daedp-1'],
                                           ['minus output (smoothed threshold)', "D' vs D", '0x1.e8daa4969880ap-1',
                                            False, '-0x1.0000000000000p+0', '0x1.a501728cea6f6p+0'],
                                           ['histogram log-ratio of output', "D vs D'", '0x1.e331cc4031350p-1', False,
                                            '0x1.0000000000000p+0', '0x1.920dec2247c6bp-1'],
                                           ['histogram log-ratio of output', "D' vs D", '0x1.01c147ece46ecp+0', False,
                                            '-0x1.0000000000000p+0', '0x1.05af157fbe5e5p+0'],
                                           ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D vs D'",
                                            '0x1.b06634e1021e7p-1', False, '0x1.0000000000000p+0',
                                            '0x1.a20025b1a80f7p-1'],
                                           ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D' vs D",
                                            '0x1.ef320a32072afp-1', False, '-0x1.0000000000000p+0',
                                            '0x1.db6c530adb349p-1']]]},
 'lap1-odd|pessimistic': {'audit': ['0x1.8b10053e761cep-1', '-0x1.153f72cdc92cep-2',
                                    "{'in_S_numerator': 1400, 'in_S_other': 584, 'n_each': 2251}"],
                          'select': [['0x1.cd0accd85ecb1p-1', 0, "D' vs D", '-0x1.0000000000000p+0',
                                      '0x1.b00043102653ep-1'],
                                     [['output', "D vs D'", '-0x1.64638dd7a5c41p-9', False, '0x1.0000000000000p+0',
                                       '-inf'],
                                      ['output', "D' vs D", '-0x1.645cf7d33bac1p-9', False, '-0x1.0000000000000p+0',
                                       '-0x1.a299e22d4d0e1p+2'],
                                      ['minus output', "D vs D'", '0x1.ad7dcf81ad47dp-1', False,
                                       '0x1.0000000000000p+0', '-0x1.78e3ee66a5cf8p-8'],
                                      ['minus output', "D' vs D", '0x1.cd0accd85ecb1p-1', False,
                                       '-0x1.0000000000000p+0', '0x1.b00043102653ep-1'],
                                      ['histogram log-ratio of output', "D vs D'", '0x1.a471f420f9b75p-1', False,
                                       '0x1.0000000000000p+0', '0x1.920dec2247c6bp-1'],
                                      ['histogram log-ratio of output', "D' vs D", '0x1.c0f2671eaf9ebp-1', False,
                                       '-0x1.0000000000000p+0', '0x1.05af157fbe5e5p+0'],
                                      ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D vs D'",
                                       '0x1.8beb1e83ffc04p-1', False, '0x1.0000000000000p+0',
                                       '0x1.a20025b1a80f7p-1'],
                                      ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D' vs D",
                                       '0x1.b1d03aec3214cp-1', False, '-0x1.0000000000000p+0',
                                       '0x1.db6c530adb349p-1']]]},
 'lap1-ties3|cross-fit': {'audit': ['0x1.0d82020f6c996p-2', '0x1.8ebffffffffffp-3',
                                    "{'in_S_numerator': 1077, 'in_S_other': 747, 'n_each': 2251}"],
                          'select': [['0x1.4232d671e6336p-2', 0, "D vs D'", '0x1.0000000000000p+0',
                                      '0x1.690517667152fp-3'],
                                     [['output', "D vs D'", '0x1.0269504fcf5e0p-13', False, '0x1.0000000000000p+0',
                                       '-0x1.fdbe000000001p+3'],
                                      ['output', "D' vs D", '-0x1.01f3fa01ce4efp-10', False, '-0x1.0000000000000p+0',
                                       '-0x1.3091800000001p+4'],
                                      ['minus output', "D vs D'", '0x1.3ffc91950a5e6p-2', False,
                                       '0x1.0000000000000p+0', '-0x1.2080000000001p-3'],
                                      ['minus output', "D' vs D", '0x1.0c9c550ea6534p-2', False,
                                       '-0x1.0000000000000p+0', '0x1.376bfffffffffp+2'],
                                      ['histogram log-ratio of output', "D vs D'", '0x1.4232d671e6336p-2', False,
                                       '0x1.0000000000000p+0', '0x1.690517667152fp-3'],
                                      ['histogram log-ratio of output', "D' vs D", '0x1.07d73f74f0aa4p-2', False,
                                       '-0x1.0000000000000p+0', '0x1.070af44f3414fp-2'],
                                      ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D vs D'",
                                       '0x1.40cbdf7232f7cp-2', False, '0x1.0000000000000p+0',
                                       '0x1.7f062329c58afp-3'],
                                      ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D' vs D",
                                       '0x1.38711486cea4cp-2', False, '-0x1.0000000000000p+0',
                                       '0x1.d4ca29fdcd0f7p-3']]]},
 'lap1-ties3|cross-fit-smooth': {'audit': ['0x1.24087f6a1dbc4p-2', '0x1.1f43fffffffffp+1',
                                           "{'in_S_numerator': 586, 'in_S_other': 374, 'n_each': 2251}"],
                                 'select': [['0x1.49daafb7add70p-2', 0, "D' vs D", '-0x1.0000000000000p+0',
                                             '0x1.cdfffffffffffp+1'],
                                            [['output', "D vs D'", '0x1.0269504fcf5e0p-13', False,
                                              '0x1.0000000000000p+0', '-0x1.fdbe000000001p+3'],
                                             ['output', "D' vs D", '-0x1.01f3fa01ce4efp-10', False,
                                              '-0x1.0000000000000p+0', '-0x1.3091800000001p+4'],
                                             ['output (smoothed threshold)', "D vs D'", '-0x1.c8017b871c7f3p-11',
                                              False, '0x1.0000000000000p+0', '-0x1.cbbc000000001p+4'],
                                             ['output (smoothed threshold)', "D' vs D", '-0x1.57f9c21073b51p-11',
                                              False, '-0x1.0000000000000p+0', '-0x1.53f8800000001p+4'],
                                             ['minus output', "D vs D'", '0x1.3ffc91950a5e6p-2', False,
                                              '0x1.0000000000000p+0', '-0x1.2080000000001p-3'],
                                             ['minus output', "D' vs D", '0x1.0c9c550ea6534p-2', False,
                                              '-0x1.0000000000000p+0', '0x1.376bfffffffffp+2'],
                                             ['minus output (smoothed threshold)', "D vs D'", '0x1.48bd1f1450970p-2',
                                              False, '0x1.0000000000000p+0', '0x1.8d17fffffffffp+1'],
                                             ['minus output (smoothed threshold)', "D' vs D", '0x1.49daafb7add70p-2',
                                              False, '-0x1.0000000000000p+0', '0x1.cdfffffffffffp+1'],
                                             ['histogram log-ratio of output', "D vs D'", '0x1.4232d671e6336p-2',
                                              False, '0x1.0000000000000p+0', '0x1.690517667152fp-3'],
                                             ['histogram log-ratio of output', "D' vs D", '0x1.07d73f74f0aa4p-2',
                                              False, '-0x1.0000000000000p+0', '0x1.070af44f3414fp-2'],
                                             ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D vs D'",
                                              '0x1.40cbdf7232f7cp-2', False, '0x1.0000000000000p+0',
                                              '0x1.7f062329c58afp-3'],
                                             ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D' vs D",
                                              '0x1.38711486cea4cp-2', False, '-0x1.0000000000000p+0',
                                              '0x1.d4ca29fdcd0f7p-3']]]},
 'lap1-ties3|pessimistic': {'audit': ['0x1.0d82020f6c996p-2', '0x1.8ebffffffffffp-3',
                                      "{'in_S_numerator': 1077, 'in_S_other': 747, 'n_each': 2251}"],
                            'select': [['0x1.edc2a4efe2470p-3', 0, "D' vs D", '-0x1.0000000000000p+0',
                                        '0x1.376bfffffffffp+2'],
                                       [['output', "D vs D'", '-0x1.40daf7b881c4fp-9', False, '0x1.0000000000000p+0',
                                         '-0x1.fdbe000000001p+3'],
                                        ['output', "D' vs D", '-0x1.5ab424a77f572p-9', False, '-0x1.0000000000000p+0',
                                         '-0x1.3091800000001p+4'],
                                        ['minus output', "D vs D'", '0x1.d6005c8e2ddd0p-3', False,
                                         '0x1.0000000000000p+0', '-0x1.2080000000001p-3'],
                                        ['minus output', "D' vs D", '0x1.edc2a4efe2470p-3', False,
                                         '-0x1.0000000000000p+0', '0x1.376bfffffffffp+2'],
                                        ['histogram log-ratio of output', "D vs D'", '0x1.c2b60a56bc81cp-3', False,
                                         '0x1.0000000000000p+0', '0x1.690517667152fp-3'],
                                        ['histogram log-ratio of output', "D' vs D", '0x1.8c11f433d2fd4p-3', False,
                                         '-0x1.0000000000000p+0', '0x1.070af44f3414fp-2'],
                                        ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D vs D'",
                                         '0x1.b59390d88f154p-3', False, '0x1.0000000000000p+0',
                                         '0x1.7f062329c58afp-3'],
                                        ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D' vs D",
                                         '0x1.a425b12e4d9f0p-3', False, '-0x1.0000000000000p+0',
                                         '0x1.d4ca29fdcd0f7p-3']]]},
 'lap1-ties|cross-fit': {'audit': ['0x1.aa760766fc2b8p-1', '0x1.0e854a4a2c7b5p+0',
                                   "{'in_S_numerator': 1071, 'in_S_other': 405, 'n_each': 3000}"],
                         'select': [['0x1.0996ba906a9f1p+0', 0, "D vs D'", '0x1.0000000000000p+0',
                                     '0x1.f306fe91813a7p-1'],
                                    [['output', "D vs D'", '-0x1.615cf4fbd40cep-10', False, '0x1.0000000000000p+0',
                                      '-inf'],
                                     ['output', "D' vs D", '-0x1.c365223bf4f7ep-11', False, '-0x1.0000000000000p+0',
                                      '-0x1.dd93000000001p+2'],
                                     ['minus output', "D vs D'", '0x1.01138b3aef92ep+0', False,
                                      '0x1.0000000000000p+0', '0x1.119ffffffffffp-2'],
                                     ['minus output', "D' vs D", '0x1.dfa7f418a2d75p-1', False,
                                      '-0x1.0000000000000p+0', '0x1.c63ffffffffffp-1'],
                                     ['histogram log-ratio of output', "D vs D'", '0x1.0996ba906a9f1p+0', False,
                                      '0x1.0000000000000p+0', '0x1.f306fe91813a7p-1'],
                                     ['histogram log-ratio of output', "D' vs D", '0x1.f1ba22e529f07p-1', False,
                                      '-0x1.0000000000000p+0', '0x1.b91d8296bdcc7p-1'],
                                     ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D vs D'",
                                      '0x1.e3fab80a36768p-1', False, '0x1.0000000000000p+0', '0x1.da143e74cfe8fp-1'],
                                     ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D' vs D",
                                      '0x1.fa61fae3fffc1p-1', False, '-0x1.0000000000000p+0',
                                      '0x1.a65825c755dc3p-1']]]},
 'lap1-ties|cross-fit-smooth': {'audit': ['0x1.aa760766fc2b8p-1', '0x1.0e854a4a2c7b5p+0',
                                          "{'in_S_numerator': 1071, 'in_S_other': 405, 'n_each': 3000}"],
                                'select': [['0x1.0996ba906a9f1p+0', 0, "D vs D'", '0x1.0000000000000p+0',
                                            '0x1.f306fe91813a7p-1'],
                                           [['output', "D vs D'", '-0x1.615cf4fbd40cep-10', False,
                                             '0x1.0000000000000p+0', '-inf'],
                                            ['output', "D' vs D", '-0x1.c365223bf4f7ep-11', False,
                                             '-0x1.0000000000000p+0', '-0x1.dd93000000001p+2'],
                                            ['output (smoothed threshold)', "D vs D'", '-0x1.615cf4fbd40cep-10',
                                             False, '0x1.0000000000000p+0', '-0x1.36e9000000001p+3'],
                                            ['output (smoothed threshold)', "D' vs D", '-0x1.77acfa5b1e784p-11',
                                             False, '-0x1.0000000000000p+0', '-0x1.3cce800000001p+3'],
                                            ['minus output', "D vs D'", '0x1.01138b3aef92ep+0', False,
                                             '0x1.0000000000000p+0', '0x1.119ffffffffffp-2'],
                                            ['minus output', "D' vs D", '0x1.dfa7f418a2d75p-1', False,
                                             '-0x1.0000000000000p+0', '0x1.c63ffffffffffp-1'],
                                            ['minus output (smoothed threshold)', "D vs D'", '0x1.015b2fdea37efp+0',
                                             False, '0x1.0000000000000p+0', '0x1.794ffffffffffp-1'],
                                            ['minus output (smoothed threshold)', "D' vs D", '0x1.0824d9974f279p+0',
                                             False, '-0x1.0000000000000p+0', '0x1.b487fffffffffp+0'],
                                            ['histogram log-ratio of output', "D vs D'", '0x1.0996ba906a9f1p+0',
                                             False, '0x1.0000000000000p+0', '0x1.f306fe91813a7p-1'],
                                            ['histogram log-ratio of output', "D' vs D", '0x1.f1ba22e529f07p-1',
                                             False, '-0x1.0000000000000p+0', '0x1.b91d8296bdcc7p-1'],
                                            ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D vs D'",
                                             '0x1.e3fab80a36768p-1', False, '0x1.0000000000000p+0',
                                             '0x1.da143e74cfe8fp-1'],
                                            ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D' vs D",
                                             '0x1.fa61fae3fffc1p-1', False, '-0x1.0000000000000p+0',
                                             '0x1.a65825c755dc3p-1']]]},
 'lap1-ties|pessimistic': {'audit': ['0x1.aa760766fc2b8p-1', '0x1.0e854a4a2c7b5p+0',
                                     "{'in_S_numerator': 1071, 'in_S_other': 405, 'n_each': 3000}"],
                           'select': [['0x1.d238a494bec27p-1', 0, "D vs D'", '0x1.0000000000000p+0',
                                       '0x1.119ffffffffffp-2'],
                                      [['output', "D vs D'", '-0x1.1860c5462d337p-9', False, '0x1.0000000000000p+0',
                                        '-inf'],
                                       ['output', "D' vs D", '-0x1.12abfa7cde771p-9', False, '-0x1.0000000000000p+0',
                                        '-0x1.dd93000000001p+2'],
                                       ['minus output', "D vs D'", '0x1.d238a494bec27p-1', False,
                                        '0x1.0000000000000p+0', '0x1.119ffffffffffp-2'],
                                       ['minus output', "D' vs D", '0x1.c745d7d0515f8p-1', False,
                                        '-0x1.0000000000000p+0', '0x1.c63ffffffffffp-1'],
                                       ['histogram log-ratio of output', "D vs D'", '0x1.cb02599a572c0p-1', False,
                                        '0x1.0000000000000p+0', '0x1.f306fe91813a7p-1'],
                                       ['histogram log-ratio of output', "D' vs D", '0x1.bed1d43a270abp-1', False,
                                        '-0x1.0000000000000p+0', '0x1.b91d8296bdcc7p-1'],
                                       ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D vs D'",
                                        '0x1.bfa27ef94d4b7p-1', False, '0x1.0000000000000p+0',
                                        '0x1.da143e74cfe8fp-1'],
                                       ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D' vs D",
                                        '0x1.c5c18443a9ac1p-1', False, '-0x1.0000000000000p+0',
                                        '0x1.a65825c755dc3p-1']]]},
 'lap1|cross-fit': {'audit': ['0x1.b8043c4f027a6p-1', '-0x1.6c0fcee753e79p-1',
                              "{'in_S_numerator': 1699, 'in_S_other': 651, 'n_each': 3000}"],
                    'select': [['0x1.f30822ff51af0p-1', 0, "D' vs D", '-0x1.0000000000000p+0',
                                '0x1.f3bcb98d05e4bp+0'],
                               [['output', "D vs D'", '-0x1.615cf4fbd40cep-10', False, '0x1.0000000000000p+0',
                                 '-0x1.e64b667da21e9p+2'],
                                ['output', "D' vs D", '-0x1.77acfa5b1e784p-11', False, '-0x1.0000000000000p+0',
                                 '-inf'],
                                ['minus output', "D vs D'", '0x1.ef0c8206bbb06p-1', False, '0x1.0000000000000p+0',
                                 '-0x1.56ab6e0441017p-4'],
                                ['minus output', "D' vs D", '0x1.f30822ff51af0p-1', False, '-0x1.0000000000000p+0',
                                 '0x1.f3bcb98d05e4bp+0'],
                                ['histogram log-ratio of output', "D vs D'", '0x1.e21e1c67bebbap-1', False,
                                 '0x1.0000000000000p+0', '0x1.5add43d5d5d87p-1'],
                                ['histogram log-ratio of output', "D' vs D", '0x1.de771e4eede6dp-1', False,
                                 '-0x1.0000000000000p+0', '0x1.e5d74631eaf6fp-1'],
                                ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D vs D'",
                                 '0x1.e61292f02f2bcp-1', False, '0x1.0000000000000p+0', '0x1.86c037d178fe3p-1'],
                                ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D' vs D",
                                 '0x1.dbb587d7a69f7p-1', False, '-0x1.0000000000000p+0', '0x1.e064e0c92c395p-1']]]},
 'lap1|cross-fit-smooth': {'audit': ['0x1.b8043c4f027a6p-1', '-0x1.6c0fcee753e79p-1',
                                     "{'in_S_numerator': 1699, 'in_S_other': 651, 'n_each': 3000}"],
                           'select': [['0x1.0f9742cc1c51cp+0', 0, "D' vs D", '-0x1.0000000000000p+0',
                                       '0x1.dcf3f6bbfbb49p+0'],
                                      [['output', "D vs D'", '-0x1.615cf4fbd40cep-10', False, '0x1.0000000000000p+0',
                                        '-0x1.e64b667da21e9p+2'],
                                       ['output', "D' vs D", '-0x1.77acfa5b1e784p-11', False, '-0x1.0000000000000p+0',
                                        '-inf'],
                                       ['output (smoothed threshold)', "D vs D'", '-0x1.2f0847b51b8d4p-11', False,
                                        '0x1.0000000000000p+0', '-0x1.100dacfd7cf32p+3'],
                                       ['output (smoothed threshold)', "D' vs D", '-0x1.615cf4fbd40cep-10', False,
                                        '-0x1.0000000000000p+0', '-0x1.3238cbf2da96bp+3'],
                                       ['minus output', "D vs D'", '0x1.ef0c8206bbb06p-1', False,
                                        '0x1.0000000000000p+0', '-0x1.56ab6e0441017p-4'],
                                       ['minus output', "D' vs D", '0x1.f30822ff51af0p-1', False,
                                        '-0x1.0000000000000p+0', '0x1.f3bcb98d05e4bp+0'],
                                       ['minus output (smoothed threshold)', "D vs D'", '0x1.b8c89ce3c0438p-1', False,
                                        '0x1.0000000000000p+0', '0x1.99667e058dc4dp-1'],
                                       ['minus output (smoothed threshold)', "D' vs D", '0x1.0f9742cc1c51cp+0', False,
                                        '-0x1.0000000000000p+0', '0x1.dcf3f6bbfbb49p+0'],
                                       ['histogram log-ratio of output', "D vs D'", '0x1.e21e1c67bebbap-1', False,
                                        '0x1.0000000000000p+0', '0x1.5add43d5d5d87p-1'],
                                       ['histogram log-ratio of output', "D' vs D", '0x1.de771e4eede6dp-1', False,
                                        '-0x1.0000000000000p+0', '0x1.e5d74631eaf6fp-1'],
                                       ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D vs D'",
                                        '0x1.e61292f02f2bcp-1', False, '0x1.0000000000000p+0',
                                        '0x1.86c037d178fe3p-1'],
                                       ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D' vs D",
                                        '0x1.dbb587d7a69f7p-1', False, '-0x1.0000000000000p+0',
                                        '0x1.e064e0c92c395p-1']]]},
 'lap1|pessimistic': {'audit': ['0x1.b664b4dc3cc27p-1', '-0x1.b9fe9a12ea9b5p-1',
                                "{'in_S_numerator': 1677, 'in_S_other': 644, 'n_each': 3000}"],
                      'select': [['0x1.c977f86641cc6p-1', 0, "D' vs D", '-0x1.0000000000000p+0',
                                  '0x1.f3bcb98d05e4bp+0'],
                                 [['output', "D vs D'", '-0x1.185fc57193a38p-9', False, '0x1.0000000000000p+0',
                                   '-0x1.e64b667da21e9p+2'],
                                  ['output', "D' vs D", '-0x1.1860c5462d337p-9', False, '-0x1.0000000000000p+0',
                                   '-inf'],
                                  ['minus output', "D vs D'", '0x1.c44ecd2cc7815p-1', False, '0x1.0000000000000p+0',
                                   '-0x1.56ab6e0441017p-4'],
                                  ['minus output', "D' vs D", '0x1.c977f86641cc6p-1', False, '-0x1.0000000000000p+0',
                                   '0x1.f3bcb98d05e4bp+0'],
                                  ['histogram log-ratio of output', "D vs D'", '0x1.ba962d74bbc7ep-1', False,
                                   '0x1.0000000000000p+0', '0x1.5add43d5d5d87p-1'],
                                  ['histogram log-ratio of output', "D' vs D", '0x1.b2abb39ca3730p-1', False,
                                   '-0x1.0000000000000p+0', '0x1.e5d74631eaf6fp-1'],
                                  ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D vs D'",
                                   '0x1.b9559d370f363p-1', False, '0x1.0000000000000p+0', '0x1.86c037d178fe3p-1'],
                                  ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D' vs D",
                                   '0x1.a9fe939aaf96cp-1', False, '-0x1.0000000000000p+0',
                                   '0x1.e064e0c92c395p-1']]]},
 'lap2-ties|cross-fit': {'audit': ['0x1.d886ed2d7f824p-1', '-0x1.d407fffffffffp-1',
                                   "{'in_S_numerator': 1611, 'in_S_other': 575, 'n_each': 3000}"],
                         'select': [['0x1.e08d3145eb495p-1', 0, "D' vs D", '-0x1.0000000000000p+0',
                                     '0x1.c738b78f087d1p-1'],
                                    [['logistic regression', "D vs D'", '0x1.c1b884af4ea1fp-1', False,
                                      '0x1.0000000000000p+0', '0x1.80b312436ccdbp-2'],
                                     ['logistic regression', "D' vs D", '0x1.dcb4a053d7b16p-1', False,
                                      '-0x1.0000000000000p+0', '0x1.30933c3daad5ap-2'],
                                     ['minus logistic regression', "D vs D'", '-0x1.77acfa5b1e784p-11', False,
                                      '0x1.0000000000000p+0', '-inf'],
                                     ['minus logistic regression', "D' vs D", '-0x1.77acfa5b1e784p-11', False,
                                      '-0x1.0000000000000p+0', '-inf'],
                                     ['histogram log-ratio of logistic regression', "D vs D'", '0x1.c9a516b39b305p-1',
                                      False, '0x1.0000000000000p+0', '0x1.d49abd1d97903p-1'],
                                     ['histogram log-ratio of logistic regression', "D' vs D", '0x1.d9101852e04e8p-1',
                                      False, '-0x1.0000000000000p+0', '0x1.be497b2092aefp-1'],
                                     ['histogram log-ratio (joint cells, 0 atoms)', "D vs D'", '0x1.d455fe2567568p-1',
                                      False, '0x1.0000000000000p+0', '0x1.c3086aa1c95f7p-1'],
                                     ['histogram log-ratio (joint cells, 0 atoms)', "D' vs D", '0x1.e08d3145eb495p-1',
                                      False, '-0x1.0000000000000p+0', '0x1.c738b78f087d1p-1'],
                                     ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D vs D'",
                                      '0x1.be878ba1e4316p-1', False, '0x1.0000000000000p+0', '0x1.caee7c7e4e359p-1'],
                                     ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D' vs D",
                                      '0x1.dc38c6ac2fe33p-1', False, '-0x1.0000000000000p+0',
                                      '0x1.aec5c29487d97p-1'],
                                     ['histogram log-ratio (coordinate 1 cells, 0 atoms)', "D vs D'",
                                      '-0x1.77acfa5b1e784p-11', False, '0x1.0000000000000p+0', '-inf'],
                                     ['histogram log-ratio (coordinate 1 cells, 0 atoms)', "D' vs D",
                                      '-0x1.77acfa5b1e784p-11', False, '-0x1.0000000000000p+0', '-inf'],
                                     ['coordinate 0', "D vs D'", '-0x1.77acfa5b1e784p-11', False,
                                      '0x1.0000000000000p+0', '-inf'],
                                     ['coordinate 0', "D' vs D", '-0x1.77acfa5b1e784p-11', False,
                                      '-0x1.0000000000000p+0', '-inf'],
                                     ['minus coordinate 0', "D vs D'", '0x1.ce936d467c21ap-1', False,
                                      '0x1.0000000000000p+0', '-0x1.5700000000001p-5'],
                                     ['minus coordinate 0', "D' vs D", '0x1.d4d801b7d1e59p-1', False,
                                      '-0x1.0000000000000p+0', '0x1.c1effffffffffp-1'],
                                     ['coordinate 1', "D vs D'", '-0x1.01252f452fa86p-8', False,
                                      '0x1.0000000000000p+0', '-0x1.b9896f988993ap+1'],
                                     ['coordinate 1', "D' vs D", '-0x1.c365223bf4f7ep-11', False,
                                      '-0x1.0000000000000p+0', '-0x1.a64d48bbd7dfdp+1'],
                                     ['minus coordinate 1', "D vs D'", '-0x1.58020f9a1b168p-9', False,
                                      '0x1.0000000000000p+0', '-inf'],
                                     ['minus coordinate 1', "D' vs D", '-0x1.dad07c8f7ceedp-10', False,
                                      '-0x1.0000000000000p+0', '-inf'],
                                     ['logistic regression on joint features and atoms', "D vs D'",
                                      '0x1.ce05b60a4158dp-1', False, '0x1.0000000000000p+0', '0x1.aa0daa308072cp-2'],
                                     ['logistic regression on joint features and atoms', "D' vs D",
                                      '0x1.d4c7fcbe5c605p-1', False, '-0x1.0000000000000p+0',
                                      '0x1.837edb6bfa0b3p+0'],
                                     ['minus logistic regression on joint features and atoms', "D vs D'",
                                      '-0x1.77acfa5b1e784p-11', False, '0x1.0000000000000p+0', '-inf'],
                                     ['minus logistic regression on joint features and atoms', "D' vs D",
                                      '-0x1.77acfa5b1e784p-11', False, '-0x1.0000000000000p+0', '-inf']]]},
 'lap2-ties|cross-fit-smooth': {'audit': ['0x1.d886ed2d7f824p-1', '-0x1.d407fffffffffp-1',
                                          "{'in_S_numerator': 1611, 'in_S_other': 575, 'n_each': 3000}"],
                                'select': [['0x1.e08d3145eb495p-1', 0, "D' vs D", '-0x1.0000000000000p+0',
                                            '0x1.c738b78f087d1p-1'],
                                           [['logistic regression', "D vs D'", '0x1.c1b884af4ea1fp-1', False,
                                             '0x1.0000000000000p+0', '0x1.80b312436ccdbp-2'],
                                            ['logistic regression', "D' vs D", '0x1.dcb4a053d7b16p-1', False,
                                             '-0x1.0000000000000p+0', '0x1.30933c3daad5ap-2'],
                                            ['minus logistic regression', "D vs D'", '-0x1.77acfa5b1e784p-11', False,
                                             '0x1.0000000000000p+0', '-inf'],
                                            ['minus logistic regression', "D' vs D", '-0x1.77acfa5b1e784p-11', False,
                                             '-0x1.0000000000000p+0', '-inf'],
                                            ['histogram log-ratio of logistic regression', "D vs D'",
                                             '0x1.c9a516b39b305p-1', False, '0x1.0000000000000p+0',
                                             '0x1.d49abd1d97903p-1'],
                                            ['histogram log-ratio of logistic regression', "D' vs D",
                                             '0x1.d9101852e04e8p-1', False, '-0x1.0000000000000p+0',
                                             '0x1.be497b2092aefp-1'],
                                            ['histogram log-ratio (joint cells, 0 atoms)', "D vs D'",
                                             '0x1.d455fe2567568p-1', False, '0x1.0000000000000p+0',
                                             '0x1.c3086aa1c95f7p-1'],
                                            ['histogram log-ratio (joint cells, 0 atoms)', "D' vs D",
                                             '0x1.e08d3145eb495p-1', False, '-0x1.0000000000000p+0',
                                             '0x1.c738b78f087d1p-1'],
                                            ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D vs D'",
                                             '0x1.be878ba1e4316p-1', False, '0x1.0000000000000p+0',
                                             '0x1.caee7c7e4e359p-1'],
                                            ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D' vs D",
                                             '0x1.dc38c6ac2fe33p-1', False, '-0x1.0000000000000p+0',
                                             '0x1.aec5c29487d97p-1'],
                                            ['histogram log-ratio (coordinate 1 cells, 0 atoms)', "D vs D'",
                                             '-0x1.77acfa5b1e784p-11', False, '0x1.0000000000000p+0', '-inf'],
                                            ['histogram log-ratio (coordinate 1 cells, 0 atoms)', "D' vs D",
                                             '-0x1.77acfa5b1e784p-11', False, '-0x1.0000000000000p+0', '-inf'],
                                            ['coordinate 0', "D vs D'", '-0x1.77acfa5b1e784p-11', False,
                                             '0x1.0000000000000p+0', '-inf'],
                                            ['coordinate 0', "D' vs D", '-0x1.77acfa5b1e784p-11', False,
                                             '-0x1.0000000000000p+0', '-inf'],
                                            ['minus coordinate 0', "D vs D'", '0x1.ce936d467c21ap-1', False,
                                             '0x1.0000000000000p+0', '-0x1.5700000000001p-5'],
                                            ['minus coordinate 0', "D' vs D", '0x1.d4d801b7d1e59p-1', False,
                                             '-0x1.0000000000000p+0', '0x1.c1effffffffffp-1'],
                                            ['coordinate 1', "D vs D'", '-0x1.01252f452fa86p-8', False,
                                             '0x1.0000000000000p+0', '-0x1.b9896f988993ap+1'],
                                            ['coordinate 1', "D' vs D", '-0x1.c365223bf4f7ep-11', False,
                                             '-0x1.0000000000000p+0', '-0x1.a64d48bbd7dfdp+1'],
                                            ['minus coordinate 1', "D vs D'", '-0x1.58020f9a1b168p-9', False,
                                             '0x1.0000000000000p+0', '-inf'],
                                            ['minus coordinate 1', "D' vs D", '-0x1.dad07c8f7ceedp-10', False,
                                             '-0x1.0000000000000p+0', '-inf'],
                                            ['logistic regression on joint features and atoms', "D vs D'",
                                             '0x1.ce05b60a4158dp-1', False, '0x1.0000000000000p+0',
                                             '0x1.aa0daa308072cp-2'],
                                            ['logistic regression on joint features and atoms', "D' vs D",
                                             '0x1.d4c7fcbe5c605p-1', False, '-0x1.0000000000000p+0',
                                             '0x1.837edb6bfa0b3p+0'],
                                            ['minus logistic regression on joint features and atoms', "D vs D'",
                                             '-0x1.77acfa5b1e784p-11', False, '0x1.0000000000000p+0', '-inf'],
                                            ['minus logistic regression on joint features and atoms', "D' vs D",
                                             '-0x1.77acfa5b1e784p-11', False, '-0x1.0000000000000p+0', '-inf']]]},
 'lap2-ties|pessimistic': {'audit': ['0x1.d886ed2d7f824p-1', '-0x1.d407fffffffffp-1',
                                     "{'in_S_numerator': 1611, 'in_S_other': 575, 'n_each': 3000}"],
                           'select': [['0x1.b79fb46bac5acp-1', 0, "D' vs D", '-0x1.0000000000000p+0',
                                       '0x1.837edb6bfa0b3p+0'],
                                      [['logistic regression', "D vs D'", '0x1.9e999009f256fp-1', False,
                                        '0x1.0000000000000p+0', '0x1.80b312436ccdbp-2'],
                                       ['logistic regression', "D' vs D", '0x1.af965ca25ae5bp-1', False,
                                        '-0x1.0000000000000p+0', '0x1.30933c3daad5ap-2'],
                                       ['minus logistic regression', "D vs D'", '-0x1.1860c5462d337p-9', False,
                                        '0x1.0000000000000p+0', '-inf'],
                                       ['minus logistic regression', "D' vs D", '-0x1.1860c5462d337p-9', False,
                                        '-0x1.0000000000000p+0', '-inf'],
                                       ['histogram log-ratio of logistic regression', "D vs D'",
                                        '0x1.9cbfa6771977cp-1', False, '0x1.0000000000000p+0',
                                        '0x1.d49abd1d97903p-1'],
                                       ['histogram log-ratio of logistic regression', "D' vs D",
                                        '0x1.a4987c0e5b093p-1', False, '-0x1.0000000000000p+0',
                                        '0x1.be497b2092aefp-1'],
                                       ['histogram log-ratio (joint cells, 0 atoms)', "D vs D'",
                                        '0x1.995c3c2a976d7p-1', False, '0x1.0000000000000p+0',
                                        '0x1.c3086aa1c95f7p-1'],
                                       ['histogram log-ratio (joint cells, 0 atoms)', "D' vs D",
                                        '0x1.a5ea9da5fff75p-1', False, '-0x1.0000000000000p+0',
                                        '0x1.c738b78f087d1p-1'],
                                       ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D vs D'",
                                        '0x1.99294851cdaa6p-1', False, '0x1.0000000000000p+0',
                                        '0x1.caee7c7e4e359p-1'],
                                       ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D' vs D",
                                        '0x1.a9589f9085e2bp-1', False, '-0x1.0000000000000p+0',
                                        '0x1.aec5c29487d97p-1'],
                                       ['histogram log-ratio (coordinate 1 cells, 0 atoms)', "D vs D'",
                                        '-0x1.1860c5462d337p-9', False, '0x1.0000000000000p+0', '-inf'],
                                       ['histogram log-ratio (coordinate 1 cells, 0 atoms)', "D' vs D",
                                        '-0x1.1860c5462d337p-9', False, '-0x1.0000000000000p+0', '-inf'],
                                       ['coordinate 0', "D vs D'", '-0x1.1860c5462d337p-9', False,
                                        '0x1.0000000000000p+0', '-inf'],
                                       ['coordinate 0', "D' vs D", '-0x1.1860c5462d337p-9', False,
                                        '-0x1.0000000000000p+0', '-inf'],
                                       ['minus coordinate 0', "D vs D'", '0x1.a0a7b711f5fbfp-1', False,
                                        '0x1.0000000000000p+0', '-0x1.5700000000001p-5'],
                                       ['minus coordinate 0', "D' vs D", '0x1.ae3158b52c277p-1', False,
                                        '-0x1.0000000000000p+0', '0x1.c1effffffffffp-1'],
                                       ['coordinate 1', "D vs D'", '-0x1.185fc57193a38p-9', False,
                                        '0x1.0000000000000p+0', '-0x1.b9896f988993ap+1'],
                                       ['coordinate 1', "D' vs D", '-0x1.12abfa7cde771p-9', False,
                                        '-0x1.0000000000000p+0', '-0x1.a64d48bbd7dfdp+1'],
                                       ['minus coordinate 1', "D vs D'", '-0x1.1860c5462d337p-9', False,
                                        '0x1.0000000000000p+0', '-inf'],
                                       ['minus coordinate 1', "D' vs D", '-0x1.1860c5462d337p-9', False,
                                        '-0x1.0000000000000p+0', '-inf'],
                                       ['logistic regression on joint features and atoms', "D vs D'",
                                        '0x1.a1c1032cd5ffep-1', False, '0x1.0000000000000p+0',
                                        '0x1.aa0daa308072cp-2'],
                                       ['logistic regression on joint features and atoms', "D' vs D",
                                        '0x1.b79fb46bac5acp-1', False, '-0x1.0000000000000p+0',
                                        '0x1.837edb6bfa0b3p+0'],
                                       ['minus logistic regression on joint features and atoms', "D vs D'",
                                        '-0x1.1860c5462d337p-9', False, '0x1.0000000000000p+0', '-inf'],
                                       ['minus logistic regression on joint features and atoms', "D' vs D",
                                        '-0x1.1860c5462d337p-9', False, '-0x1.0000000000000p+0', '-inf']]]},
 'lap2|cross-fit': {'audit': ['0x1.dd7095458912ap-1', '0x1.97368ee9d5de1p-1',
                              "{'in_S_numerator': 1639, 'in_S_other': 580, 'n_each': 3000}"],
                    'select': [['0x1.ff71349f7c4f3p-1', 0, "D vs D'", '0x1.0000000000000p+0',
                                '-0x1.d014c9721b02fp-5'],
                               [['logistic regression', "D vs D'", '0x1.f7971533e653fp-1', False,
                                 '0x1.0000000000000p+0', '0x1.5c3e5eceaa98cp-2'],
                                ['logistic regression', "D' vs D", '0x1.eb687fde5ec6fp-1', False,
                                 '-0x1.0000000000000p+0', '0x1.333c1e31003b4p-2'],
                                ['minus logistic regression', "D vs D'", '-0x1.77acfa5b1e784p-11', False,
                                 '0x1.0000000000000p+0', '-inf'],
                                ['minus logistic regression', "D' vs D", '-0x1.615cf4fbd40cep-10', False,
                                 '-0x1.0000000000000p+0', '-inf'],
                                ['histogram log-ratio of logistic regression', "D vs D'", '0x1.e3248fd9fcbcep-1',
                                 False, '0x1.0000000000000p+0', '0x1.dc22e03dfe573p-1'],
                                ['histogram log-ratio of logistic regression', "D' vs D", '0x1.e2b6daa782c07p-1',
                                 False, '-0x1.0000000000000p+0', '0x1.014626e573795p+0'],
                                ['histogram log-ratio (joint cells, 0 atoms)', "D vs D'", '0x1.f3704228a3c4fp-1',
                                 False, '0x1.0000000000000p+0', '0x1.9fd7031b46535p-1'],
                                ['histogram log-ratio (joint cells, 0 atoms)', "D' vs D", '0x1.e8a79e976b829p-1',
                                 False, '-0x1.0000000000000p+0', '0x1.00a9830796cbcp+0'],
                                ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D vs D'",
                                 '0x1.e9982cc47e12ep-1', False, '0x1.0000000000000p+0', '0x1.84e019ac6a433p-1'],
                                ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D' vs D",
                                 '0x1.d3932dc748c78p-1', False, '-0x1.0000000000000p+0', '0x1.a4825ade58929p-1'],
                                ['histogram log-ratio (coordinate 1 cells, 0 atoms)', "D vs D'",
                                 '-0x1.77acfa5b1e784p-11', False, '0x1.0000000000000p+0', '-inf'],
                                ['histogram log-ratio (coordinate 1 cells, 0 atoms)', "D' vs D",
                                 '-0x1.77acfa5b1e784p-11', False, '-0x1.0000000000000p+0', '-inf'],
                                ['coordinate 0', "D vs D'", '-0x1.77acfa5b1e784p-11', False, '0x1.0000000000000p+0',
                                 '-inf'],
                                ['coordinate 0', "D' vs D", '-0x1.615cf4fbd40cep-10', False, '-0x1.0000000000000p+0',
                                 '-inf'],
                                ['minus coordinate 0', "D vs D'", '0x1.ff71349f7c4f3p-1', False,
                                 '0x1.0000000000000p+0', '-0x1.d014c9721b02fp-5'],
                                ['minus coordinate 0', "D' vs D", '0x1.ee4685d8a7e1ap-1', False,
                                 '-0x1.0000000000000p+0', '0x1.c8cf77d9ca522p-1'],
                                ['coordinate 1', "D vs D'", '-0x1.eb3297c1f2b62p-12', False, '0x1.0000000000000p+0',
                                 '-0x1.7ed11fd4c5383p+1'],
                                ['coordinate 1', "D' vs D", '-0x1.615cf4fbd40cep-10', False, '-0x1.0000000000000p+0',
                                 '-0x1.956fb5013cbfdp+1'],
                                ['minus coordinate 1', "D vs D'", '-0x1.59052611861b4p-11', False,
                                 '0x1.0000000000000p+0', '-0x1.522cc0f9e2700p+1'],
                                ['minus coordinate 1', "D' vs D", '-0x1.77acfa5b1e784p-11', False,
                                 '-0x1.0000000000000p+0', '-inf'],
                                ['logistic regression on joint features and atoms', "D vs D'", '0x1.f13bfb19367a7p-1',
                                 False, '0x1.0000000000000p+0', '0x1.9b5d35f7116b9p-2'],
                                ['logistic regression on joint features and atoms', "D' vs D", '0x1.ed021f5401b83p-1',
                                 False, '-0x1.0000000000000p+0', '0x1.8df1b49719519p-2'],
                                ['minus logistic regression on joint features and atoms', "D vs D'",
                                 '-0x1.ff22d5e27e645p-10', False, '0x1.0000000000000p+0', '-inf'],
                                ['minus logistic regression on joint features and atoms', "D' vs D",
                                 '-0x1.77acfa5b1e784p-11', False, '-0x1.0000000000000p+0', '-inf']]]},
 'lap2|cross-fit-smooth': {'audit': ['0x1.dd7095458912ap-1', '0x1.97368ee9d5de1p-1',
                                     "{'in_S_numerator': 1639, 'in_S_other': 580, 'n_each': 3000}"],
                           'select': [['0x1.ff71349f7c4f3p-1', 0, "D vs D'", '0x1.0000000000000p+0',
                                       '-0x1.d014c9721b02fp-5'],
                                      [['logistic regression', "D vs D'", '0x1.f7971533e653fp-1', False,
                                        '0x1.0000000000000p+0', '0x1.5c3e5eceaa98cp-2'],
                                       ['logistic regression', "D' vs D", '0x1.eb687fde5ec6fp-1', False,
                                        '-0x1.0000000000000p+0', '0x1.333c1e31003b4p-2'],
                                       ['minus logistic regression', "D vs D'", '-0x1.77acfa5b1e784p-11', False,
                                        '0x1.0000000000000p+0', '-inf'],
                                       ['minus logistic regression', "D' vs D", '-0x1.615cf4fbd40cep-10', False,
                                        '-0x1.0000000000000p+0', '-inf'],
                                       ['histogram log-ratio of logistic regression', "D vs D'",
                                        '0x1.e3248fd9fcbcep-1', False, '0x1.0000000000000p+0',
                                        '0x1.dc22e03dfe573p-1'],
                                       ['histogram log-ratio of logistic regression', "D' vs D",
                                        '0x1.e2b6daa782c07p-1', False, '-0x1.0000000000000p+0',
                                        '0x1.014626e573795p+0'],
                                       ['histogram log-ratio (joint cells, 0 atoms)', "D vs D'",
                                        '0x1.f3704228a3c4fp-1', False, '0x1.0000000000000p+0',
                                        '0x1.9fd7031b46535p-1'],
                                       ['histogram log-ratio (joint cells, 0 atoms)', "D' vs D",
                                        '0x1.e8a79e976b829p-1', False, '-0x1.0000000000000p+0',
                                        '0x1.00a9830796cbcp+0'],
                                       ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D vs D'",
                                        '0x1.e9982cc47e12ep-1', False, '0x1.0000000000000p+0',
                                        '0x1.84e019ac6a433p-1'],
                                       ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D' vs D",
                                        '0x1.d3932dc748c78p-1', False, '-0x1.0000000000000p+0',
                                        '0x1.a4825ade58929p-1'],
                                       ['histogram log-ratio (coordinate 1 cells, 0 atoms)', "D vs D'",
                                        '-0x1.77acfa5b1e784p-11', False, '0x1.0000000000000p+0', '-inf'],
                                       ['histogram log-ratio (coordinate 1 cells, 0 atoms)', "D' vs D",
                                        '-0x1.77acfa5b1e784p-11', False, '-0x1.0000000000000p+0', '-inf'],
                                       ['coordinate 0', "D vs D'", '-0x1.77acfa5b1e784p-11', False,
                                        '0x1.0000000000000p+0', '-inf'],
                                       ['coordinate 0', "D' vs D", '-0x1.615cf4fbd40cep-10', False,
                                        '-0x1.0000000000000p+0', '-inf'],
                                       ['minus coordinate 0', "D vs D'", '0x1.ff71349f7c4f3p-1', False,
                                        '0x1.0000000000000p+0', '-0x1.d014c9721b02fp-5'],
                                       ['minus coordinate 0', "D' vs D", '0x1.ee4685d8a7e1ap-1', False,
                                        '-0x1.0000000000000p+0', '0x1.c8cf77d9ca522p-1'],
                                       ['coordinate 1', "D vs D'", '-0x1.eb3297c1f2b62p-12', False,
                                        '0x1.0000000000000p+0', '-0x1.7ed11fd4c5383p+1'],
                                       ['coordinate 1', "D' vs D", '-0x1.615cf4fbd40cep-10', False,
                                        '-0x1.0000000000000p+0', '-0x1.956fb5013cbfdp+1'],
                                       ['minus coordinate 1', "D vs D'", '-0x1.59052611861b4p-11', False,
                                        '0x1.0000000000000p+0', '-0x1.522cc0f9e2700p+1'],
                                       ['minus coordinate 1', "D' vs D", '-0x1.77acfa5b1e784p-11', False,
                                        '-0x1.0000000000000p+0', '-inf'],
                                       ['logistic regression on joint features and atoms', "D vs D'",
                                        '0x1.f13bfb19367a7p-1', False, '0x1.0000000000000p+0',
                                        '0x1.9b5d35f7116b9p-2'],
                                       ['logistic regression on joint features and atoms', "D' vs D",
                                        '0x1.ed021f5401b83p-1', False, '-0x1.0000000000000p+0',
                                        '0x1.8df1b49719519p-2'],
                                       ['minus logistic regression on joint features and atoms', "D vs D'",
                                        '-0x1.ff22d5e27e645p-10', False, '0x1.0000000000000p+0', '-inf'],
                                       ['minus logistic regression on joint features and atoms', "D' vs D",
                                        '-0x1.77acfa5b1e784p-11', False, '-0x1.0000000000000p+0', '-inf']]]},
 'lap2|pessimistic': {'audit': ['0x1.e4eec598b8130p-2', '-0x1.90eee8722c7c5p+0',
                                "{'in_S_numerator': 75, 'in_S_other': 25, 'n_each': 3000}"],
                      'select': [['0x1.ca4826eb52140p-1', 0, "D vs D'", '0x1.0000000000000p+0',
                                  '-0x1.d014c9721b02fp-5'],
                                 [['logistic regression', "D vs D'", '0x1.c84743e9c2e5ep-1', False,
                                   '0x1.0000000000000p+0', '0x1.5c3e5eceaa98cp-2'],
                                  ['logistic regression', "D' vs D", '0x1.b9075f959e90dp-1', False,
                                   '-0x1.0000000000000p+0', '0x1.333c1e31003b4p-2'],
                                  ['minus logistic regression', "D vs D'", '-0x1.1860c5462d337p-9', False,
                                   '0x1.0000000000000p+0', '-inf'],
                                  ['minus logistic regression', "D' vs D", '-0x1.1860c5462d337p-9', False,
                                   '-0x1.0000000000000p+0', '-inf'],
                                  ['histogram log-ratio of logistic regression', "D vs D'", '0x1.b88fe745c1124p-1',
                                   False, '0x1.0000000000000p+0', '0x1.dc22e03dfe573p-1'],
                                  ['histogram log-ratio of logistic regression', "D' vs D", '0x1.b23ad45d064fep-1',
                                   False, '-0x1.0000000000000p+0', '0x1.014626e573795p+0'],
                                  ['histogram log-ratio (joint cells, 0 atoms)', "D vs D'", '0x1.b7f945025242fp-1',
                                   False, '0x1.0000000000000p+0', '0x1.9fd7031b46535p-1'],
                                  ['histogram log-ratio (joint cells, 0 atoms)', "D' vs D", '0x1.af01ec106df95p-1',
                                   False, '-0x1.0000000000000p+0', '0x1.00a9830796cbcp+0'],
                                  ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D vs D'",
                                   '0x1.b6493f9823d20p-1', False, '0x1.0000000000000p+0', '0x1.84e019ac6a433p-1'],
                                  ['histogram log-ratio (coordinate 0 cells, 0 atoms)', "D' vs D",
                                   '0x1.a176ded7297c7p-1', False, '-0x1.0000000000000p+0', '0x1.a4825ade58929p-1'],
                                  ['histogram log-ratio (coordinate 1 cells, 0 atoms)', "D vs D'",
                                   '-0x1.1860c5462d337p-9', False, '0x1.0000000000000p+0', '-inf'],
                                  ['histogram log-ratio (coordinate 1 cells, 0 atoms)', "D' vs D",
                                   '-0x1.1860c5462d337p-9', False, '-0x1.0000000000000p+0', '-inf'],
                                  ['coordinate 0', "D vs D'", '-0x1.1860c5462d337p-9', False, '0x1.0000000000000p+0',
                                   '-inf'],
                                  ['coordinate 0', "D' vs D", '-0x1.1860c5462d337p-9', False, '-0x1.0000000000000p+0',
                                   '-inf'],
                                  ['minus coordinate 0', "D vs D'", '0x1.ca4826eb52140p-1', False,
                                   '0x1.0000000000000p+0', '-0x1.d014c9721b02fp-5'],
                                  ['minus coordinate 0', "D' vs D", '0x1.bc5cc7c77064ep-1', False,
                                   '-0x1.0000000000000p+0', '0x1.c8cf77d9ca522p-1'],
                                  ['coordinate 1', "D vs D'", '-0x1.00f89d4c73ec7p-9', False, '0x1.0000000000000p+0',
                                   '-0x1.7ed11fd4c5383p+1'],
                                  ['coordinate 1', "D' vs D", '-0x1.185fc57193a38p-9', False, '-0x1.0000000000000p+0',
                                   '-0x1.956fb5013cbfdp+1'],
                                  ['minus coordinate 1', "D vs D'", '-0x1.c4f261566cd3fp-10', False,
                                   '0x1.0000000000000p+0', '-0x1.522cc0f9e2700p+1'],
                                  ['minus coordinate 1', "D' vs D", '-0x1.1860c5462d337p-9', False,
                                   '-0x1.0000000000000p+0', '-inf'],
                                  ['logistic regression on joint features and atoms', "D vs D'",
                                   '0x1.c44e7437cecc9p-1', False, '0x1.0000000000000p+0', '0x1.9b5d35f7116b9p-2'],
                                  ['logistic regression on joint features and atoms', "D' vs D",
                                   '0x1.ba5c002cc8a31p-1', False, '-0x1.0000000000000p+0', '0x1.8df1b49719519p-2'],
                                  ['minus logistic regression on joint features and atoms', "D vs D'",
                                   '-0x1.1860c5462d337p-9', False, '0x1.0000000000000p+0', '-inf'],
                                  ['minus logistic regression on joint features and atoms', "D' vs D",
                                   '-0x1.1860c5462d337p-9', False, '-0x1.0000000000000p+0', '-inf']]]}}


def _tuples(x):
    return tuple(_tuples(v) for v in x) if isinstance(x, (list, tuple)) else x


@pytest.mark.parametrize("rule", st.THRESHOLD_SCORINGS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_selection_and_audit_are_bit_identical_to_main(name, rule):
    want = PINNED[f"{name}|{rule}"]
    best, rows = run_case(st, name, rule)
    assert _tuples(rows) == _tuples(want["select"][1])
    assert _tuples(best) == _tuples(want["select"][0])
    assert _tuples(run_audit(st, name, rule)) == _tuples(want["audit"])


def test_pins_cover_smoothed_candidates_and_ties():
    # the pins exercise what they claim: smoothed candidates on every one-column case, none on two columns,
    # and tied outputs within and across the datasets on the rounded cases
    for name, (mech, n_sel, _) in CASES.items():
        rows = PINNED[f"{name}|cross-fit-smooth"]["select"][1]
        n_smooth = sum("smoothed" in r[0] for r in rows)
        assert n_smooth == (4 if mech.cols == 1 and not isinstance(mech, Exact) else 0), name
        if mech.step is not None:
            a = mech.sample([[0.0]], n_sel, np.random.default_rng(0))[:, 0]
            b = mech.sample([[1.0]], n_sel, np.random.default_rng(1))[:, 0]
            assert np.unique(a).size < a.size and np.intersect1d(a, b).size > 0, name


@pytest.mark.parametrize("step", [None, 1.0, 0.25, 2.0 ** -10, "split"])
def test_tie_positions_give_the_stable_sorts(step):
    # the three orders derived from one stable ascending sort equal the stable sorts of the plain weighted
    # searches, permutation for permutation: heavy ties within and across the datasets, signed zeros, ties
    # inside one dataset only ("split"), none at all (None)
    rng = np.random.default_rng(11)
    n_first = 2_345
    v = rng.laplace(0.0, 3.0, 5_001)
    if step == "split":
        v = np.round(v)
        v[:n_first] += 0.5                          # D on the half-integers, D' on the integers
    elif step is not None:
        v = np.round(v / step) * step
        v[:40] = 0.0
        v[40:80] = -0.0
    asc = np.argsort(v, kind="stable")
    down, swap = st._tie_positions(v[asc], asc < n_first)
    assert (down is None) == (step is None) and (swap is None) == (step in (None, "split"))
    down = np.arange(v.size)[::-1] if down is None else down
    swap = np.arange(v.size) if swap is None else swap
    assert np.array_equal(asc[down], np.argsort(-v, kind="stable"))
    swapped = np.concatenate([v[n_first:], v[:n_first]])          # the pooled (D', D) rows of the other sign
    n_second = v.size - n_first

    def rows(o):                                                   # positions in (D', D) -> rows of (D, D')
        return np.where(o < n_second, o + n_first, o - n_second)
    assert np.array_equal(asc[swap], rows(np.argsort(swapped, kind="stable")))
    assert np.array_equal(asc[swap[down]], rows(np.argsort(-swapped, kind="stable")))


@pytest.mark.parametrize("case", ["lap1-ties", "lap1-odd"])
def test_smooth_thresholds_equal_the_plain_weighted_search_on_every_fit(case):
    # each of the twenty searches (output and its negative x 2 signs x 5 fits) from the shared order gives the
    # threshold of best_threshold_weighted on the fit's own rows with the spline's values there (the plain form
    # before the speed-up), and the fit's stored values are the spline's values on its rows
    mech, n_sel, _ = CASES[case]
    a = mech.sample([[0.0]], n_sel, np.random.default_rng(1))
    b = mech.sample([[1.0]], n_sel, np.random.default_rng(2))
    half = n_sel // 2
    x = np.concatenate([a, b])[:, 0]
    asc = np.argsort(x, kind="stable")
    models = st._smooth_models(a, b, half, x[asc], asc)
    assert all(np.array_equal(m1[1], m2[1]) for m1, m2 in zip(models, st._smooth_models(a, b, half)))
    got = st._smooth_thresholds(x, asc, len(a), models, 20_000, 0.0, 0.025)
    sa, sb = a[half:], b[half:]
    fa, fb = np.arange(len(sa)) % 4, np.arange(len(sb)) % 4
    rows = [(a, b)] + [(np.concatenate([a[:half], sa[fa != f]]), np.concatenate([b[:half], sb[fb != f]]))
                       for f in range(4)]
    for i, (xa, xb) in enumerate(rows):
        spline = st.SmoothLogRatio(xa[:, 0], xb[:, 0])
        la, lb = spline(xa[:, 0]), spline(xb[:, 0])
        assert all(np.array_equal(x, y) for x, y in zip(spline.fit_values, (la, lb)))
        for negated, stat in ((False, st.Projection()), (True, st._Negated(st.Projection()))):
            za, zb = stat(xa), stat(xb)
            want = {1.0: st.best_threshold_weighted(za, zb, la, lb, 20_000, 20_000, 0.0, 0.025)[0],
                    -1.0: st.best_threshold_weighted(-zb, -za, -lb, -la, 20_000, 20_000, 0.0, 0.025)[0]}
            for sign in (1.0, -1.0):
                assert got[(negated, sign)][i] == want[sign]


def _plain_weighted_search(z, cum_n, cum_o, n_num, n_den, delta, gamma, max_thresholds=2048):
    # main 91837e0's search of best_threshold_weighted: every coarse and fine index scored, np.argmax
    from proofs_checks.audit._cp_bound import _cp_eps_vector

    last = np.flatnonzero(np.append(z[1:] != z[:-1], True))
    P, Q = np.minimum(cum_n[last], 1.0), np.minimum(cum_o[last], 1.0)

    def score(idx):
        return _cp_eps_vector(P[idx] * n_num, n_num, Q[idx] * n_den, n_den, delta, gamma)

    idx = np.unique(np.linspace(0, last.size - 1, min(last.size, max_thresholds)).round().astype(np.int64))
    b = score(idx)
    j = int(np.argmax(b))
    lo, hi = idx[max(j - 1, 0)], idx[min(j + 1, idx.size - 1)]
    fine = np.arange(lo, hi + 1)
    if fine.size > max_thresholds:
        fine = np.unique(np.linspace(lo, hi, max_thresholds).round().astype(np.int64))
    bf = score(fine)
    k = int(np.argmax(bf))
    i, best = (int(fine[k]), float(bf[k])) if bf[k] >= b[j] else (int(idx[j]), float(b[j]))
    return float(np.nextafter(z[last[i]], -np.inf)), best


@pytest.mark.parametrize("seed", range(6))
def test_pruned_weighted_search_equals_scoring_every_threshold(seed):
    # _weighted_search skips the blocks of thresholds whose bound cannot reach the best (_argmax_monotone):
    # the same threshold and bound as scoring all of them, on weights from flat to sharply tilted, sizes
    # below and above the 2048 coarse thresholds, delta > 0 (bounds of -inf), and ties
    rng = np.random.default_rng(seed)
    n = (300, 3_000, 60_000)[seed % 3]
    z = -np.sort(-np.round(rng.standard_normal(n), 2 if seed % 2 else 12))
    l = rng.normal(0.0, (0.05, 1.0, 4.0)[seed % 3], n) + 0.3 * z
    m = n / 2.0
    cum_n = np.cumsum(1.0 / (1.0 + np.exp(-l)) / m)
    cum_o = np.cumsum(1.0 / (1.0 + np.exp(l)) / m)
    for delta in (0.0, 1e-3, 0.4):
        for n_est in (1_000, 10 ** 6):
            want = _plain_weighted_search(z, cum_n, cum_o, n_est, n_est, delta, 0.025)
            assert st._weighted_search(z, cum_n, cum_o, n_est, n_est, delta, 0.025) == want


@pytest.mark.parametrize("kind", ["continuous", "ties", "zeros", "inf", "nan", "int"])
def test_stable_orders_are_the_four_stable_argsorts(kind):
    # the cross-fitted scores' sorts: the two directions' orders from two stable sorts equal the four plain ones
    rng = np.random.default_rng(5)
    s_a, s_b = rng.laplace(0.0, 1.0, 3_001), rng.laplace(0.5, 1.0, 2_999)
    if kind == "ties":
        s_a, s_b = np.round(s_a, 1), np.round(s_b, 1)
    elif kind == "zeros":
        s_a[::3], s_b[::5], s_a[1::7] = 0.0, -0.0, -0.0
    elif kind == "inf":
        s_a[::11], s_b[::13] = np.inf, -np.inf
    elif kind == "nan":
        s_a[::17], s_b[::19] = np.nan, np.nan
    elif kind == "int":
        s_a, s_b = np.round(s_a * 3).astype(np.int64), np.round(s_b * 3).astype(np.int64)
    got = st._stable_orders(s_a, s_b)
    for sign, (num, den) in ((1.0, (s_a, s_b)), (-1.0, (-s_b, -s_a))):
        assert np.array_equal(got[sign][0], np.argsort(num, kind="stable"))
        assert np.array_equal(got[sign][1], np.argsort(den, kind="stable"))


@pytest.mark.parametrize("zeros", [False, True])
def test_spline_from_sorted_outputs_is_the_same_fit(zeros):
    # SmoothLogRatio's order statistics (median, quartiles, knots) from the sorted outputs: the same floats as
    # from the unsorted ones (with a zero among the outputs it takes the unsorted path: -0.0 vs 0.0)
    rng = np.random.default_rng(3)
    a, b = np.round(rng.laplace(0.0, 1.0, 4_001), 3), np.round(rng.laplace(0.7, 1.0, 3_999), 3)
    if zeros:
        a[:7], b[:5] = -0.0, 0.0
    else:
        a, b = a[a != 0.0], b[b != 0.0]
    plain, fast = st.SmoothLogRatio(a, b), st.SmoothLogRatio(a, b, np.sort(np.concatenate([a, b])))
    assert plain.ok and fast.ok
    for name in ("center", "scale"):
        assert getattr(plain, name) == getattr(fast, name)
    assert np.array_equal(plain.knots, fast.knots) and np.array_equal(plain.w, fast.w)
