"""The project's import graph, read from the source with :mod:`ast` (nothing is imported).

Nodes are the modules of ``reference`` and ``proofs_checks`` (a package is its
``__init__``).  There is an edge ``a -> b`` when ``a`` imports ``b`` anywhere in its
source, inside functions too: ``import x.y``, ``from x import y`` (``x.y`` when it is a
module, else ``x``) and relative imports.  Importing a submodule does not add edges to
its parent packages: Python runs a parent's ``__init__`` first, so it cannot be part of
a cycle through the child unless the ``__init__`` itself imports back.
"""

from __future__ import annotations

import ast
import functools
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGES = ("reference", "proofs_checks")


def project_modules(root=ROOT, packages=PACKAGES):
    """``{module name: (path, is_package)}`` for every ``.py`` file of ``packages``."""
    mods = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                mods[".".join(parts[:-1])] = (path, True)
            else:
                mods[".".join(parts)] = (path, False)
    return mods


def _existing_prefix(name, mods):
    """The longest prefix of the dotted ``name`` that is a project module, or None."""
    parts = name.split(".")
    for k in range(len(parts), 0, -1):
        candidate = ".".join(parts[:k])
        if candidate in mods:
            return candidate
    return None


def imports_of(name, mods):
    """Project modules that module ``name`` imports, each with the line of the first import."""
    path, is_package = mods[name]
    package = name if is_package else name.rpartition(".")[0]
    found = {}
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        targets = []
        if isinstance(node, ast.Import):
            targets = [_existing_prefix(alias.name, mods) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                if node.level - 1 >= len(base_parts):
                    raise ImportError(f"{path}:{node.lineno}: relative import beyond the top-level package")
                base = ".".join(base_parts[: len(base_parts) - (node.level - 1)])
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                targets.append(sub if sub in mods else _existing_prefix(base, mods))
        for target in targets:
            # a package's ``from . import name`` of one of its own attributes is no edge
            if target is not None and target != name:
                found.setdefault(target, node.lineno)
    return found


def import_graph(root=ROOT, packages=PACKAGES):
    """``{module: {imported module: line}}`` over the project's modules."""
    mods = project_modules(root, packages)
    return {name: imports_of(name, mods) for name in mods}


@functools.lru_cache(maxsize=1)
def project_graph():
    """:func:`import_graph` of this repository, built once per process on first use (about 0.6 s:
    test modules used to build it at import, so every test process paid it twice while collecting)."""
    return import_graph()


def strongly_connected_components(graph):
    """Tarjan's algorithm (iterative); components in reverse topological order."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    counter = 0
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    out.append(sorted(component))
    return out


def _shortest_cycle(start, graph, members):
    """The shortest path ``[start, ..., start]`` inside ``members`` (breadth-first)."""
    previous, frontier = {start: None}, [start]
    while frontier:
        following = []
        for node in frontier:
            for child in graph[node]:
                if child == start:
                    path = [node]
                    while previous[path[-1]] is not None:
                        path.append(previous[path[-1]])
                    return path[::-1] + [start]
                if child in members and child not in previous:
                    previous[child] = node
                    following.append(child)
        frontier = following
    return None


def find_cycles(graph):
    """One shortest cycle ``[a, b, ..., a]`` per group of modules that import each other."""
    return [
        _shortest_cycle(component[0], graph, set(component))
        for component in strongly_connected_components(graph)
        if len(component) > 1
    ]


def reachable(graph, start):
    """Every module ``start`` imports, directly or through others."""
    seen, todo = set(), [start]
    while todo:
        for child in graph.get(todo.pop(), ()):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen
