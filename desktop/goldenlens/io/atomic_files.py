"""Writing an output file whole or not at all, and saying in one sentence why not.

Every report and export (workbook, JSON, CSV) is written to a temporary file beside its
target and renamed over it only once complete and flushed to the disk
(:func:`goldenlens.atomic_write.write_whole`): a full disk, a quota, a file open in Excel or
a crash leave an existing report exactly as it was and no partial file behind. A target that
is a symbolic link is written through it (the link stays and its target gets the new file);
a link loop is refused.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from goldenlens.atomic_write import write_whole
from goldenlens.core.errors import GoldenLensError
from goldenlens.io.sheets.link_paths import link_chain


class ExportError(GoldenLensError):
    """An export was refused; the target file was not created or changed.

    ``sheet``, ``row`` (as Excel numbers it), ``column`` and ``item_id`` locate the offending
    cell when there is one, so the UI can point at it.
    """

    def __init__(
        self,
        message: str,
        *,
        sheet: str | None = None,
        row: int | None = None,
        column: str | None = None,
        item_id: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.sheet = sheet
        self.row = row
        self.column = column
        self.item_id = item_id


def output_target(path: Path) -> Path:
    """The file to write for ``path``: ``path`` itself, or the file a symbolic link points to.

    Raises :class:`ExportError` for a link loop, a folder, or a folder that does not exist.
    """
    path = Path(path)
    target = path
    if path.is_symlink():
        try:
            target = Path(os.path.realpath(path, strict=True))
        except FileNotFoundError:
            target = Path(os.path.realpath(path))  # a broken link: writing creates its target
        except OSError as error:
            raise ExportError(
                f"Cannot write {path}: it is a symbolic link loop ({link_chain(path)})."
            ) from error
    if target.is_dir():
        raise ExportError(f"Cannot write {path}: it is a folder.")
    if not target.parent.is_dir():
        raise ExportError(f"Cannot export to {path}: the folder {target.parent} does not exist.")
    return target


def write_failure(path: Path, error: OSError, *, where: str = "") -> ExportError:
    """The one-sentence :class:`ExportError` for ``error`` while writing ``path``.

    ``where`` adds where it happened when that is not ``path``'s folder (say, the temporary
    folder a workbook streams its rows to).
    """
    kept = " (the existing file is unchanged)" if Path(path).exists() else ""
    return ExportError(f"Cannot write {path}: {error.strerror or error}{where}{kept}.")


def streaming_failure(path: Path, error: OSError) -> ExportError:
    """:func:`write_failure` for a workbook whose rows could not be streamed to the temporary folder."""
    import tempfile  # only to name the folder in the message

    return write_failure(path, error, where=f" in the temporary folder {tempfile.gettempdir()}")


def write_atomically(path: Path, write: Callable[[Path], None]) -> None:
    """Call ``write(temporary)``, then rename the temporary file over ``path``'s target
    (:func:`~goldenlens.atomic_write.write_whole`: flushed to the disk first).

    Any ``OSError`` (no space left, permission denied, ...) becomes an :class:`ExportError`
    with one plain sentence; the temporary file is removed whatever happens.
    """
    target = output_target(path)
    try:
        write_whole(target, write)
    except PermissionError as error:
        raise ExportError(
            f"Cannot write {path}: permission denied. If it is open in Excel, close it and export again."
        ) from error
    except OSError as error:
        raise write_failure(path, error) from error
