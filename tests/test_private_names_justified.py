"""Tests use public names; where a test's subject is a private one, a comment says why.

A private name is a module or attribute whose name starts with one underscore (``reference.hu._ephi_kernel``,
``trials_hu._noise_factor``).  A test reaches one only when the private thing is what it tests (a kernel's
internals, a pruning step checked against the plain computation it replaces); it then says so in a comment of
the form ``# private: _name, _other: why`` in the same file.  Where a public name exists the test uses it, and
where users need one it gets one (``clopper_pearson_epsilon_vector``, ``setup_for``, ...).

Not counted: ``self._x`` / ``cls._x`` (a test class's own state), a named tuple's ``_replace``, ``_fields``,
``_asdict``, ``_make``, and the test suite's own helper modules (``tests._two_routes``, relative imports).
"""

from __future__ import annotations

import ast
import io
import pathlib
import re
import tokenize

import pytest

TESTS = pathlib.Path(__file__).resolve().parent
#: The named tuple's public methods, which start with an underscore so as not to clash with field names.
NAMEDTUPLE_API = {"_replace", "_fields", "_asdict", "_make", "_field_defaults"}
_NAMES = re.compile(r"\b_[A-Za-z]\w*")


def _private(part):
    return part.startswith("_") and not part.startswith("__")


def private_uses(source):
    """``[(line, name)]``: the private names ``source`` reaches (attributes, imported names and modules)."""
    uses = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in NAMEDTUPLE_API:
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                uses.append((node.lineno, node.attr))
        elif isinstance(node, ast.ImportFrom) and not node.level and not (node.module or "").startswith("tests"):
            for part in (node.module or "").split("."):
                if _private(part):
                    uses.append((node.lineno, part))
            uses += [(node.lineno, alias.name) for alias in node.names if _private(alias.name)]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if not alias.name.startswith("tests"):
                    uses += [(node.lineno, part) for part in alias.name.split(".") if _private(part)]
    return sorted(set(uses))


def justified_names(source):
    """The names listed by the ``# private: names: why`` comments of ``source`` (continuation lines included)."""
    names, listing = set(), False
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT:
            if token.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
                listing = False
            continue
        text = token.string.lstrip("#").strip()
        if text.startswith("private:"):
            head = text[len("private:") :]
            listing = ":" not in head  # the list goes on to the next comment line
            names |= set(_NAMES.findall(head.split(":")[0]))
        elif listing:
            listing = ":" not in text
            names |= set(_NAMES.findall(text.split(":")[0]))
    return names


def unjustified(source):
    """``["line: name"]`` of the private names ``source`` uses without a ``# private:`` comment naming them."""
    named = justified_names(source)
    return [f"{line}: {name}" for line, name in private_uses(source) if name not in named]


def stale(source):
    """Names a ``# private:`` comment of ``source`` lists but the code does not use."""
    used = {name for _, name in private_uses(source)}
    return sorted(justified_names(source) - used)


FILES = sorted(TESTS.glob("*.py"))


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_private_name_a_test_uses_is_justified(path):
    source = path.read_text(encoding="utf-8")
    assert unjustified(source) == [], f"{path.name}: use the public name, or say why the private one is the subject"
    assert stale(source) == [], f"{path.name}: a '# private:' comment names what the file no longer uses"


# ------------------------------------------------------------------------------------------ power of the check

BARE = '''
from reference.hu import _ephi_kernel as K
from proofs_checks.rates.trials_hu import _noise_factor


def test_x(self_like):
    self._cache = 1
    tol = tol._replace(ulps=2)
    assert K._erfcx_half(0.0) == 1.0 and _noise_factor({}) == 1.0
'''


def test_an_unjustified_private_use_fails():
    assert unjustified(BARE) == ["2: _ephi_kernel", "3: _noise_factor", "9: _erfcx_half"]


def test_a_comment_naming_them_justifies_them_and_a_stale_name_is_found():
    source = BARE.replace(
        "from reference.hu import",
        "# private: _ephi_kernel, _erfcx_half: the kernel's\n#   internals are the subject\nfrom reference.hu import",
    )
    assert unjustified(source) == ["5: _noise_factor"]
    source = source.replace(
        "from proofs_checks", "# private: _noise_factor, _gone: the broken mode\nfrom proofs_checks"
    )
    assert unjustified(source) == [] and stale(source) == ["_gone"]
