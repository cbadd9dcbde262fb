"""Worked examples for porters (``docs/porting.md``)."""
