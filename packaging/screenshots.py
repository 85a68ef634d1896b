"""Save the README's screenshots from the real app, offscreen, on the bundled sample project.

    .venv/bin/python packaging/screenshots.py [--out resources/screenshots]

Writes main.png (review tab), detail.png (the side-by-side detail pane), wizard.png (the
import wizard's mapping page) and summary.png (the summary charts). Settings go to a
temporary folder so the user's own preferences are neither read nor changed.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path


def _spin(seconds: float) -> None:
    from PySide6.QtWidgets import QApplication

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        QApplication.processEvents()
        time.sleep(0.01)


def _wait(condition: object, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not condition() and time.monotonic() < end:  # type: ignore[operator]
        _spin(0.05)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "resources" / "screenshots")
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    scratch = Path(tempfile.mkdtemp(prefix="goldenlens-shots-"))
    os.environ["GOLDENLENS_CONFIG_DIR"] = str(scratch / "config")
    os.environ["GOLDENLENS_DATA_DIR"] = str(scratch / "data")

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QWizard

    from goldenlens.io.sample import sample_dir
    from goldenlens.jobs.sample_project import ensure_sample_project
    from goldenlens.ui.app import create_application
    from goldenlens.ui.import_pages import TablePage
    from goldenlens.ui.import_wizard import ImportWizard
    from goldenlens.ui.main_window import MainWindow

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(scratch / "qsettings"))
    create_application([])
    args.out.mkdir(parents=True, exist_ok=True)
    project = ensure_sample_project(scratch / "amazon_q2_2023.goldenlens")

    window = MainWindow()
    window.resize(1680, 980)
    window.show()
    window.projects.open_project(project)
    _wait(lambda: window.grid.model().rowCount() == 10)
    window.grid.select_question("q02")
    _spin(0.5)
    window.grab().save(str(args.out / "main.png"))

    window.grid.select_question("q10")
    _spin(0.3)
    window.detail.resize(1400, 820)
    window.detail.grab().save(str(args.out / "detail.png"))

    window.tabs.setCurrentWidget(window.summary)
    _spin(0.5)
    window.grab().save(str(args.out / "summary.png"))

    wizard = ImportWizard(scratch / "wizard.goldenlens", window)
    wizard.set_files(sample_dir() / "golden.csv", sample_dir() / "responses.csv")
    wizard.show()
    _wait(lambda: wizard.button(QWizard.WizardButton.NextButton).isEnabled())
    wizard.button(QWizard.WizardButton.NextButton).click()
    page = wizard.currentPage()
    if isinstance(page, TablePage):
        _wait(lambda: not page.busy and page.current is not None)
    _spin(0.3)
    wizard.grab().save(str(args.out / "wizard.png"))
    wizard.reject()
    window.close()
    print(f"screenshots written to {args.out}")


if __name__ == "__main__":
    main()
