"""Names from the analyst's files shown in rich-text labels read as they are written.

A pipeline, question id, sheet or file name holding ``<``, ``>`` or ``&`` ("GPT<4 & co",
"q<7>") used to go into the labels' HTML as it was: Qt read it as markup and showed something
else (a tag swallowed, text in bold). What the label renders must be the name itself.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from goldenlens.core.calibration.labels import LabelSource, LabelState
from goldenlens.queries.labelling import AnswerCard
from goldenlens.ui.importer.preview_model import describe_preview
from goldenlens.ui.labelling.answer_card import AnswerCardWidget
from goldenlens.ui.labelling.labelling_pane import LabellingPane
from goldenlens.ui.review.override_dialog import OverrideDialog

PIPELINE = "GPT<4 & co"
OTHER = "<i>tuned</i>"
QUESTION = "q<7>"


def _shown(html_text: str) -> str:
    document = QTextDocument()
    document.setHtml(html_text)
    return document.toPlainText()


def test_an_answer_cards_pipelines_read_as_written(qtbot: QtBot) -> None:
    card = AnswerCard((PIPELINE, OTHER), "Paris", 1.0, LabelState.NONE, LabelSource.NONE, None)
    widget = AnswerCardWidget(0, card)
    qtbot.addWidget(widget)
    assert _shown(widget.pipelines_label.text()) == f"{PIPELINE} (the same answer: {OTHER})"


def test_the_override_dialog_heading_reads_as_written(qtbot: QtBot) -> None:
    dialog = OverrideDialog("factual_knowledge", PIPELINE, QUESTION, 0.0, None, "Ana")
    qtbot.addWidget(dialog)
    headings = [label.text() for label in dialog.findChildren(QLabel) if " of " in label.text()]
    assert [_shown(text) for text in headings] == [f"Factual knowledge of {QUESTION} / {PIPELINE}"]


def test_the_labels_tabs_estimates_name_pipelines_as_written(qtbot: QtBot) -> None:
    pane = LabellingPane()
    qtbot.addWidget(pane)
    estimate = SimpleNamespace(
        pipeline=PIPELINE, interval=SimpleNamespace(estimate=0.5, low=0.4, high=0.6), labelled=12
    )
    found = SimpleNamespace(checked=True, estimates=[estimate], headline=lambda: "Checked against 12 labels.")
    pane.show_estimates(cast(Any, found))
    assert f"{PIPELINE}\n0.50\n±0.10\n12" in _shown(pane.estimates_label.text())


def test_the_import_preview_names_its_file_and_sheet_as_written() -> None:
    preview = SimpleNamespace(
        sheet="Q&A <final>", sheets=("Q&A <final>",), rows=[], total_rows=0, file="a<b>.xlsx"
    )
    shown = _shown(describe_preview(cast(Any, preview)))
    assert shown.startswith("a<b>.xlsx — sheet 'Q&A <final>' (1 in the workbook)")
