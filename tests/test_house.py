"""The house rules of the code in engine/ and bot/, checked on the source itself.

- no function (or method) longer than 60 lines;
- no import of another module's private ``_name``;
- every ``__all__`` true: it lists each name another module of engine/bot imports from it
  (a package ``__init__`` may re-export its submodules' public names);
- no module named like a standard-library module (``secrets``, ``types``...), which would shadow
  it for anyone who puts the package's folder on the path.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "bot")
MAX_LINES = 60


@cache
def sources() -> dict[str, tuple[Path, ast.Module]]:
    """Every module of engine/ and bot/ by dotted name, with its parsed source."""
    found: dict[str, tuple[Path, ast.Module]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = (path, ast.parse(path.read_text(encoding="utf-8")))
    return found


def where(path: Path, line: int) -> str:
    return f"{path.relative_to(ROOT)}:{line}"


def imports_from() -> Iterator[tuple[str, Path, ast.ImportFrom, str]]:
    """(importing module, its path, the statement, the imported module) for each
    ``from X import ...`` in engine/bot, relative imports resolved."""
    for name, (path, tree) in sources().items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            yield name, path, node, module


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


def test_no_module_imports_another_modules_private_name() -> None:
    private = [
        f"{where(path, node.lineno)} from {module} import {alias.name}"
        for importer, path, node, module in imports_from()
        if module != importer
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
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
