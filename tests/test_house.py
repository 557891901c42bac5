"""The house rules of the code in engine/ and bot/, checked on the source itself.

- no function (or method) longer than 60 lines;
- no import of another module's private ``_name``;
- every ``__all__`` true: it lists each name another module of engine/bot imports from it
  (a package ``__init__`` may re-export its submodules' public names);
- no module named like a standard-library module (``secrets``, ``types``...), which would shadow
  it for anyone who puts the package's folder on the path;
- the layers: the engine is pure Python (no discord, no bot, no local Discord, no network or
  database driver); localdiscord stands alone; the bot reaches localdiscord only through its
  local table (``bot/local.py``);
- no import circle among the modules of engine/, bot/ and localdiscord/, counting the imports
  inside functions and under ``TYPE_CHECKING``.

Every import statement counts, wherever it is: ``import a.b`` brings in ``a.b``; ``from pkg
import name`` brings in the submodule ``pkg.name`` when there is one, else ``pkg`` itself.
"""

from __future__ import annotations

import ast
import sys
from collections import deque
from collections.abc import Callable, Collection, Iterator, Mapping
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "bot")
LAYERED = ("engine", "bot", "localdiscord")
MAX_LINES = 60

#: Imports (importer, imported) the circle search leaves out, each with why; keep it empty.
CIRCLE_EXCEPTIONS: dict[tuple[str, str], str] = {}

Modules = dict[str, tuple[Path, ast.Module]]


@cache
def parsed(root: Path, packages: tuple[str, ...]) -> Modules:
    """Every module of ``packages`` under ``root`` by dotted name, with its path (relative to
    ``root``) and its parsed source."""
    found: Modules = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            relative = path.relative_to(root)
            parts = relative.with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = (relative, ast.parse(path.read_text(encoding="utf-8")))
    return found


def sources() -> Modules:
    """Every module of engine/ and bot/ by dotted name, with its parsed source."""
    return parsed(ROOT, PACKAGES)


def where(path: Path, line: int) -> str:
    return f"{path}:{line}"


def in_package(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def resolved(importer: str, path: Path, node: ast.ImportFrom) -> str:
    """The module a ``from X import ...`` in ``importer`` names, relative imports resolved."""
    if not node.level:
        return node.module or ""
    package = importer if path.name == "__init__.py" else importer.rpartition(".")[0]
    base = package.split(".")
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def imports_from() -> Iterator[tuple[str, Path, ast.ImportFrom, str]]:
    """(importing module, its path, the statement, the imported module) for each
    ``from X import ...`` in engine/bot, relative imports resolved."""
    for name, (path, tree) in sources().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                yield name, path, node, resolved(name, path, node)


def imported_modules(name: str, modules: Modules) -> Iterator[tuple[int, str]]:
    """(line, module) for each module an import statement of ``name`` brings in, wherever the
    statement is: ``from pkg import sub`` brings in ``pkg.sub`` when it is one of ``modules``,
    and ``pkg`` otherwise."""
    path, tree = modules[name]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = resolved(name, path, node)
            for alias in node.names:
                submodule = f"{module}.{alias.name}"
                yield node.lineno, submodule if submodule in modules else module


def import_graph(modules: Modules) -> dict[str, dict[str, int]]:
    """For each module, the other modules of ``modules`` it imports, each with the first line
    that does (``import a.b.c`` of a module not listed counts as the nearest listed parent)."""
    graph: dict[str, dict[str, int]] = {}
    for name in modules:
        edges: dict[str, int] = {}
        for line, target in imported_modules(name, modules):
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                edges[target] = min(line, edges.get(target, line))
        graph[name] = edges
    return graph


def shortest_way_back(graph: Mapping[str, Collection[str]], start: str) -> list[str] | None:
    """The shortest circle of imports from ``start`` back to it (first and last ``start``),
    or None when there is none."""
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for following in sorted(graph.get(node, ())):
            if following == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if following not in came_from:
                came_from[following] = node
                queue.append(following)
    return None


def circles(graph: Mapping[str, Collection[str]]) -> list[list[str]]:
    """The import circles: for each module on one (in name order) that no circle found so far
    passes through, the shortest circle through it. Every module on a circle is on one found;
    a big knot reads as a few paths, not as every path through it."""
    found: list[list[str]] = []
    covered: set[str] = set()
    for start in sorted(graph):
        if start in covered:
            continue
        way_back = shortest_way_back(graph, start)
        if way_back is not None:
            found.append(way_back)
            covered.update(way_back)
    return found


def layer_breaches(
    modules: Modules, layer: str, forbidden: Collection[str],
    exempt: Callable[[str], bool] = lambda name: False,
) -> list[str]:
    """Each import, in a module of package ``layer`` that is not ``exempt``, of a module whose
    top-level package is one of ``forbidden``."""
    return sorted(
        f"{where(modules[name][0], line)} imports {target}"
        for name in modules
        if in_package(name, layer) and not exempt(name)
        for line, target in imported_modules(name, modules)
        if target.partition(".")[0] in forbidden
    )


def declared_all(tree: ast.Module) -> set[str] | None:
    """The names a module's literal ``__all__`` lists, or None without one."""
    for node in tree.body:
        targets = (
            node.targets if isinstance(node, ast.Assign)
            else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            assert node.value is not None
            return {ast.literal_eval(elt) for elt in ast.walk(node.value)
                    if isinstance(elt, ast.Constant) and isinstance(elt.value, str)}
    return None


def test_no_function_is_longer_than_60_lines() -> None:
    long = [
        f"{where(path, node.lineno)} {node.name}: {node.end_lineno - node.lineno + 1} lines"
        for path, tree in sources().values()
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > MAX_LINES
    ]
    assert not long, "functions over 60 lines:\n" + "\n".join(long)


#: Names that look private and are not.
PUBLIC_UNDERSCORED: set[str] = set()


def test_no_module_imports_another_modules_private_name() -> None:
    private = [
        f"{where(path, node.lineno)} from {module} import {alias.name}"
        for importer, path, node, module in imports_from()
        if module != importer
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
        and alias.name not in PUBLIC_UNDERSCORED
    ]
    assert not private, "imports of another module's private name:\n" + "\n".join(private)


def test_every_all_lists_the_names_imported_from_its_module() -> None:
    modules = sources()
    missing = []
    for importer, path, node, module in imports_from():
        if module not in modules or module == importer:
            continue
        exported = declared_all(modules[module][1])
        if exported is None:
            continue
        for alias in node.names:
            if alias.name == "*" or alias.name in exported:
                continue
            if f"{module}.{alias.name}" in modules:
                continue  # a submodule, not a name the module defines
            if modules[module][0].name == "__init__.py" and importer.startswith(module + "."):
                continue  # a package's own submodule reaching into its __init__
            missing.append(f"{where(path, node.lineno)} imports {alias.name} "
                           f"from {module}, whose __all__ does not list it")
    assert not missing, "\n".join(missing)


def test_no_module_is_named_like_a_standard_library_module() -> None:
    shadows = [
        name for name in sources()
        if name.rpartition(".")[2] in sys.stdlib_module_names
    ]
    assert not shadows, f"modules named like the standard library's: {shadows}"


def test_only_the_store_knows_its_database_engines() -> None:
    """Outside ``bot/store`` (and the start-up commands of ``bot/__main__``), nothing imports
    a database engine's package or driver: the cogs see the interfaces and the values."""
    engines = ("bot.store.sqlite", "bot.store.postgres", "aiosqlite", "asyncpg", "sqlite3")
    found = []
    for name, (path, tree) in sources().items():
        if name.startswith("bot.store") or not name.startswith("bot"):
            continue
        for node in ast.walk(tree):
            modules = ([a.name for a in node.names] if isinstance(node, ast.Import)
                       else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{where(path, node.lineno)} imports {m}" for m in modules
                      if m.startswith(engines)]
    assert found == []


def test_the_engine_is_pure_python() -> None:
    """The rules know nothing of Discord, of the bot, of the local table or of the network
    and databases around them: they are the same game whoever drives them."""
    forbidden = ("discord", "bot", "localdiscord", "aiohttp", "asyncpg", "aiosqlite")
    breaches = layer_breaches(parsed(ROOT, LAYERED), "engine", forbidden)
    assert breaches == [], "\n".join(breaches)


def test_localdiscord_knows_neither_the_bot_nor_the_engine() -> None:
    """Our Discord serves any bot: it is Discord's side of the wire, not the game's."""
    breaches = layer_breaches(parsed(ROOT, LAYERED), "localdiscord", ("bot", "engine"))
    assert breaches == [], "\n".join(breaches)


def is_local_table(module: str) -> bool:
    return module == "bot.local" or in_package(module, "bot.local_table")


def test_the_local_table_is_the_bots_one_door_to_localdiscord() -> None:
    """Only ``bot/local.py`` (or a ``bot/local_table/`` package) starts our Discord for the
    bot; the rest of the bot talks to whichever Discord it is given."""
    breaches = layer_breaches(parsed(ROOT, LAYERED), "bot", ("localdiscord",), is_local_table)
    assert breaches == [], "\n".join(breaches)


def described(circle: list[str], graph: Mapping[str, Mapping[str, int]], modules: Modules) -> str:
    """``a -> b -> a``, then the line of each import along it."""
    lines = [" -> ".join(circle)]
    for importer, imported in pairwise(circle):
        lines.append(f"    {where(modules[importer][0], graph[importer][imported])} "
                     f"imports {imported}")
    return "\n".join(lines)


@pytest.mark.parametrize(
    "package",
    [
        "engine",
        "bot",
        "localdiscord",
    ],
)
def test_no_import_circle(package: str) -> None:
    modules = parsed(ROOT, LAYERED)
    graph = import_graph(modules)
    stale = [edge for edge in CIRCLE_EXCEPTIONS if edge[1] not in graph.get(edge[0], {})]
    assert stale == [], "exceptions for imports that are no longer made"
    searched = {name: set(edges) - {imported for importer, imported in CIRCLE_EXCEPTIONS
                                    if importer == name}
                for name, edges in graph.items()}
    found = [described(circle, graph, modules) for circle in circles(searched)
             if any(in_package(module, package) for module in circle)]
    assert found == [], f"import circles in {package}/:\n" + "\n".join(found)


def test_the_circle_search_finds_circles() -> None:
    graph = {"a": {"b"}, "b": {"a", "c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(graph) == [["a", "b", "a"], ["c", "a", "b", "c"]]
    assert circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_imports_count_wherever_they_are(tmp_path: Path) -> None:
    """In a function and under TYPE_CHECKING too; ``from pkg import x`` is an import of the
    submodule ``pkg.x`` if there is one, else of the package's ``__init__``."""
    sources = {
        "__init__.py": "from pkg.sub import helper\nthing = 1\n",
        "sub.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import thing\n"
                  "def helper() -> None:\n    import discord.ui\n",
        "other.py": "from pkg import sub\n",
        "leaf.py": "from . import other\nfrom .other import sub\n",
    }
    (tmp_path / "pkg").mkdir()
    for file, text in sources.items():
        (tmp_path / "pkg" / file).write_text(text, encoding="utf-8")
    modules = parsed(tmp_path, ("pkg",))
    graph = import_graph(modules)
    assert graph == {
        "pkg": {"pkg.sub": 1}, "pkg.leaf": {"pkg.other": 1}, "pkg.other": {"pkg.sub": 1},
        "pkg.sub": {"pkg": 3},
    }
    assert [described(c, graph, modules) for c in circles(graph)] == [
        "pkg -> pkg.sub -> pkg\n    pkg/__init__.py:1 imports pkg.sub\n"
        "    pkg/sub.py:3 imports pkg"
    ]
    assert layer_breaches(modules, "pkg", ("discord",)) == ["pkg/sub.py:5 imports discord.ui"]
    assert layer_breaches(modules, "pkg", ("discord",), lambda name: name == "pkg.sub") == []
