"""Judge settings in the desktop app: the metric catalogue, validation, the run options, and
the "Model" page of the judge dialog.

:class:`~goldenlens.settings.judge_preferences.JudgeSettings` is what is saved; its
:meth:`~goldenlens.settings.judge_preferences.JudgeSettings.engine_spec` is the engine every
judge job takes, and :func:`options_from_settings` adds the metrics of a judge run.
:func:`settings_problems` is Qt-free so the dialog and tests share it.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from goldenlens.jobs.judging.judge_options import JudgeOptions
from goldenlens.judge.model_files import ModelNotFoundError, default_judge_model
from goldenlens.judge.registry import ASPECT_PREFIX, expand_names
from goldenlens.settings.judge_preferences import JudgeSettings

DEFAULT_JUDGE_LABEL = "Default (SmolLM2-135M-Instruct, bundled)"
DEFAULT_EMBED_LABEL = "Default (all-MiniLM-L6-v2, bundled)"
TINY_JUDGE_NOTE = (
    "<b>The bundled SmolLM2-135M judge proves the pipeline, not the judgement.</b> "
    "Its verdicts are weak. For scores you can act on, choose a 7B instruct GGUF file "
    "(for example Qwen2.5-7B-Instruct or Mistral-7B-Instruct, Q4_K_M; Bespoke-MiniCheck-7B for "
    "fact_check) or an OpenAI-compatible server (llama.cpp server, vLLM)."
)
GGUF_FILTER = "GGUF models (*.gguf);;All files (*)"


#: Where the dialog keeps the strictness it applies to every selected aspect critique.
ASPECT_PARAMS_KEY = "aspect_critique"


def aspect_metric_name(aspect: str) -> str:
    """The metric name (``aspect_<slug>``) under which custom aspect ``aspect`` is judged."""
    return expand_names([ASPECT_PREFIX + aspect.strip()], {aspect: "-"})[0]


def _gguf_problem(path_text: str, what: str) -> str | None:
    if not path_text.strip():
        return f"Choose the {what} GGUF file."
    path = Path(path_text).expanduser()
    if not path.is_file():
        return f"The {what} file does not exist: {path}"
    try:
        with path.open("rb") as handle:
            magic = handle.read(4)
    except OSError as error:
        return f"Cannot read the {what} file: {error}"
    if magic != b"GGUF":
        return f"Not a GGUF model file: {path.name}"
    return None


def judge_model_problems(settings: JudgeSettings) -> list[str]:
    """What stops the judge model of ``settings`` from loading (file, server URL or the
    bundled default), in words for the analyst: what drafting needs (no metrics)."""
    problems: list[str] = []
    if settings.judge_source == "file":
        if problem := _gguf_problem(settings.judge_model_path, "judge model"):
            problems.append(problem)
    elif settings.judge_source == "server":
        url = urlparse(settings.judge_url.strip())
        if url.scheme not in {"http", "https"} or not url.netloc:
            problems.append("Enter the server's URL, e.g. http://127.0.0.1:8080/v1")
    else:
        try:
            default_judge_model()
        except ModelNotFoundError as error:
            problems.append(str(error))
    return problems


def settings_problems(settings: JudgeSettings) -> list[str]:
    """What stops a run with ``settings``, in words for the analyst (empty when none)."""
    problems = judge_model_problems(settings)
    embed_problem = _gguf_problem(settings.embed_model_path, "embedding model")
    if settings.embed_source == "file" and embed_problem:
        problems.append(embed_problem)
    if not settings.metrics:
        problems.append("Select at least one metric.")
        return problems
    try:
        options_from_settings(settings).build_metrics()
    except ValueError as error:
        problems.append(str(error))
    return problems


def judge_model_label(settings: JudgeSettings) -> str:
    """The judge the settings name, as the analyst reads it."""
    if settings.judge_source == "file":
        return Path(settings.judge_model_path).name
    if settings.judge_source == "server":
        return settings.judge_url.strip()
    return DEFAULT_JUDGE_LABEL


def options_from_settings(settings: JudgeSettings, *, only: tuple[str, ...] = ()) -> JudgeOptions:
    """The run options for ``settings``: parameters only for the selected metrics (the aspect
    strictness for every selected aspect), only the selected custom aspects, parallel requests
    only for a server; ``only`` narrows the run to those questions (empty: all)."""
    chosen = tuple(settings.metrics)
    custom = {
        name: definition
        for name, definition in settings.custom_aspects.items()
        if aspect_metric_name(name) in chosen
    }
    params: dict[str, dict[str, Any]] = {}
    for name in chosen:
        key = ASPECT_PARAMS_KEY if name.startswith(ASPECT_PREFIX) else name
        if settings.metric_params.get(key):
            params[name] = dict(settings.metric_params[key])
    return JudgeOptions(
        metrics=chosen, engine=settings.engine_spec(), metric_params=params, custom_aspects=custom, only=only
    )


class _FileField(QWidget):
    """A path line edit with a Browse… button."""

    changed = Signal()

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.edit = QLineEdit()
        self.edit.setPlaceholderText("/path/to/model.gguf")
        self.edit.setClearButtonEnabled(True)
        self._title = title
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._on_browse)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.edit, 1)
        layout.addWidget(browse)
        self.edit.textChanged.connect(self.changed)

    def _on_browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self._title, self.edit.text(), GGUF_FILTER)
        if path:
            self.edit.setText(path)


class ModelPage(QWidget):
    """The dialog's "Model" tab: judge source and sampling, embedding model."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        self.note = QLabel(TINY_JUDGE_NOTE)
        self.note.setWordWrap(True)
        self.note.setObjectName("tinyJudgeNote")
        self.note.setStyleSheet(
            "QLabel#tinyJudgeNote { background: #fff4d6; color: #4d3800; border: 1px solid #e8c979;"
            " border-radius: 4px; padding: 6px; }"
        )
        layout.addWidget(self.note)
        layout.addWidget(self._judge_box())
        layout.addWidget(self._embed_box())
        layout.addStretch(1)

    def _judge_box(self) -> QGroupBox:
        box = QGroupBox("Judge model")
        form = QFormLayout(box)
        self.judge_default = QRadioButton(DEFAULT_JUDGE_LABEL)
        self.judge_file = QRadioButton("GGUF file")
        self.judge_server = QRadioButton("OpenAI-compatible server")
        self._judge_group = QButtonGroup(self)
        for button in (self.judge_default, self.judge_file, self.judge_server):
            self._judge_group.addButton(button)
        self.judge_path = _FileField("Judge model (GGUF)")
        self.judge_url = QLineEdit()
        self.judge_url.setPlaceholderText("http://127.0.0.1:8080/v1")
        self.n_ctx = QSpinBox(minimum=512, maximum=131072, singleStep=512)
        self.n_threads = QSpinBox(minimum=0, maximum=256)
        self.n_threads.setSpecialValueText("Auto")
        self.temperature = QDoubleSpinBox(minimum=0.0, maximum=2.0, singleStep=0.1, decimals=2)
        self.seed = QSpinBox(minimum=0, maximum=2**31 - 1)
        self.parallel = QSpinBox(minimum=1, maximum=64)
        self.parallel.setToolTip("Requests sent to the server at once")
        form.addRow(self.judge_default)
        form.addRow(self.judge_file, self.judge_path)
        form.addRow(self.judge_server, self.judge_url)
        form.addRow("Context size (tokens)", self.n_ctx)
        form.addRow("Threads", self.n_threads)
        form.addRow("Temperature", self.temperature)
        form.addRow("Seed", self.seed)
        form.addRow("Parallel requests (server)", self.parallel)
        self._judge_group.buttonToggled.connect(lambda *_: self._on_changed())
        self.judge_path.changed.connect(self._on_changed)
        self.judge_url.textChanged.connect(self._on_changed)
        return box

    def _embed_box(self) -> QGroupBox:
        box = QGroupBox("Embedding model (answer relevancy, semantic similarity, BERTScore)")
        form = QFormLayout(box)
        self.embed_default = QRadioButton(DEFAULT_EMBED_LABEL)
        self.embed_file = QRadioButton("GGUF file")
        self._embed_group = QButtonGroup(self)
        self._embed_group.addButton(self.embed_default)
        self._embed_group.addButton(self.embed_file)
        self.embed_path = _FileField("Embedding model (GGUF)")
        form.addRow(self.embed_default)
        form.addRow(self.embed_file, self.embed_path)
        self._embed_group.buttonToggled.connect(lambda *_: self._on_changed())
        self.embed_path.changed.connect(self._on_changed)
        return box

    def set_settings(self, settings: JudgeSettings) -> None:
        sources = {"file": self.judge_file, "server": self.judge_server}
        sources.get(settings.judge_source, self.judge_default).setChecked(True)
        self.judge_path.edit.setText(settings.judge_model_path)
        self.judge_url.setText(settings.judge_url)
        (self.embed_file if settings.embed_source == "file" else self.embed_default).setChecked(True)
        self.embed_path.edit.setText(settings.embed_model_path)
        self.n_ctx.setValue(settings.n_ctx)
        self.n_threads.setValue(settings.n_threads)
        self.temperature.setValue(settings.temperature)
        self.seed.setValue(settings.seed)
        self.parallel.setValue(settings.parallel)
        self._on_changed()

    def apply_to(self, settings: JudgeSettings) -> JudgeSettings:
        """``settings`` with this page's values."""
        source = (
            "file"
            if self.judge_file.isChecked()
            else "server"
            if self.judge_server.isChecked()
            else "default"
        )
        return replace(
            settings,
            judge_source=source,
            judge_model_path=self.judge_path.edit.text().strip(),
            judge_url=self.judge_url.text().strip(),
            embed_source="file" if self.embed_file.isChecked() else "default",
            embed_model_path=self.embed_path.edit.text().strip(),
            n_ctx=self.n_ctx.value(),
            n_threads=self.n_threads.value(),
            temperature=round(self.temperature.value(), 2),
            seed=self.seed.value(),
            parallel=self.parallel.value(),
        )

    def _on_changed(self) -> None:
        server = self.judge_server.isChecked()
        self.judge_path.setEnabled(self.judge_file.isChecked())
        self.judge_url.setEnabled(server)
        self.parallel.setEnabled(server)
        # A server owns its context size and threads.
        self.n_ctx.setEnabled(not server)
        self.n_threads.setEnabled(not server)
        self.embed_path.setEnabled(self.embed_file.isChecked())
        self.changed.emit()
