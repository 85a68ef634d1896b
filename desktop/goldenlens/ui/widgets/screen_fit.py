"""Fit a top-level window into its screen's available area (the desktop less the task bars).

A window larger than the screen hides its bottom rows and right-hand panes off-screen, and the
analyst cannot even reach its edges to shrink it (1500x900 on a 1366x768 laptop). The first
window's preferred size, and a geometry restored from a larger monitor, are both cut down to
the available area, frame included, and the window is moved inside it.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

#: What a window manager's frame adds (borders, title bar) while it is not known yet (before
#: the window is shown): generous, so the title bar stays on the screen.
FRAME_ALLOWANCE = QSize(16, 40)


def fitted_frame(frame: QRect, available: QRect, smallest: QSize | None = None) -> QRect:
    """``frame`` (a window with its frame) no larger than ``available`` and moved inside it.

    Where ``available`` is narrower (or shorter) than ``smallest``, the window's minimum with
    its frame, ``frame`` keeps its width (or height): the window cannot fit that way, and
    cutting it to its minimum would only squeeze its panes. It then starts at the area's left
    (or top) edge."""
    limit = available.size()
    if smallest is not None:
        if smallest.width() > limit.width():
            limit.setWidth(frame.width())
        if smallest.height() > limit.height():
            limit.setHeight(frame.height())
    size = frame.size().boundedTo(limit)
    left = max(min(frame.left(), available.right() + 1 - size.width()), available.left())
    top = max(min(frame.top(), available.bottom() + 1 - size.height()), available.top())
    return QRect(left, top, size.width(), size.height())


def fit_to_screen(window: QWidget, preferred: QSize | None = None) -> None:
    """Size ``window`` to ``preferred`` (``None``: its present size) cut to the available area
    of its screen, frame included, and move it inside that area; a preferred size is centred.

    A maximised or full-screen window is left alone: the window manager sizes it to the screen.
    """
    if window.isMaximized() or window.isFullScreen():
        return
    if preferred is not None:
        window.resize(preferred)
    known = window.frameGeometry().size() - window.geometry().size()
    extra = known if window.isVisible() else known.expandedTo(FRAME_ALLOWANCE)
    frame = QRect(window.frameGeometry().topLeft(), window.size() + extra)
    screen = QGuiApplication.screenAt(frame.center()) or window.screen() or QGuiApplication.primaryScreen()
    if screen is None:  # no screen at all: nothing to fit into
        return
    available = screen.availableGeometry()
    smallest = window.minimumSizeHint().expandedTo(window.minimumSize()) + extra
    fitted = fitted_frame(frame, available, smallest)
    if preferred is not None and available.contains(QRect(available.topLeft(), fitted.size())):
        fitted.moveCenter(available.center())
    window.resize(fitted.size() - extra)
    window.move(fitted.topLeft())
