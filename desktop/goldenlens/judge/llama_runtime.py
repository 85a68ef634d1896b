"""Whether llama.cpp can run here: ``llama_cpp`` (llama-cpp-python) imports, and its version.

The judge is the only package that imports ``llama_cpp`` (the engines, when a model loads);
``goldenlens doctor`` asks here instead of importing it itself.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LlamaCppStatus:
    """``importable`` with the ``version`` llama-cpp-python reports (``?`` when it reports
    none), or not, with the ``error`` the import raised."""

    importable: bool
    version: str = ""
    error: str = ""


def llama_cpp_status() -> LlamaCppStatus:
    """Import ``llama_cpp`` now (it loads libllama: tenths of a second) and say how it went."""
    try:
        import llama_cpp
    except Exception as error:  # an ImportError, or OSError when libllama itself fails to load
        return LlamaCppStatus(False, error=str(error))
    return LlamaCppStatus(True, version=str(getattr(llama_cpp, "__version__", "?")))
