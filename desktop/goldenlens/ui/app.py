"""Start the desktop app: ``goldenlens-desktop`` and ``goldenlens gui [PROJECT] [--sample]``."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from goldenlens import __version__

ORGANIZATION = "GoldenLens"
APPLICATION = "GoldenLens"


def dark_palette() -> QPalette:
    """A dark Fusion palette, used when the system asks for a dark colour scheme."""
    palette = QPalette()
    window, base, text = QColor(37, 37, 40), QColor(28, 28, 30), QColor(230, 230, 230)
    for role, colour in (
        (QPalette.ColorRole.Window, window),
        (QPalette.ColorRole.WindowText, text),
        (QPalette.ColorRole.Base, base),
        (QPalette.ColorRole.AlternateBase, QColor(45, 45, 48)),
        (QPalette.ColorRole.ToolTipBase, QColor(50, 50, 54)),
        (QPalette.ColorRole.ToolTipText, text),
        (QPalette.ColorRole.Text, text),
        (QPalette.ColorRole.Button, window),
        (QPalette.ColorRole.ButtonText, text),
        (QPalette.ColorRole.Highlight, QColor(64, 120, 200)),
        (QPalette.ColorRole.HighlightedText, QColor(255, 255, 255)),
        (QPalette.ColorRole.Link, QColor(110, 170, 255)),
        (QPalette.ColorRole.PlaceholderText, QColor(140, 140, 140)),
    ):
        palette.setColor(role, colour)
    return palette


def create_application(argv: list[str] | None = None) -> QApplication:
    """The QApplication with our names, Fusion style and the system's light or dark scheme."""
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    QGuiApplication.setHighDpiScaleFactorRoundingPolicy(Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
    app = QApplication(argv if argv is not None else sys.argv)
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationVersion(__version__)
    app.setStyle("Fusion")
    if app.styleHints().colorScheme() == Qt.ColorScheme.Dark:
        app.setPalette(dark_palette())
    return app


def run_app(*, project: Path | None = None, sample: bool = False) -> int:
    """Open the main window (on ``project``, or the sample) and run the event loop."""
    from goldenlens.ui.main_window import MainWindow

    app = create_application()
    window = MainWindow()
    window.show()
    if project is not None:
        window.projects.open_project(project)
    elif sample:
        window.projects.open_sample()
    else:
        window.projects.open_startup_project()
    return int(app.exec())


def main() -> None:
    """Entry point of the ``goldenlens-desktop`` gui script."""
    from goldenlens.jobs.doctor import gui_advice

    advice = gui_advice()  # before QApplication: without a display or Qt's libraries it aborts
    if advice is not None:
        print(f"goldenlens-desktop: error: {advice}", file=sys.stderr)
        sys.exit(1)
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    sys.exit(run_app(project=Path(args[0]) if args else None, sample="--sample" in sys.argv))
