"""The desktop bundle's checked-in files agree with each other and with the package.

The build itself (packaging/build.sh: compiles llama.cpp, ~15 minutes) is not part of the test
suite; these checks read the files only: the .desktop entry names a gui script pyproject
declares and an icon that exists in every size, the PyInstaller spec collects llama_cpp, the
package data and the model packages the app really looks up, and build.sh builds llama.cpp for
any CPU.
"""

from __future__ import annotations

import ast
import configparser
import fnmatch
import re
import struct
import tomllib
from pathlib import Path

import pytest

from goldenlens.judge import gguf_convert, model_files

ROOT = Path(__file__).resolve().parents[1]
PACKAGING = ROOT / "packaging"
ICONS = ROOT / "resources" / "icons"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SPEC = (PACKAGING / "goldenlens.spec").read_text(encoding="utf-8")
BUILD = (PACKAGING / "build.sh").read_text(encoding="utf-8")


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (bytes 16..24), read without any image library."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(ROOT / "resources" / "goldenlens.desktop", encoding="utf-8")
    return parser["Desktop Entry"]


def spec_literal(name: str) -> object:
    """The value of a top-level ``NAME = <literal>`` assignment of the spec."""
    for node in ast.parse(SPEC).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError(f"the spec assigns no {name}")


def test_desktop_entry_runs_the_gui_script_and_names_an_existing_icon() -> None:
    entry = desktop_entry()
    assert entry["Type"] == "Application"
    program = entry["Exec"].split()[0]
    assert program in PYPROJECT["project"]["gui-scripts"]
    assert entry["Terminal"] == "false"
    icon = entry["Icon"]
    assert (ICONS / f"{icon}.svg").is_file()
    for size in (16, 32, 48, 64, 128, 256):
        assert png_size(ICONS / f"{icon}-{size}.png") == (size, size)


def test_the_app_and_the_bundle_use_the_desktop_entry_and_icon_names() -> None:
    pytest.importorskip("PySide6")  # reads the names from the app module (the gui extra)
    from goldenlens.ui.app import DESKTOP_NAME, ICON_SIZES

    assert (ROOT / "resources" / f"{DESKTOP_NAME}.desktop").is_file()
    assert desktop_entry()["Icon"] == DESKTOP_NAME
    assert sorted(ICON_SIZES) == sorted(int(p.stem.rsplit("-", 1)[1]) for p in ICONS.glob("*.png"))
    # The frozen executables are the two entry points pyproject declares.
    names = re.findall(r'executable\("([^"]+)"', SPEC)
    scripts = {**PYPROJECT["project"]["scripts"], **PYPROJECT["project"]["gui-scripts"]}
    assert sorted(names) == sorted(scripts)
    frozen = (PACKAGING / "frozen_main.py").read_text(encoding="utf-8")
    for target in scripts.values():
        module, _, function = target.partition(":")
        assert f"from {module} import {function}" in frozen


def test_package_data_ships_the_icons_and_the_desktop_entry() -> None:
    patterns = PYPROJECT["tool"]["setuptools"]["package-data"]["goldenlens.resources"]
    shipped = [
        p.relative_to(ROOT / "resources").as_posix()
        for p in (ROOT / "resources").rglob("*")
        if p.is_file()
        and any(fnmatch.fnmatch(p.relative_to(ROOT / "resources").as_posix(), pat) for pat in patterns)
    ]
    for name in (
        "goldenlens.desktop",
        "icons/goldenlens.svg",
        "icons/goldenlens-256.png",
        "sample/golden.csv",
    ):
        assert name in shipped


def test_spec_collects_llama_cpp_the_package_data_and_the_models_the_app_looks_up() -> None:
    assert "collect_all(package)" in SPEC
    assert re.search(r'for package in \("llama_cpp",\)', SPEC)
    assert 'collect_data_files("goldenlens")' in SPEC
    models = spec_literal("MODEL_PACKAGES")
    assert isinstance(models, dict)
    assert set(models) == {model_files.DEFAULT_JUDGE_PACKAGE, gguf_convert.SOURCE_PACKAGE}
    judge_patterns = models[model_files.DEFAULT_JUDGE_PACKAGE]
    assert any(fnmatch.fnmatch(model_files.DEFAULT_JUDGE_FILE, p) for p in judge_patterns)
    embed_patterns = models[gguf_convert.SOURCE_PACKAGE]
    assert any(
        fnmatch.fnmatch(f"model/{gguf_convert.WEIGHTS_FILE}", p.replace("**/", "")) for p in embed_patterns
    )


def test_build_script_compiles_llama_cpp_for_any_cpu_in_its_own_venv() -> None:
    assert 'CMAKE_ARGS="-DGGML_NATIVE=OFF"' in BUILD
    assert "FORCE_CMAKE=1" in BUILD
    assert "--no-binary llama-cpp-python --no-cache-dir" in BUILD
    assert 'venv="$build/venv"' in BUILD
    assert 'build="$here/build"' in BUILD
    assert "/work/main" not in BUILD
    assert ".venv" not in BUILD
    assert '"$root[gui,judge]"' in BUILD
    installed = re.search(r"--no-deps ([a-z0-9 -]+)\n", BUILD)
    assert installed is not None
    # pip names (dashes) of the packages whose import names the app and the spec use.
    assert sorted(installed.group(1).split()) == sorted(
        name.replace("_", "-") for name in (model_files.DEFAULT_JUDGE_PACKAGE, gguf_convert.SOURCE_PACKAGE)
    )
    assert "goldenlens.spec" in BUILD
    assert '"$here/smoke_test.sh"' in BUILD
