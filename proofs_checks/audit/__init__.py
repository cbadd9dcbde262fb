"""DP auditing: exact audits of finite-output mechanisms and statistical audits."""
