"""Rate checks: sweeps of observed excess risk and log-log fits against stated exponents."""

from .fit import RateFit, fit_rate
from .sweep import SweepResult, run_sweep

__all__ = ["RateFit", "fit_rate", "SweepResult", "run_sweep"]
