"""Whether llama.cpp imports here, as ``goldenlens doctor`` reports it: asked of the judge
package, the only one that imports ``llama_cpp``."""

from __future__ import annotations

import sys

import pytest

from goldenlens.jobs.doctor import doctor_checks
from goldenlens.judge.llama_runtime import llama_cpp_status


def test_an_installed_llama_cpp_is_importable_with_its_version() -> None:
    llama_cpp = pytest.importorskip("llama_cpp", reason="llama-cpp-python is the [judge] extra")
    status = llama_cpp_status()
    assert status.importable
    assert status.version == llama_cpp.__version__
    assert status.error == ""


def test_a_llama_cpp_that_does_not_import_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # what Python does for a module that is absent
    status = llama_cpp_status()
    assert not status.importable
    assert status.version == ""
    assert "llama_cpp" in status.error
    (check,) = [c for c in doctor_checks(["judge"]) if c.name == "llama.cpp"]
    assert not check.ok
    assert check.detail == f"llama_cpp does not import: {status.error}"
    assert "pip install llama-cpp-python" in check.fix
