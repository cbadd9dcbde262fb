"""numba's on-disk cache of a kernel spread over several files (reference/hu/_kernel_cache.py).

numba stamps a cached function with its own file only; the kernel of ``E[phi(a + bZ)]`` calls compiled
functions and reads constants across the files of ``reference.hu._ephi_numba.KERNEL_FILES``, cached under
one stamp of all of them.  These tests show that the stamp reaches every compiled function of
``reference.hu`` (a kernel file left out of the group, or a function compiled with plain ``numba.njit``,
fails), that the kernel files read nothing outside the group, and, on a small group of three files in a
temporary directory, that an edit of a helper file reaches the kernel that calls it, where plain numba
keeps the stale compiled helper.
"""

import ast
import importlib
import os
import pkgutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import reference.hu

# private: _ephi_numba, _kernel_cache, _cache, _cache_file, _source_stamp: the kernel group's numba cache is the subject
#   (numba has no public view of a dispatcher's cache)
from reference.hu import _ephi_numba
from reference.hu._kernel_cache import KernelGroup, source_digest

ROOT = Path(__file__).resolve().parents[1]
HU = Path(reference.hu.__file__).parent
needs_numba = pytest.mark.skipif(not _ephi_numba.HAVE_NUMBA, reason="numba absent or NUMBA_DISABLE_JIT set")


def _compiled_functions_of_hu():
    """``{(file name, qualname): dispatcher}`` of every numba dispatcher defined in a module of reference.hu."""
    from numba.core.dispatcher import Dispatcher

    found = {}
    for info in pkgutil.iter_modules(reference.hu.__path__):
        module = importlib.import_module(f"reference.hu.{info.name}")
        for value in vars(module).values():
            if isinstance(value, Dispatcher) and value.py_func.__module__ == module.__name__:
                found[(Path(value.py_func.__code__.co_filename).name, value.py_func.__qualname__)] = value
    return found


@needs_numba
def test_every_compiled_function_of_hu_is_cached_under_the_group_stamp():
    found = _compiled_functions_of_hu()
    assert len(found) >= 30, sorted(found)  # the kernel's functions were found at all
    outside = sorted(key for key in found if key[0] not in _ephi_numba.KERNEL_FILES)
    assert not outside, f"compiled functions in files outside KERNEL_FILES: {outside}"
    stamp = _ephi_numba.KERNEL_GROUP.stamp
    stale = sorted(key for key, d in found.items() if d._cache._cache_file._source_stamp != stamp)
    assert not stale, f"compiled functions cached under their own file's stamp (plain numba.njit?): {stale}"


def _relative_imports(path):
    """Module names of reference.hu imported by the file at ``path`` (relative or absolute)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                names.add(node.module.split(".")[0])
            elif node.level == 1:
                names.update(alias.name for alias in node.names)
            elif node.module and node.module.startswith("reference.hu."):
                names.add(node.module.split(".")[2])
    return names


def test_kernel_files_read_only_files_of_the_group():
    # a constant or a compiled function imported from a file outside the group would be frozen into the
    # kernel's cached code and not recompiled after an edit of that file; _kernel_cache holds neither
    group = {Path(f).stem for f in _ephi_numba.KERNEL_FILES}
    offenders = {f: sorted(_relative_imports(HU / f) - group - {"_kernel_cache"}) for f in _ephi_numba.KERNEL_FILES}
    offenders = {f: names for f, names in offenders.items() if names}
    assert not offenders, offenders


def test_the_group_stamp_is_the_digest_of_every_file_of_the_group():
    assert _ephi_numba.KERNEL_GROUP.stamp == ("kernel-group", source_digest(HU / f for f in _ephi_numba.KERNEL_FILES))


def test_kernel_group_rejects_a_missing_file_and_a_function_outside_it(tmp_path):
    with pytest.raises(ValueError, match="not found"):
        KernelGroup(tmp_path, ("absent.py",))
    with pytest.raises(ValueError, match="at least one"):
        KernelGroup(tmp_path, ())
    (tmp_path / "member.py").write_text("")
    group = KernelGroup(tmp_path, ("member.py",))
    if _ephi_numba.HAVE_NUMBA:
        with pytest.raises(ValueError, match="not in a file of the kernel group"):
            group.jit()(lambda: 0.0)


_JIT = """
from pathlib import Path

from reference.hu._kernel_cache import KernelGroup

GROUP = KernelGroup(Path(__file__).parent, ("_jit.py", "helper.py", "kernel.py"))
jit = GROUP.jit(nogil=True)
"""
_HELPER = """
from ._jit import jit

SCALE = {scale}


@jit
def value():
    return SCALE
"""
_KERNEL = """
from ._jit import jit
from .helper import value


@jit
def twice():
    return 2.0 * value()
"""
_PLAIN = """
import numba

from .helper import value


@numba.njit(cache=True)
def twice():
    return 2.0 * value()
"""
_RUN = (
    "from grp import kernel, plain\nprint(kernel.twice(), plain.twice(), sum(kernel.twice.stats.cache_hits.values()))\n"
)


def _run(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(tmp_path)]))
    out = subprocess.run(
        [sys.executable, "-c", _RUN], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stderr[-3000:]
    kernel, plain, hits = out.stdout.split()
    return float(kernel), float(plain), int(hits)


@needs_numba
def test_an_edit_of_a_helper_file_recompiles_the_kernel_that_calls_it(tmp_path):
    pkg = tmp_path / "grp"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "_jit.py").write_text(textwrap.dedent(_JIT))
    (pkg / "helper.py").write_text(textwrap.dedent(_HELPER.format(scale=1.0)))
    (pkg / "kernel.py").write_text(textwrap.dedent(_KERNEL))
    (pkg / "plain.py").write_text(textwrap.dedent(_PLAIN))
    assert _run(tmp_path) == (2.0, 2.0, 0)  # compiled and saved
    assert _run(tmp_path) == (2.0, 2.0, 1)  # loaded from the on-disk cache: the group does cache
    (pkg / "helper.py").write_text(textwrap.dedent(_HELPER.format(scale=3.0)))
    kernel, plain, hits = _run(tmp_path)
    assert (kernel, hits) == (6.0, 0), "the group's kernel did not see the edit of its helper file"
    # the hazard the group closes: plain numba kept the helper's old compiled code (its own file is unchanged)
    assert plain == 2.0, "numba now notices edits of other files: the group stamp may no longer be needed"
