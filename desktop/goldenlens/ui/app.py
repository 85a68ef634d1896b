"""Start the desktop app: ``goldenlens-desktop`` and ``goldenlens gui [PROJECT] [--sample]``."""

from __future__ import annotations

import sys
from importlib.resources import files
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QPalette
from PySide6.QtWidgets import QApplication

from goldenlens import __version__

ORGANIZATION = "GoldenLens"
APPLICATION = "GoldenLens"
#: The name of the Linux desktop entry (resources/goldenlens.desktop) and of the themed icon.
DESKTOP_NAME = "goldenlens"
ICON_SIZES = (16, 32, 48, 64, 128, 256)


def app_icon(folder: Path | None = None) -> QIcon:
    """The GoldenLens icon, from the PNGs in ``folder`` (default: ``goldenlens.resources/icons``,
    shipped in the wheel and the bundle; drawn by packaging/make_icons.py)."""
    icon = QIcon()
    if folder is None:
        folder = Path(str(files("goldenlens.resources") / "icons"))
    for size in ICON_SIZES:
        png = folder / f"{DESKTOP_NAME}-{size}.png"
        if png.is_file():
            icon.addFile(str(png))
    return icon


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
    # Wayland and the task bars match the window to resources/goldenlens.desktop by this name.
    app.setDesktopFileName(DESKTOP_NAME)
    app.setWindowIcon(app_icon())
    app.setStyle("Fusion")
    if app.styleHints().colorScheme() == Qt.ColorScheme.Dark:
        app.setPalette(dark_palette())
    return app


def run_app(*, project: Path | None = None, sample: bool = False, smoke_test: bool = False) -> int:
    """Open the main window (on ``project``, or the sample) and run the event loop.

    ``smoke_test``: open the sample, check it is scored, and quit (:mod:`goldenlens.ui.smoke`).
    """
    from goldenlens.ui.main_window import MainWindow

    app = create_application()
    window = MainWindow()
    window.show()
    if smoke_test:
        from goldenlens.ui.smoke import SmokeTest

        SmokeTest(app, window).start()
    elif project is not None:
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
    # --smoke-test is hidden: packaging/smoke_test.sh runs it on the frozen bundle.
    smoke_test = "--smoke-test" in sys.argv
    project = Path(args[0]) if args else None
    sys.exit(run_app(project=project, sample="--sample" in sys.argv, smoke_test=smoke_test))
