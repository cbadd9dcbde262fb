import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from proofs_checks.audit.exact import privacy_profile
from proofs_checks.audit.neighbours import check_neighbouring, differing_rows
from proofs_checks.audit.primitive_mechanisms import PRIMITIVE_FACTORIES, RecordExponential

FLOATS = st.floats(allow_nan=False, allow_infinity=False)  # the whole finite float64 range


@given(arrays(np.float64, (4, 2), elements=FLOATS))
def test_clipped_queries_finite_and_bounded(records):
    for alg_id in ("laplace", "gaussian"):
        m = PRIMITIVE_FACTORIES[alg_id]()
        q = m.query(records)
        assert np.all(np.isfinite(q)) and np.linalg.norm(q, ord=1 if alg_id == "laplace" else 2) <= 2.0 + 1e-12
        assert np.all(np.isfinite(m.sample(records, 3, np.random.default_rng(0))))


@given(arrays(np.float64, (3, 4), elements=FLOATS), arrays(np.float64, (4,), elements=FLOATS))
def test_exponential_replace_one_within_epsilon(records, new_row):
    m = RecordExponential(1.0, width=4)
    other = records.copy()
    other[0] = new_row
    assert differing_rows(records, other).size <= 1
    eps, _ = privacy_profile(m.log_prob(records)[1], m.log_prob(other)[1])
    assert eps <= 1.0 * (1 + 1e-9) + 1e-12
    # incremental rescoring equals full rescoring
    terms = m.score_terms(records)
    inc = m.log_prob_from_terms(terms.sum(axis=0) - terms[0] + m.score_terms(new_row[None])[0])
    np.testing.assert_allclose(inc, m.log_prob(other)[1], atol=1e-12)


@given(arrays(np.float64, (3, 2), elements=FLOATS))
def test_neighbouring_check_any_float(records):
    other = records.copy()
    other[1] = -other[1] + 1.0
    check_neighbouring(records, other)


@pytest.mark.parametrize("alg_id", sorted(PRIMITIVE_FACTORIES))
def test_factories_follow_protocol(alg_id):
    m = PRIMITIVE_FACTORIES[alg_id]()
    D = m.example_data(np.random.default_rng(0))
    out = np.asarray(m.sample(D, 7, np.random.default_rng(1)))
    assert out.shape[0] == 7
    assert hasattr(m, "log_prob") or hasattr(m, "log_density")
