"""Writing a file whole or not at all: the one way GoldenLens replaces a file it writes.

The new content goes to a temporary file beside the target (the same folder, so the rename is
atomic), is flushed to the disk (``fsync``), and only then renamed over the target; the folder
is flushed too, so the rename itself survives a power cut. A full disk, a crash or a kill at any
moment leaves either the old file or the new one, never half of one; a failure removes the
temporary file (only a process killed outright can leave it, hidden by its ``.~`` name).

Reports and exports (:func:`goldenlens.io.atomic_files.write_atomically`, which adds their
plain-sentence errors), the preferences (:mod:`goldenlens.settings`) and the converted models
(:mod:`goldenlens.judge.gguf_convert`) all write through :func:`write_whole`. It lives at the
package's root, below those siblings (which may not import each other) and above
:mod:`goldenlens.core` (which does no file I/O); it imports nothing of GoldenLens.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


def write_whole(path: Path, write: Callable[[Path], T]) -> T:
    """Call ``write(temporary)``, flush the temporary file to the disk and rename it over
    ``path``; return what ``write`` returned. Whatever ``write`` or the rename raises is
    raised as it is, after the temporary file is removed; ``path`` is then as it was. A
    symbolic link at ``path`` is replaced by the file (resolve it first to write through it)."""
    path = Path(path)
    temporary = path.with_name(f".~{path.stem}.{os.urandom(4).hex()}{path.suffix}")
    try:
        result = write(temporary)
        _flush_to_disk(temporary)
        temporary.replace(path)
    finally:
        temporary.unlink(missing_ok=True)
    _flush_folder(path.parent)
    return result


def write_text_whole(path: Path, text: str, *, encoding: str = "utf-8") -> None:
    """:func:`write_whole` of ``text``."""
    write_whole(path, lambda temporary: temporary.write_text(text, encoding=encoding))


def _flush_to_disk(path: Path) -> None:
    # Opened for writing: Windows flushes only a handle that may write.
    handle = os.open(path, os.O_RDWR | getattr(os, "O_BINARY", 0))
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def _flush_folder(folder: Path) -> None:
    """Make the rename durable where the system allows a folder to be flushed (not Windows,
    nor some network file systems: the file is in place either way)."""
    if os.name == "nt":
        return
    with contextlib.suppress(OSError):
        handle = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)
