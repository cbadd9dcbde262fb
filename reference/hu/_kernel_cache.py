"""numba's on-disk cache for kernels spread over several files: one source stamp for the whole group.

numba caches a compiled function (``cache=True``) under a stamp of the one file that defines it (a
sha256 of its source since numba 0.6x, its modification time and size before), although the machine code
it stores also holds every compiled function the kernel calls or inlines and every module-level constant
it reads (numba freezes globals at compile time), wherever they are defined.  numba tracks no dependency
between files: a kernel that calls a helper of another file keeps the helper's old code after an edit of
that file, until its own file changes or the cache is cleared.

A :class:`KernelGroup` closes that gap for a fixed set of files: every function compiled through
:meth:`KernelGroup.jit` is cached under the sha256 of the whole set, so an edit of any file of the group
recompiles every kernel of the group at its next call, in every process started after the edit.  The
rule a contributor keeps: a kernel of the group reads compiled functions and constants from files of
the group only (``tests/test_kernel_cache.py`` checks it for the kernel of
:mod:`reference.hu._ephi_kernel`, and that an edit of a helper file reaches the kernel that calls it).

How: numba's cache object (the dispatcher's ``_cache``, an index file object ``_cache_file`` inside)
compares the stamp it holds with the one stored in its index file; the group puts its digest there in
place of the file's.  These attributes are numba internals (unchanged from numba 0.5x to 0.68); where
they are missing the group compiles without the on-disk cache (the same code, a slower start) and warns.

References
----------
.. [1] numba documentation, "Notes on caching" (developer guide): the index (``.nbi``) and data (``.nbc``)
       files, one index per function, invalidated by its source file's stamp.
"""

from __future__ import annotations

import hashlib
import warnings
from pathlib import Path

try:  # pragma: no cover - exercised by whichever environment runs the tests
    import numba
except ImportError:  # pragma: no cover
    numba = None  # type: ignore[assignment]  # the optional-import idiom: None when numba is not installed

__all__ = ["KernelGroup", "source_digest"]


def source_digest(paths):
    """sha256 (hex) of the names and contents of ``paths``, in the order given.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     p = pathlib.Path(tmp, "a.py")
    ...     _ = p.write_text("X = 1\\n")
    ...     before = source_digest([p])
    ...     _ = p.write_text("X = 2\\n")
    ...     before != source_digest([p])
    True
    """
    h = hashlib.sha256()
    for path in paths:
        path = Path(path)
        data = path.read_bytes()
        # the name and the length delimit each file, so moving text from one file to the next changes the digest
        h.update(f"{path.name}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


class KernelGroup:
    """Files whose compiled functions share one numba cache stamp (see the module docstring).

    Parameters
    ----------
    directory : path-like
        The directory of the files.
    files : sequence of str
        File names relative to ``directory``: every file whose compiled functions or module-level
        constants a kernel of the group reads.

    Raises
    ------
    ValueError
        If ``files`` is empty or names a file that does not exist.
    """

    def __init__(self, directory, files):
        self.directory = Path(directory)
        self.files = tuple(files)
        if not self.files:
            raise ValueError("files must name at least one file of the group, got none")
        missing = [f for f in self.files if not (self.directory / f).is_file()]
        if missing:
            raise ValueError(f"files of the kernel group not found in {self.directory}: {missing}")
        #: The stamp every compiled function of the group is cached under (numba's index stores it).
        self.stamp = ("kernel-group", source_digest(self.directory / f for f in self.files))
        self._warned = False

    def jit(self, **options):
        """A decorator: ``numba.njit(cache=True, **options)`` cached under the group's stamp.

        Without numba (or with ``NUMBA_DISABLE_JIT``) the decorator returns the function unchanged.
        """

        def decorate(fn):
            if numba is None or numba.config.DISABLE_JIT:
                return fn
            if Path(fn.__code__.co_filename).resolve() not in {(self.directory / f).resolve() for f in self.files}:
                raise ValueError(
                    f"{fn.__qualname__} is defined in {fn.__code__.co_filename}, "
                    f"not in a file of the kernel group {self.files}"
                )
            dispatcher = numba.njit(cache=True, **options)(fn)
            if self._restamp(dispatcher):
                return dispatcher
            return numba.njit(**options)(fn)  # no on-disk cache: never a stale kernel

        return decorate

    def _restamp(self, dispatcher):
        """Put the group's stamp into the dispatcher's cache; False (with a warning) where numba's internals
        are not the expected ones."""
        cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
        if cache_file is None or not hasattr(cache_file, "_source_stamp"):
            if not self._warned:
                self._warned = True
                warnings.warn(
                    f"numba {numba.__version__} keeps its cache stamp elsewhere: the kernels of "
                    f"{self.files} compile without the on-disk cache",
                    RuntimeWarning,
                    stacklevel=3,
                )
            return False
        cache_file._source_stamp = self.stamp
        return True
