import os

from hypothesis import HealthCheck, settings

# Deterministic hypothesis runs: a fixed derandomised profile so no test is flaky.
settings.register_profile("ci", derandomize=True, deadline=None, max_examples=200,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
