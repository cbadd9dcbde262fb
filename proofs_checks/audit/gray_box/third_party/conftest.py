"""pytest: the third-party adapters' doctests run their libraries, so they are collected only when the library is installed."""

import importlib.util

#: Adapter modules whose doctests need an optional library (the ``thirdparty`` extra), skipped without it.
collect_ignore = [] if importlib.util.find_spec("diffprivlib") else ["diffprivlib.py"]
