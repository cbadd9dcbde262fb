"""Adapters that record a third-party library's privacy primitives for the gray-box audit, its code unchanged.

Each adapter is a context manager that wraps the library's sampling functions at run time with
:func:`~reference.mechanisms.recorder.wrapped_primitive` (and registers the laws they sample that the project does
not already have), and restores both on exit.  The library is imported only when its adapter is entered, so an
adapter module imports without it.

===============  ============================================================================================
module           library
===============  ============================================================================================
``diffprivlib``  IBM's diffprivlib 0.6 (PyPI; the ``thirdparty`` extra): Laplace, LaplaceTruncated,
                 LaplaceFolded, LaplaceBoundedDomain, Gaussian, GaussianAnalytic, Geometric,
                 GeometricTruncated, GeometricFolded
===============  ============================================================================================

References
----------
.. [1] T. Cebere, D. Erb, D. Desfontaines, A. Bellet and J. Fitzsimons, "Re:cord-play: auditing differential
   privacy implementations", PETS 2026 (third-party libraries audited by declaring their functions primitives).
"""
