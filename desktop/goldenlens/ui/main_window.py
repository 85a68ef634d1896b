"""The main window: a composition root that builds the views and wires the controllers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, QSize, Qt
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence, QUndoStack
from PySide6.QtWidgets import QDialog, QMainWindow, QSplitter, QTabWidget, QVBoxLayout, QWidget

from goldenlens import __version__
from goldenlens.ui.advisor.advisor_controller import AdvisorController
from goldenlens.ui.advisor.advisor_pane import AdvisorPane
from goldenlens.ui.drafts.drafts_controller import DraftsController
from goldenlens.ui.drafts.drafts_pane import DraftsPane
from goldenlens.ui.export_controller import ExportController
from goldenlens.ui.golden_review.golden_review_controller import GoldenReviewController
from goldenlens.ui.golden_review.golden_review_pane import GoldenReviewPane
from goldenlens.ui.grid.score_grid import ScoreGrid
from goldenlens.ui.judge.judge_controller import JudgeController
from goldenlens.ui.labelling.labelling_controller import LabellingController
from goldenlens.ui.labelling.labelling_pane import LabellingPane
from goldenlens.ui.project_controller import ProjectController
from goldenlens.ui.review.detail_pane import DetailPane
from goldenlens.ui.review.golden_editor import GoldenEditor
from goldenlens.ui.review.review_controller import ReviewController
from goldenlens.ui.review.review_queue import ReviewQueue
from goldenlens.ui.session import ProjectSession
from goldenlens.ui.shortcuts import ShortcutsDialog, keys_for
from goldenlens.ui.summary.summary_view import SummaryView
from goldenlens.ui.widgets.collapsible import CollapsibleSection
from goldenlens.ui.widgets.layouts import stacked
from goldenlens.ui.widgets.run_panel import RunPanel
from goldenlens.ui.widgets.screen_fit import fit_to_screen
from goldenlens.ui.window_parts import WindowParts


class MainWindow(QMainWindow):
    """Review queue, score grid and advisor on the left; golden editor and side-by-side detail
    on the right; summary tab."""

    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle("GoldenLens")
        self.setAcceptDrops(True)
        self.undo_stack = QUndoStack(self)
        self.run_panel = RunPanel(self)
        self.statusBar().addPermanentWidget(self.run_panel)
        self.projects = ProjectController(self, self.run_panel)
        self.grid = ScoreGrid(self)
        self.queue = ReviewQueue(self.grid, self)
        self.advisor_pane = AdvisorPane(self)
        self.detail = DetailPane(self)
        self.summary = SummaryView(self)
        self.drafts = DraftsPane(self.undo_stack, self)
        self.golden_review_pane = GoldenReviewPane(self)
        self.labelling_pane = LabellingPane(self)
        self.editor: GoldenEditor | None = None
        self.versions_dialog: QDialog | None = None
        self._editor_host = QWidget(self)
        QVBoxLayout(self._editor_host).setContentsMargins(0, 0, 0, 0)
        self._build_layout()
        parts = WindowParts(self, self.run_panel, self.projects, self.grid, self.undo_stack, self.tabs)
        self.exports = ExportController(parts)
        self.review = ReviewController(parts, self.detail, self.summary)
        self.judge = JudgeController(parts, self.review)
        self.advisor = AdvisorController(parts, self.advisor_pane, self.queue, self.editor_to_edit)
        self.drafting = DraftsController(parts, self.drafts)
        self.drafting.drafted.connect(lambda _result: self.tabs.setCurrentWidget(self.drafts))
        # The review letters (j, k, a …) act on the Review tab's grid: not while another tab shows.
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self.drafts.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.golden_review = GoldenReviewController(parts, self.golden_review_pane)
        self.judge.menu.addSeparator()
        self.judge.menu.addAction(self.golden_review.review_action)
        self.labelling = LabellingController(parts, self.labelling_pane)
        self.labelling.calibrated.connect(self.summary.show_calibrated)
        self.labelling.plan_changed.connect(self.queue.set_plan)
        self._build_menus()
        self.projects.session_opened.connect(self._on_session_opened)
        self.projects.session_closing.connect(self._on_session_closing)
        self._restore_window_state()
        self._show_empty_state()

    # -- layout and menus -----------------------------------------------------------------

    def _build_layout(self) -> None:
        # The golden editor folds away above the cards (collapsed, it is one header line): at
        # 1366x768 it would otherwise take half the height the response cards need.
        self.editor_section = CollapsibleSection(
            "Edit golden row", self._editor_host, settings_key="layout/golden_editor_expanded", parent=self
        )
        self.editor_section.toggle.setToolTip(
            "Show or hide the editor of the golden question, answer and fact"
        )
        right = stacked(self, self.editor_section, self.detail, spacing=2)
        queue_and_grid = stacked(self, self.queue, self.grid, spacing=0)
        self.left = QSplitter(Qt.Orientation.Vertical, self)
        self.left.addWidget(queue_and_grid)
        self.left.addWidget(self.advisor_pane)
        self.left.setSizes([360, 540])  # the advisor needs the room more than a short grid
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.addWidget(self.left)
        self.splitter.addWidget(right)
        self.splitter.setSizes([600, 900])  # the cards need the width more than the grid
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.splitter, "Review")
        self.tabs.addTab(self.summary, "Summary")
        self.tabs.addTab(self.labelling_pane, "Labels")
        self.tabs.addTab(self.drafts, "Drafts")
        self.tabs.addTab(self.golden_review_pane, "Golden Review")
        self.setCentralWidget(self.tabs)

    def _action(self, text: str, slot: Callable[[], object], *, keys: Sequence[str] = ()) -> QAction:
        action = QAction(text, self)
        if keys:
            action.setShortcuts([QKeySequence(k) for k in keys])
        # triggered(bool) would hand its checked state to the slot's first parameter (File ▸
        # Import once received False as the golden-set path): the slots take no arguments here.
        action.triggered.connect(lambda _checked=False: slot())
        self.addAction(action)
        return action

    def _build_menus(self) -> None:
        menu = self.menuBar()
        file_menu = menu.addMenu("&File")
        file_menu.addAction(self._action("&New Project…", self.projects.ask_new, keys=keys_for("new")))
        file_menu.addAction(self._action("&Open Project…", self.projects.ask_open, keys=keys_for("open")))
        file_menu.addMenu(self.projects.recent_menu)
        file_menu.addAction(self._action("Open &Sample Project", self.projects.open_sample))
        file_menu.addSeparator()
        file_menu.addAction(
            self._action(
                "&Import Golden Set and Responses…", self.projects.import_files, keys=keys_for("import")
            )
        )
        file_menu.addAction(self._action("Import Sources and &Draft…", self.drafting.ask_import))
        file_menu.addAction(self._action("Re&score", self.projects.rescore))
        file_menu.addSeparator()
        file_menu.addAction(self._action("Export &Golden Set…", self.exports.export_golden))
        file_menu.addAction(
            self._action("Export &Report…", self.exports.export_report, keys=keys_for("export_report"))
        )
        file_menu.addAction(self.exports.filtered_only_action)
        file_menu.addSeparator()
        file_menu.addAction(self._action("&Close Project", self.projects.close_project))
        quit_action = self._action("&Quit", self.close)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        file_menu.addAction(quit_action)
        edit_menu = menu.addMenu("&Edit")
        undo = self.undo_stack.createUndoAction(self, "&Undo")
        undo.setShortcuts([QKeySequence(k) for k in keys_for("undo")])
        redo = self.undo_stack.createRedoAction(self, "&Redo")
        redo.setShortcuts([QKeySequence(k) for k in keys_for("redo")])
        edit_menu.addActions([undo, redo])
        edit_menu.addSeparator()
        edit_menu.addAction(self._action("&Find / Filter", self.grid.focus_filter, keys=keys_for("filter")))
        edit_menu.addAction(self._action("&Reviewer Name…", self.review.ask_reviewer_name))
        edit_menu.addSeparator()
        self.versions_action = self._action("Golden-Set &Versions…", self.show_versions)
        edit_menu.addAction(self.versions_action)
        edit_menu.addAction(self._action("Run &History…", self.show_runs))
        edit_menu.addAction(
            self._action("&Label Responses", self.labelling.show, keys=keys_for("labels_tab"))
        )
        review_menus = self.review.menus()
        review_menus[0].addSeparator()
        for action in self.queue.actions_for_menu():
            review_menus[0].addAction(action)
            self.addAction(action)
        for action_menu in [*review_menus, *self.judge.menus()]:
            menu.addMenu(action_menu)
        help_menu = menu.addMenu("&Help")
        help_menu.addAction(self._action("&Keyboard Shortcuts", self.show_shortcuts, keys=keys_for("help")))
        help_menu.addAction(self._action("&About GoldenLens", self._about))

    def _on_tab_changed(self, index: int) -> None:
        """The Review tab's single-letter keys work only while it shows: the Labels and Drafts
        tabs give some of the same letters other meanings."""
        self.review.set_keys_enabled(index == 0)
        self.queue.set_keys_enabled(index == 0)

    def show_versions(self) -> None:
        """The Versions dialog of the open project: list, name and diff golden-set versions."""
        session = self.projects.session
        if session is None:
            self.statusBar().showMessage("Open a project to see the versions of its golden set.", 5000)
            return
        from goldenlens.ui.history.versions_dialog import open_versions_dialog

        self.versions_dialog = open_versions_dialog(session, self)

    def show_runs(self) -> QDialog | None:
        """The Run History dialog of the open project: its runs, two compared, the trend."""
        session = self.projects.session
        if session is None:
            self.statusBar().showMessage("Open a project to see its scoring runs.", 5000)
            return None
        from goldenlens.ui.history.runs_dialog import open_runs_dialog

        return open_runs_dialog(session, self)

    def current_editor(self) -> GoldenEditor | None:
        """The golden editor of the open project (``None``: no project)."""
        return self.editor

    def editor_to_edit(self) -> GoldenEditor | None:
        """The golden editor, its section expanded first: a field is about to take the focus."""
        if self.editor is not None:
            self.editor_section.set_expanded(True)
        return self.editor

    def show_shortcuts(self) -> None:
        ShortcutsDialog(self).open()

    def _about(self) -> None:
        from PySide6.QtWidgets import QMessageBox

        QMessageBox.about(
            self,
            "About GoldenLens",
            f"GoldenLens {__version__}\nReview QA and RAG pipelines against a golden set, offline.\n"
            "Lexical scores reproduce FMEval 1.2.3 exactly.",
        )

    # -- project life cycle ----------------------------------------------------------------

    def _on_session_opened(self, session: ProjectSession) -> None:
        self.undo_stack.clear()
        self.setWindowTitle(f"{session.path.name} — GoldenLens")
        self.editor = GoldenEditor(session, self.undo_stack, self._editor_host)
        layout = self._editor_host.layout()
        if layout is not None:
            layout.addWidget(self.editor)
        self.review.set_session(session, self.editor)
        self.drafts.set_session(session)
        self.labelling.set_session(session)
        self.statusBar().showMessage(f"Opened {session.path}", 5000)

    def _on_session_closing(self) -> None:
        self.review.set_session(None, None)
        self.drafts.set_session(None)
        self.labelling.set_session(None)
        if self.editor is not None:
            # Out of the layout at once: deleteLater waits for the event loop, and until then
            # the closed project's editor would sit above the next one's (and set the
            # window's minimum height to both).
            self.editor.hide()
            layout = self._editor_host.layout()
            if layout is not None:
                layout.removeWidget(self.editor)
            self.editor.deleteLater()
            self.editor = None
        self.undo_stack.clear()
        self._show_empty_state()

    def _show_empty_state(self) -> None:
        if self.projects.session is None:
            self.setWindowTitle("GoldenLens")
            self.statusBar().showMessage(
                "Open a project, the sample (File ▸ Open Sample Project), or drop a spreadsheet here."
            )

    # -- window state, drops and closing ---------------------------------------------------

    def _restore_window_state(self) -> None:
        settings = QSettings()
        geometry = settings.value("window/geometry")
        # Restored or first, the window fits the screen it opens on (a geometry saved on a larger
        # monitor, or the first size on a laptop, would leave panes and rows off-screen).
        if isinstance(geometry, QByteArray) and self.restoreGeometry(geometry):
            fit_to_screen(self)
        else:
            fit_to_screen(self, QSize(1500, 900))
        splitter = settings.value("window/splitter")
        if isinstance(splitter, QByteArray):
            self.splitter.restoreState(splitter)
        header = settings.value("grid/header")
        if isinstance(header, QByteArray):
            self.grid.restore_header_state(bytes(header.data()))

    def _save_window_state(self) -> None:
        settings = QSettings()
        settings.setValue("window/geometry", self.saveGeometry())
        settings.setValue("window/splitter", self.splitter.saveState())
        settings.setValue("grid/header", QByteArray(self.grid.header_state()))

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = [Path(url.toLocalFile()) for url in event.mimeData().urls() if url.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            self.projects.open_dropped(paths)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Cancel and wait for running work, save the layout, close the project: never "save?"."""
        self.run_panel.shutdown()
        self.review.shutdown()
        self.advisor.shutdown()
        self.labelling.shutdown()
        self._save_window_state()
        self.projects.close_project()
        event.accept()
