"""House rules checked by the test suite: layering (import-linter), ruff and mypy --strict."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    path = BIN / name
    if path.exists():
        return str(path)
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: install the project with its [dev] extra")
    return found


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False, timeout=600)


def test_import_layers_hold() -> None:
    """Qt only in goldenlens.ui; core imports no other layer; cli | ui | evaluation -> jobs |
    queries -> judge | store | io -> core; the three front ends independent, and reaching the
    store and SQLite only through the jobs and the queries (indirect imports included); only
    the jobs and the queries import the store, only the store imports SQLite."""
    result = _run(_tool("lint-imports"), "--config", str(ROOT / "pyproject.toml"))
    assert result.returncode == 0, result.stdout + result.stderr


#: The front ends: the command line and the desktop app (packages), the Python API (a module).
FRONT_END_PACKAGES = ("cli", "ui")
FRONT_END_MODULES = ("evaluation.py",)


def test_the_front_ends_never_reach_the_store_through_an_attribute() -> None:
    """The import contracts keep the store's modules out of the front ends; this closes the
    other door: no front end reaches for a ``store`` or ``_store`` attribute (the project
    handle hides the store; ``ProjectQueries`` keeps its own private)."""
    package = ROOT / "desktop" / "goldenlens"
    files = [path for name in FRONT_END_PACKAGES for path in sorted((package / name).rglob("*.py"))]
    files += [package / name for name in FRONT_END_MODULES]
    assert len(files) > 50, "the front ends' modules were not found"
    offenders = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in files
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr in {"store", "_store"}
    ]
    assert offenders == []


def test_ruff_is_clean() -> None:
    result = _run(_tool("ruff"), "check", "desktop", "tests")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_is_clean() -> None:
    # The package includes goldenlens.ui, whose types come from PySide6 (the [gui] extra).
    pytest.importorskip("PySide6", reason="type-checking goldenlens.ui needs the [gui] extra")
    result = _run(_tool("mypy"))
    assert result.returncode == 0, result.stdout + result.stderr


def test_llama_cpp_is_imported_lazily() -> None:
    offenders = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "desktop" / "goldenlens").rglob("*.py")
        if re.search(r"^(from|import)\s+llama_cpp", path.read_text(encoding="utf-8"), re.MULTILINE)
    ]
    assert offenders == []


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    blocks = re.findall(r"```(?:bash|sh)\n(.*?)```", readme, re.DOTALL)
    assert len(blocks) >= 2, "README must start with the setup command and the test command"
    test_command = blocks[1].strip().splitlines()[-1].strip()
    assert test_command in [line.strip() for line in ci.splitlines()], test_command
