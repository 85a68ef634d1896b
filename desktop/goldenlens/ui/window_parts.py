"""What the main window lends its controllers: one value instead of the same five arguments each.

A controller keeps the :class:`WindowParts` it was given and reaches the window (the parent of
its dialogs, the status bar), the run panel, the project controller, the score grid, the undo
stack and the tabs through it; its own views (a pane, the detail cards) it takes as arguments.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtGui import QUndoStack
    from PySide6.QtWidgets import QMainWindow, QTabWidget

    from goldenlens.ui.grid.score_grid import ScoreGrid
    from goldenlens.ui.project_controller import ProjectController
    from goldenlens.ui.widgets.run_panel import RunPanel


@dataclass(frozen=True)
class WindowParts:
    window: QMainWindow
    run_panel: RunPanel
    projects: ProjectController
    grid: ScoreGrid
    undo: QUndoStack
    tabs: QTabWidget
