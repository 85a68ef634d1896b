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
    """Qt only in goldenlens.ui; core imports no other layer; cli | ui -> jobs | queries ->
    judge | store | io -> core; cli and ui independent; ui never imports the store or sqlite3."""
    result = _run(_tool("lint-imports"), "--config", str(ROOT / "pyproject.toml"))
    assert result.returncode == 0, result.stdout + result.stderr


def test_ui_never_reaches_the_store_through_an_attribute() -> None:
    """The import contract keeps the store's modules out of goldenlens.ui; this closes the
    back door: ``ProjectQueries.store`` (for jobs and tests) is never touched by the UI."""
    offenders = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in sorted((ROOT / "desktop" / "goldenlens" / "ui").rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr == "store"
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
