"""The conformance kit for ports: ``python -m proofs_checks conform --port MODULE``.

* :mod:`.tolerances`: the stated tolerance of each function and why;
* :mod:`.compare`: ulp distances and the comparison of one case;
* :mod:`.deterministic`: the port's functions against the golden vectors;
* :mod:`.samplers`: the port's samplers against the exact laws (distributional tests of stated power);
* :mod:`.privacy`: the port's mechanisms through the auditor (:func:`proofs_checks.audit.api.audit`);
* :mod:`.kit`: loading a port, running everything, the report and the exit status.
"""
