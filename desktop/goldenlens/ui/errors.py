"""Error dialogs that say what went wrong, where, and what to do next — never a traceback."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from goldenlens.core.errors import StoreError
from goldenlens.core.problems import InputError


def describe(error: BaseException) -> tuple[str, str]:
    """(message, what to do next) for an error raised by a job."""
    if isinstance(error, InputError):
        return (
            error.problem.format(),
            "Fix the file (or choose another sheet or column mapping) and import again. "
            "Nothing in the project was changed.",
        )
    if isinstance(error, StoreError):
        return (str(error), "Choose another project file, or create a new project.")
    if isinstance(error, OSError):
        where = f"{error.filename}: " if error.filename else ""
        return (f"{where}{error.strerror or error}", "Check the path and its permissions, then try again.")
    if isinstance(error, ValueError):
        return (str(error), "Correct the value and try again.")
    return (
        f"{type(error).__name__}: {error}",
        "This is a bug in GoldenLens. Your saved work is safe; please report what you did.",
    )


def show_error(parent: QWidget | None, title: str, error: BaseException) -> QMessageBox:
    """A window-modal warning with the message and the next step.

    ``open()`` rather than ``exec()``: no nested event loop, so a worker finishing meanwhile
    is still handled, and tests can find and close the dialog.
    """
    message, next_step = describe(error)
    box = QMessageBox(QMessageBox.Icon.Warning, title, message, QMessageBox.StandardButton.Ok, parent)
    box.setInformativeText(next_step)
    box.setObjectName("errorDialog")
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box
