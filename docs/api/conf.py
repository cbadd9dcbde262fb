"""Sphinx configuration of the API reference (built by ``python -m sphinx -W -b html docs/api docs/api/_build``).

The pages are generated from the numpydoc docstrings of ``reference/`` and of the public APIs of
``proofs_checks`` (the auditor, the conformance kit, the report, the evidence records); nothing is
fetched from the network.
"""

import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

project = "heavytail-dp-reference"
author = "the project's contributors"
copyright = "the project's contributors"  # noqa: A001 (Sphinx's name)

extensions = ["sphinx.ext.autodoc", "sphinx.ext.autosummary", "numpydoc"]

autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": False}
autodoc_typehints = "none"  # numpydoc's Parameters sections carry the types
# numpydoc lists a class's members itself; autodoc's members beside them would document each twice.
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False

templates_path = ["_templates"]
exclude_patterns = ["_build"]
html_theme = "alabaster"
html_title = "heavytail-dp-reference API"

# Cross-references and citations.  The docstrings' References sections list their sources as numbered
# entries ("[1] [002 Alg. 1], [002 Thm. 1]") that the text does not always cite with "[1]_"; docutils reports
# each uncited entry ("Citation ... is not referenced") and each entry of a docstring that autosummary
# renders twice (a package-level re-export) as a duplicate.  Neither is a defect of the documented code.
suppress_warnings = ["ref.citation"]

#: Plain-text mathematics that reStructuredText reads as markup, escaped at build time: {object: [(text, as
#: rendered)]}.  Each is a docstring-only fix to make in the module itself (``\|phi\|`` or double backquotes);
#: those modules were being edited elsewhere when the site was added, so the fix is applied here until then.
#: An entry whose text is no longer in its docstring fails the build, so that it is removed once fixed at the
#: source.
DOCSTRING_ESCAPES = {
    # "|phi|" is read as a substitution reference
    "reference.hu.catoni.PHI_BOUND": [("|phi|", r"\|phi\|")],
    "reference.wang_xu.nets.GridNet": [("|k_j|", r"\|k_j\|")],
    "reference.hu._dp_fw.DPFWStep.score_terms": [("(m, |V|)", r"(m, \|V\|)")],
    "reference.hu._dp_fw.dp_fw_output_log_prob": [("(|V|^T, T)", r"(\|V\|^T, T)")],
    "reference.hu._private_lasso.private_lasso_output_log_prob": [("(|V|^T, T)", r"(\|V\|^T, T)")],
    # "[1]_" cites a reference the docstring does not list under References
    "proofs_checks.audit.curves.exact_curve": [("[1]_", "[1]")],
    "proofs_checks.audit.structured_cases.SVTNoisyValue": [("[1]_", "[1]")],
}


def _is_header(lines, i):
    return i + 1 < len(lines) and lines[i].strip() and set(lines[i + 1].strip()) == {"-"}


def _steps_into_notes(lines):
    """The algorithms' "Steps" section (their paper's box, step by step) moved to the top of their Notes.

    numpydoc knows no "Steps" section: it would warn and leave the steps out of the page.
    """
    start = next((i for i in range(len(lines)) if lines[i].strip() == "Steps" and _is_header(lines, i)), None)
    if start is None:
        return
    end = next((i for i in range(start + 2, len(lines)) if _is_header(lines, i)), len(lines))
    steps = lines[start + 2 : end]
    del lines[start:end]
    notes = next((i for i in range(len(lines)) if lines[i].strip() == "Notes" and _is_header(lines, i)), None)
    if notes is None:
        lines += ["Notes", "-----"]
        notes = len(lines) - 2
    # one step a line, as in the paper's box: a reStructuredText line block ("| "), continuations indented
    block = [("| " + s.strip()) if s.lstrip().startswith("(") else ("  " + s.strip()) for s in steps if s.strip()]
    lines[notes + 2 : notes + 2] = ["**Steps**, as the paper's algorithm box prints them:", "", *block, ""]


def _fix_docstring(app, what, name, obj, options, lines):
    _steps_into_notes(lines)
    # a re-exported object is documented under each name that exports it: look it up by where it is defined
    defined = f"{getattr(obj, '__module__', '')}.{getattr(obj, '__qualname__', '')}"
    fixes = DOCSTRING_ESCAPES.get(defined) or DOCSTRING_ESCAPES.get(name)
    if not fixes:
        return
    text = "\n".join(lines)
    for plain, escaped in fixes:
        if plain not in text:
            raise ValueError(f"docs/api/conf.py: {name}'s docstring no longer holds {plain!r}; remove the entry")
        text = text.replace(plain, escaped)
    lines[:] = text.split("\n")


# numpydoc's signature pass reads the raw docstring and warns of the "Steps" section that _fix_docstring moves
# into the Notes before the page is rendered (nothing is lost): that Python warning says nothing about the site.
warnings.filterwarnings("ignore", message="Unknown section Steps", category=UserWarning)


def setup(app):
    # before numpydoc (priority 500), which turns the sections into reStructuredText
    app.connect("autodoc-process-docstring", _fix_docstring, priority=100)
