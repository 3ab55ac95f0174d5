"""The import graph of the package's modules, read with ``ast``
(module-level, function-level and relative imports alike; the imports and
cimports of the Cython modules from their source): no circles, and the
library never imports the command line (fastxfen.cli), not even inside a
function: the command line and fastxfen.dask both call the file engine
(fastxfen.files)."""

import ast
import re
from pathlib import Path

#: The package's source (an installed copy has no .pyx files to read).
PACKAGE = Path(__file__).resolve().parents[1] / "src" / "fastxfen"

#: An import or cimport line of a Cython module.
PYX_IMPORT = re.compile(
    r"^\s*(?:from\s+(fastxfen[\w.]*)\s+c?import|c?import\s+(fastxfen[\w.]*))", re.M
)


def module_names():
    """{module name: path} of every .py and .pyx file of the package."""
    names = {}
    for path in [*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.pyx")]:
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def imports(name, path, modules):
    """The fastxfen modules that ``name`` (at ``path``) imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    if path.suffix == ".pyx":
        for match in PYX_IMPORT.finditer(path.read_text()):
            target = match.group(1) or match.group(2)
            if target in modules and target != name:
                found.add(target)
        return found
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            # "from a import b" imports the module a.b if there is one, else a
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            while target and target not in modules:  # a name inside a module
                target = target.rpartition(".")[0]
            if target.startswith("fastxfen") and target != name:
                found.add(target)
    return found


def graph():
    modules = module_names()
    return {name: imports(name, path, modules) for name, path in modules.items()}


def is_cli(name):
    """Whether a module is the command line (``python -m fastxfen`` too)."""
    return name in ("fastxfen.cli", "fastxfen.__main__") or name.startswith("fastxfen.cli.")


def find_cycle(edges):
    """One circle of the graph as a list of modules, or None."""
    state = {}  # 1: on the current path, 2: done
    path = []

    def visit(node):
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def test_the_graph_is_read():
    edges = graph()
    # the walk sees module-level, function-level and relative imports
    assert "fastxfen._api" in edges["fastxfen"]
    assert "fastxfen._bulk" in edges["fastxfen._api"]
    assert edges["fastxfen._bulk"] >= {"fastxfen._codec", "fastxfen._records"}
    assert "fastxfen.files" in edges["fastxfen.dask"]
    assert "fastxfen.files.engine" in edges["fastxfen.files"]
    assert "fastxfen.cli.values" in edges["fastxfen.cli.commands.normalize"]
    assert is_cli("fastxfen.cli.exits") and not is_cli("fastxfen.client")


def test_imports_inside_functions_are_seen(tmp_path):
    pkg = tmp_path / "fastxfen"
    pkg.mkdir()
    (pkg / "a.py").write_text("def f():\n    from fastxfen.cli import b\n    import fastxfen.c\n")
    modules = {"fastxfen", "fastxfen.a", "fastxfen.cli", "fastxfen.cli.b", "fastxfen.c"}
    assert imports("fastxfen.a", pkg / "a.py", modules) == {"fastxfen.cli.b", "fastxfen.c"}


def test_no_import_circles():
    assert find_cycle(graph()) is None


def test_find_cycle_finds_one():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(edges) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_relative_imports_are_resolved(tmp_path):
    pkg = tmp_path / "fastxfen" / "sub"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("from . import b\nfrom ..x import y\n")
    modules = {"fastxfen", "fastxfen.x", "fastxfen.sub", "fastxfen.sub.b"}
    assert imports("fastxfen.sub", pkg / "__init__.py", modules) == {
        "fastxfen.sub.b",
        "fastxfen.x",
    }


def test_the_library_never_imports_the_command_line():
    wrong = sorted(
        (name, target)
        for name, targets in graph().items()
        if not is_cli(name)
        for target in targets
        if is_cli(target)
    )
    assert wrong == []
