"""The judge dialog: choose the model (Model tab) and the metrics with their parameters and
custom aspects (Metrics tab), and, when it starts a run, which questions to judge (all rows, the
grid's selected questions, or the rows the grid shows). Problems show inline in red and disable
OK; accepting saves the settings for next time (the choice of rows is per run, not saved)."""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from goldenlens.jobs.judging.judge_options import JudgeOptions
from goldenlens.jobs.judging.judge_selection import JudgeRows, JudgeScope
from goldenlens.judge.registry import available
from goldenlens.settings.judge_preferences import JudgeSettings, load_judge_settings, save_judge_settings
from goldenlens.ui.judge.judge_settings import (
    ASPECT_PARAMS_KEY,
    ModelPage,
    aspect_metric_name,
    options_from_settings,
    settings_problems,
)


class OddSpinBox(QSpinBox):
    """A spin box that holds only odd numbers (a majority vote needs an odd count)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRange(1, 9)
        self.setSingleStep(2)

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        if text.strip().isdigit() and int(text) % 2 == 0:
            return (QValidator.State.Intermediate, text, pos)
        return super().validate(text, pos)

    def fixup(self, text: str) -> str:
        return str(int(text) + 1) if text.strip().isdigit() and int(text) % 2 == 0 else text


def _combo(items: tuple[str, ...]) -> QComboBox:
    combo = QComboBox()
    combo.addItems(list(items))
    return combo


class MetricsPage(QWidget):
    """The dialog's "Metrics" tab: a checkbox and description per metric, its parameters under
    it, and the custom aspects. ``changed`` — the selection changed."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.checks: dict[str, QCheckBox] = {}
        self._param_rows: dict[str, QWidget] = {}
        self._build_params()
        boxes = {
            "judge": QGroupBox("Judge metrics (need the judge model)"),
            "embedding": QGroupBox("Embedding metrics (no judge)"),
            "aspect": QGroupBox("Aspect critiques (a yes/no verdict each)"),
        }
        for box in boxes.values():
            QVBoxLayout(box).setSpacing(2)
        self._add_row(boxes["aspect"], self._param_rows[ASPECT_PARAMS_KEY])
        self._param_rows[ASPECT_PARAMS_KEY].setEnabled(True)
        for info in available():
            check = QCheckBox(info.name)
            check.setStyleSheet("font-weight: bold;")
            self.checks[info.name] = check
            check.toggled.connect(lambda _on: self.changed.emit())
            box = boxes.get(info.group, boxes["judge"])
            self._add_row(box, check)
            description = QLabel(info.description[:1].upper() + info.description[1:])
            description.setWordWrap(True)
            description.setStyleSheet("color: palette(dark); margin-left: 22px;")
            self._add_row(box, description)
            row = self._param_rows.get(info.name)
            if row is not None:
                self._add_row(box, row)
                check.toggled.connect(row.setEnabled)
                row.setEnabled(False)
        self._build_aspects(boxes["aspect"])
        inner = QWidget()
        column = QVBoxLayout(inner)
        for box in boxes.values():
            column.addWidget(box)
        column.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(inner)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scroll)

    @staticmethod
    def _add_row(box: QGroupBox, widget: QWidget) -> None:
        layout = box.layout()
        if layout is not None:
            layout.addWidget(widget)

    # -- parameters --------------------------------------------------------------------------

    def _row(self, name: str, *fields: tuple[str, QWidget]) -> None:
        row = QWidget()
        layout = QHBoxLayout(row)
        layout.setContentsMargins(22, 0, 0, 6)
        for label, widget in fields:
            if label:
                layout.addWidget(QLabel(label))
            layout.addWidget(widget)
        layout.addStretch(1)
        self._param_rows[name] = row

    def _build_params(self) -> None:
        self.relevancy_n = QSpinBox(minimum=1, maximum=10, value=3)
        self.relevancy_n.setToolTip("How many questions the judge generates from the response")
        self._row("answer_relevancy", ("Questions generated", self.relevancy_n))
        self.strictness = OddSpinBox()
        self.strictness.setToolTip("Verdicts per aspect; the majority decides (odd)")
        self._row(ASPECT_PARAMS_KEY, ("Strictness (odd, majority of verdicts)", self.strictness))
        self.fc_mode = _combo(("f1", "precision", "recall"))
        self.fc_beta = QDoubleSpinBox(minimum=0.1, maximum=10.0, singleStep=0.1, value=1.0, decimals=2)
        self.fc_atomicity = _combo(("low", "high"))
        self.fc_coverage = _combo(("low", "high"))
        self._row(
            "factual_correctness",
            ("Mode", self.fc_mode),
            ("β", self.fc_beta),
            ("Atomicity", self.fc_atomicity),
            ("Coverage", self.fc_coverage),
        )
        self.ss_use_threshold = QCheckBox("Pass/fail at threshold")
        self.ss_threshold = QDoubleSpinBox(minimum=0.0, maximum=1.0, singleStep=0.05, value=0.5, decimals=2)
        self.ss_use_threshold.toggled.connect(self.ss_threshold.setEnabled)
        self.ss_threshold.setEnabled(False)
        self._row("semantic_similarity", ("", self.ss_use_threshold), ("", self.ss_threshold))
        self.sum_coeff = QDoubleSpinBox(minimum=0.0, maximum=1.0, singleStep=0.05, value=0.5, decimals=2)
        self.sum_coeff.setToolTip("Weight of conciseness against question answering")
        self._row("summarization_score", ("Conciseness weight", self.sum_coeff))
        self.minicheck = QCheckBox("MiniCheck prompt (use with a Bespoke-MiniCheck GGUF)")
        self._row("fact_check", ("", self.minicheck))

    def _params(self) -> dict[str, dict[str, Any]]:
        threshold = round(self.ss_threshold.value(), 2) if self.ss_use_threshold.isChecked() else None
        return {
            "answer_relevancy": {"n": self.relevancy_n.value()},
            ASPECT_PARAMS_KEY: {"strictness": self.strictness.value()},
            "factual_correctness": {
                "mode": self.fc_mode.currentText(),
                "beta": round(self.fc_beta.value(), 2),
                "atomicity": self.fc_atomicity.currentText(),
                "coverage": self.fc_coverage.currentText(),
            },
            "semantic_similarity": {"threshold": threshold},
            "summarization_score": {"coeff": round(self.sum_coeff.value(), 2)},
            "fact_check": {"minicheck": self.minicheck.isChecked()},
        }

    def _set_params(self, params: Mapping[str, Mapping[str, Any]]) -> None:
        def get(metric: str, key: str, default: Any) -> Any:
            value = params.get(metric, {}).get(key, default)
            return value if isinstance(value, type(default)) or value is None else default

        self.relevancy_n.setValue(int(get("answer_relevancy", "n", 3)))
        strictness = int(get(ASPECT_PARAMS_KEY, "strictness", 1))
        self.strictness.setValue(strictness if strictness % 2 else strictness + 1)
        self.fc_mode.setCurrentText(str(get("factual_correctness", "mode", "f1")))
        self.fc_beta.setValue(float(get("factual_correctness", "beta", 1.0)))
        self.fc_atomicity.setCurrentText(str(get("factual_correctness", "atomicity", "low")))
        self.fc_coverage.setCurrentText(str(get("factual_correctness", "coverage", "low")))
        threshold = params.get("semantic_similarity", {}).get("threshold")
        self.ss_use_threshold.setChecked(isinstance(threshold, int | float))
        if isinstance(threshold, int | float):
            self.ss_threshold.setValue(float(threshold))
        self.sum_coeff.setValue(float(get("summarization_score", "coeff", 0.5)))
        self.minicheck.setChecked(bool(get("fact_check", "minicheck", False)))

    # -- custom aspects --------------------------------------------------------------------

    def _build_aspects(self, box: QGroupBox) -> None:
        layout = box.layout()
        assert isinstance(layout, QVBoxLayout)
        layout.addWidget(QLabel("<b>Custom aspects</b> (tick to judge)"))
        self.aspect_list = QListWidget()
        self.aspect_list.setMaximumHeight(110)
        layout.addWidget(self.aspect_list)
        form = QFormLayout()
        self.aspect_name = QLineEdit()
        self.aspect_name.setPlaceholderText("politeness")
        self.aspect_definition = QLineEdit()
        self.aspect_definition.setPlaceholderText("Does the response address the user courteously?")
        form.addRow("Name", self.aspect_name)
        form.addRow("Definition", self.aspect_definition)
        layout.addLayout(form)
        buttons = QHBoxLayout()
        self.add_aspect_button = QPushButton("Add Aspect")
        self.remove_aspect_button = QPushButton("Remove Selected")
        buttons.addWidget(self.add_aspect_button)
        buttons.addWidget(self.remove_aspect_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.add_aspect_button.clicked.connect(self._on_add_aspect)
        self.remove_aspect_button.clicked.connect(self._on_remove_aspect)
        self.aspect_name.textChanged.connect(self._update_aspect_buttons)
        self.aspect_definition.textChanged.connect(self._update_aspect_buttons)
        self.aspect_list.currentRowChanged.connect(self._update_aspect_buttons)
        self.aspect_list.itemChanged.connect(lambda _item: self.changed.emit())
        self._aspects: dict[str, str] = {}
        self._update_aspect_buttons()

    def add_aspect(self, name: str, definition: str, *, checked: bool = True) -> None:
        """Add (or redefine) custom aspect ``name``, ticked for the run."""
        name, definition = name.strip(), definition.strip()
        if not (name and definition):
            return
        ticked = self.custom_aspects_checked() | ({name} if checked else set())
        self._aspects[name] = definition
        self._fill_aspects(ticked)
        self.changed.emit()

    def custom_aspects_checked(self) -> set[str]:
        """The custom aspects ticked for the run."""
        return {
            str(item.data(Qt.ItemDataRole.UserRole))
            for item in (self.aspect_list.item(i) for i in range(self.aspect_list.count()))
            if item.checkState() == Qt.CheckState.Checked
        }

    def _fill_aspects(self, ticked: set[str]) -> None:
        self.aspect_list.blockSignals(True)
        self.aspect_list.clear()
        for name, definition in self._aspects.items():
            item = QListWidgetItem(f"{name}: {definition}")
            item.setData(Qt.ItemDataRole.UserRole, name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if name in ticked else Qt.CheckState.Unchecked)
            self.aspect_list.addItem(item)
        self.aspect_list.blockSignals(False)
        self._update_aspect_buttons()

    def _on_add_aspect(self) -> None:
        self.add_aspect(self.aspect_name.text(), self.aspect_definition.text())
        self.aspect_name.clear()
        self.aspect_definition.clear()

    def _on_remove_aspect(self) -> None:
        item = self.aspect_list.currentItem()
        if item is not None:
            self._aspects.pop(str(item.data(Qt.ItemDataRole.UserRole)), None)
            self._fill_aspects(self.custom_aspects_checked())
            self.changed.emit()

    def _update_aspect_buttons(self) -> None:
        self.add_aspect_button.setEnabled(
            bool(self.aspect_name.text().strip() and self.aspect_definition.text().strip())
        )
        self.remove_aspect_button.setEnabled(self.aspect_list.currentItem() is not None)

    # -- settings ----------------------------------------------------------------------------

    def set_settings(self, settings: JudgeSettings) -> None:
        for name, check in self.checks.items():
            check.setChecked(name in settings.metrics)
        self._set_params(settings.metric_params)
        self._aspects = dict(settings.custom_aspects)
        self._fill_aspects({n for n in self._aspects if aspect_metric_name(n) in settings.metrics})

    def apply_to(self, settings: JudgeSettings) -> JudgeSettings:
        chosen = [name for name, check in self.checks.items() if check.isChecked()]
        chosen += [
            metric
            for name in self._aspects
            if name in self.custom_aspects_checked() and (metric := aspect_metric_name(name)) not in chosen
        ]
        return replace(
            settings, metrics=tuple(chosen), metric_params=self._params(), custom_aspects=dict(self._aspects)
        )


_ROW_LABELS = {
    JudgeRows.ALL: "All rows",
    JudgeRows.SELECTED: "Selected questions",
    JudgeRows.SHOWN: "Rows the grid shows (filtered)",
}


class RowsChoice(QGroupBox):
    """Which questions the run judges: all, the grid's selected ones, or those it shows; each
    choice with its question count, disabled when it holds none (or, for the grid's rows,
    while the grid is still loading)."""

    def __init__(self, scope: JudgeScope, parent: QWidget | None = None) -> None:
        super().__init__("Questions to judge", parent)
        self.scope = scope
        self.buttons: dict[JudgeRows, QRadioButton] = {}
        layout = QHBoxLayout(self)
        for rows, label in _ROW_LABELS.items():
            count = scope.count(rows)
            button = QRadioButton(f"{label} ({count:,})" if count is not None else f"{label} (loading…)")
            button.setEnabled(bool(count))
            if rows is JudgeRows.SHOWN and count is None:
                button.setToolTip("The grid is still loading all questions")
            self.buttons[rows] = button
            layout.addWidget(button)
        layout.addStretch(1)
        self.buttons[JudgeRows.ALL].setChecked(True)

    def choice(self) -> JudgeRows:
        return next((rows for rows, b in self.buttons.items() if b.isChecked()), JudgeRows.ALL)

    def set_choice(self, rows: JudgeRows) -> None:
        self.buttons[rows].setChecked(True)

    def only(self) -> tuple[str, ...]:
        """The run's ``only`` option for the choice (empty: every question)."""
        return self.scope.only(self.choice())


class JudgeDialog(QDialog):
    """Model and metric settings. ``run=True`` labels OK "Run"; accepting saves the settings.
    ``scope`` (with ``run``) offers the choice of questions to judge."""

    def __init__(
        self,
        parent: QWidget | None = None,
        settings: JudgeSettings | None = None,
        *,
        run: bool = True,
        scope: JudgeScope | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Run Judge Metrics" if run else "Judge Settings")
        self.resize(720, 640)
        self.model_page = ModelPage()
        self.metrics_page = MetricsPage()
        self.tabs = QTabWidget()
        self.tabs.addTab(self.model_page, "Model")
        self.tabs.addTab(self.metrics_page, "Metrics")
        self.problems_label = QLabel()
        self.problems_label.setWordWrap(True)
        self.problems_label.setStyleSheet("color: #c62828;")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText("Run" if run else "Save")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        self.rows_choice = RowsChoice(scope) if run and scope is not None else None
        if self.rows_choice is not None:
            layout.addWidget(self.rows_choice)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.problems_label)
        layout.addWidget(self.buttons)
        initial = settings or load_judge_settings()
        self.model_page.set_settings(initial)
        self.metrics_page.set_settings(initial)
        self.model_page.changed.connect(self._validate)
        self.metrics_page.changed.connect(self._validate)
        for check in self.metrics_page.checks.values():
            check.toggled.connect(self._validate)
        self._validate()

    def settings(self) -> JudgeSettings:
        """The settings as the dialog shows them."""
        return self.metrics_page.apply_to(self.model_page.apply_to(JudgeSettings()))

    def options(self) -> JudgeOptions:
        """The run options for the settings shown, narrowed to the questions chosen."""
        only = self.rows_choice.only() if self.rows_choice is not None else ()
        return options_from_settings(self.settings(), only=only)

    def problems(self) -> list[str]:
        return settings_problems(self.settings())

    def _validate(self) -> None:
        problems = self.problems()
        self.problems_label.setText("<br>".join(html.escape(p) for p in problems))
        self.problems_label.setVisible(bool(problems))
        self.ok_button.setEnabled(not problems)

    def accept(self) -> None:
        if self.problems():
            return
        save_judge_settings(self.settings())
        super().accept()
