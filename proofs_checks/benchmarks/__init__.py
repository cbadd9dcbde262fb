"""Benchmarks that are run by hand (``python -m proofs_checks.benchmarks.<name>``), not in the tests.

Their numbers are recorded in the docs of the subject they measure.
"""

__all__: list[str] = []
