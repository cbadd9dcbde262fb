"""The modules split into smaller ones keep every name importable from where it was.

Each module below was cut by subject into the modules listed with it, in the style of
``scipy/stats/_binomtest.py``: the old module re-exports every public name of its parts, so other code,
tests, notebooks and docs keep importing from it.  A public name added to a part (listed in its
``__all__``) but not re-exported, or re-exported but left out of the old module's ``__all__``, fails here;
so does a part without a numpydoc module docstring with a References section.
"""

import importlib

import pytest

#: old module -> the modules that now hold its code (add a new part here, and re-export its names there)
SPLITS = {
    "reference.hu._ephi_kernel": (
        "reference.hu._ephi_numba",
        "reference.hu._ephi_special",
        "reference.hu._ephi_regions",
        "reference.hu._ephi_loops",
        "reference.hu._ephi_curve",
        "reference.hu._ephi_curve_fit",
        "reference.hu._ephi_colsum",
    ),
    "reference.hu.frank_wolfe": (
        "reference.hu._fw_polytope",
        "reference.hu._fw_engine",
        "reference.hu._dp_fw",
        "reference.hu._private_lasso",
    ),
    "reference.wang_xu.l1_regression": (
        "reference.wang_xu._l1_scores",
        "reference.wang_xu._l1_sampling",
        "reference.wang_xu._l1_parameters",
    ),
    "reference.wang_xu._score_kernel": ("reference.wang_xu._psi_kernel",),
    "reference.arora.model_selection": (
        "reference.arora._grid_search",
        "reference.arora._boosting",
        "reference.arora._subgaussian",
    ),
    "proofs_checks.formulas.catoni": (
        "proofs_checks.formulas.catoni_reference",
        "proofs_checks.formulas.catoni_points",
        "proofs_checks.formulas.catoni_accuracy",
    ),
}


@pytest.mark.parametrize("old", sorted(SPLITS))
def test_the_old_module_re_exports_every_public_name_of_its_parts(old):
    facade = importlib.import_module(old)
    missing, unlisted, other = [], [], []
    for part_name in SPLITS[old]:
        part = importlib.import_module(part_name)
        for name in part.__all__:
            if not hasattr(facade, name):
                missing.append(f"{part_name}.{name}")
            elif getattr(facade, name) is not getattr(part, name):
                other.append(f"{part_name}.{name}")
            elif name not in facade.__all__:
                unlisted.append(f"{part_name}.{name}")
    assert not missing, f"not importable from {old}: {missing}"
    assert not other, f"{old} holds another object of that name: {other}"
    assert not unlisted, f"importable from {old} but not in its __all__: {unlisted}"
    assert all(hasattr(facade, name) for name in facade.__all__), old


@pytest.mark.parametrize("part_name", sorted(p for parts in SPLITS.values() for p in parts))
def test_every_part_has_all_and_a_numpydoc_docstring_with_references(part_name):
    part = importlib.import_module(part_name)
    assert isinstance(part.__all__, list), part_name
    doc = part.__doc__ or ""
    assert "References\n----------\n.. [1]" in doc, f"{part_name}: no numpydoc References section"
