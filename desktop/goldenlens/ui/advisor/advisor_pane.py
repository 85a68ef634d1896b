"""The advisor pane: what the curation advisor says about the current question.

One card per diagnosis, most severe rule first (the advisor's order): a severity badge, the
diagnosis and the pipeline it is about, the explanation naming the numbers that triggered it,
the evidence (each pipeline's answer side by side for an ambiguous question, the responses the
fact matches by accident, the scores against a trimmed answer, the one pipeline's words), the
numbers themselves, the suggested action and — where the diagnosis carries a fix — one button.

The pane only shows and asks: the button emits ``fix_requested`` with the
:class:`ShownDiagnosis`, and :class:`~goldenlens.ui.advisor.advisor_controller.AdvisorController`
applies it through the undoable edit paths. While the advice of the question shown is being
recomputed after an edit, its buttons are disabled so a stale fix cannot be applied twice.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from goldenlens.core.advice.fixes import SOURCE_GENERATOR, SOURCE_RESPONSE, VariantProposal
from goldenlens.core.advice.values import (
    AdviceSeverity,
    Diagnosis,
    FixKind,
    Number,
    PipelineAnswer,
    QuestionAdvice,
)
from goldenlens.core.project_records import Override
from goldenlens.core.view.wording import one_line, plural, short_number
from goldenlens.queries.detail import QuestionDetail
from goldenlens.ui.review.response_card import chip
from goldenlens.ui.widgets.card_labels import card_layout, muted, wrapped_text
from goldenlens.ui.widgets.card_list import CardList
from goldenlens.ui.widgets.highlight_html import response_html
from goldenlens.ui.widgets.layouts import column_layout, title_row

#: Badge text, tooltip and (background, text) colours per severity; explicit colours so the
#: badges read the same on light and dark palettes.
SEVERITY_STYLES: dict[AdviceSeverity, tuple[str, str, tuple[str, str], str]] = {
    AdviceSeverity.HIGH: (
        "● High",
        "A stored score is probably wrong because of the golden row: fix it before reading the numbers.",
        ("#fde2e1", "#7a1c18"),
        "#d9534f",
    ),
    AdviceSeverity.MEDIUM: (
        "● Medium",
        "A number misleads unless it is read with care.",
        ("#fff0c2", "#5c4300"),
        "#d9a400",
    ),
    AdviceSeverity.LOW: ("● Low", "A bias worth knowing about.", ("#e3ecfa", "#1d3557"), "#7f9cc9"),
}
#: Characters of a response shown side by side (the whole text is in the tooltip and the
#: detail pane's card).
ANSWER_CHARS = 420
#: Accidental matches listed under a diagnosis (all are counted in its explanation).
LISTED_MATCHES = 6


@dataclass(frozen=True)
class ShownDiagnosis:
    """A diagnosis as the pane shows it: with the variant a one-click fix would add
    (``proposal``, for ``add_variant`` fixes the reviewer need not write) and the override
    already in effect on the score an ``override_score`` fix would change."""

    diagnosis: Diagnosis
    proposal: VariantProposal | None = None
    override: Override | None = None
    #: How often this diagnosis held on the reviewer's labels ("right on 1 of 19 labelled").
    held: str = ""

    @property
    def question_id(self) -> str:
        return self.diagnosis.question_id


def numbers_text(numbers: dict[str, Number]) -> str:
    """``recall 0.917 · hallucination recall 0.7`` — the numbers that triggered a diagnosis."""
    return " · ".join(f"{name.replace('_', ' ')} {short_number(value)}" for name, value in numbers.items())


def fix_texts(shown: ShownDiagnosis) -> tuple[str, str]:
    """``(button text, note under it)`` of a diagnosis's fix; ``("", "")`` when it has none.

    A text ending in "…" opens something (the golden editor, the override dialog) for the
    reviewer to finish; one without applies at once (and Ctrl+Z undoes it)."""
    d, fix = shown.diagnosis, shown.diagnosis.fix
    if fix is None:
        return "", ""
    if fix.kind is FixKind.ADD_VARIANT:
        return _variant_texts(d, shown.proposal)
    if fix.kind is FixKind.OVERRIDE_SCORE:
        if shown.override is not None:
            return "", _override_text(shown.override)
        return f"{fix.label}…", "Opens the override dialog with the verdict chosen; say why in the note."
    if fix.value:
        return fix.label, f"New {fix.field}: “{one_line(fix.value, 160)}”"
    return f"{fix.label}…", f"Opens the {fix.field} in the golden editor."


def _variant_texts(d: Diagnosis, proposal: VariantProposal | None) -> tuple[str, str]:
    if proposal is None:
        return (
            "Write a fact variant…",
            "Opens the fact in the golden editor: add <OR> and the response's wording. Or select "
            "the words in the response card and right-click ▸ Add selection as fact variant.",
        )
    where = {
        SOURCE_GENERATOR: "a spelling from the variant generator",
        SOURCE_RESPONSE: f"{d.pipeline}'s own words",
    }.get(proposal.source, "the advisor's proposal")
    note = f"Factual Knowledge 0 → 1 for {', '.join(proposal.flips)}; {where}."
    return f"Add “{proposal.text}” as a fact variant", note


def _override_text(override: Override) -> str:
    verdict = override.passed
    state = ("Pass" if verdict else "Fail") if verdict is not None else short_number(override.value or 0.0)
    by = f" by {override.reviewer}" if override.reviewer else ""
    return f"✓ Overridden to {state}{by}: “{override.note}”"


class DiagnosisCard(QFrame):
    """One diagnosis (see the module docstring); ``fix_clicked`` when its button is pressed.

    ``quote``: show the response a pipeline-level diagnosis is about (the pane turns it off
    when an ambiguous-question card above already shows every pipeline's answer)."""

    fix_clicked = Signal(object)

    def __init__(
        self,
        shown: ShownDiagnosis,
        detail: QuestionDetail | None,
        parent: QWidget | None = None,
        *,
        quote: bool = True,
    ) -> None:
        super().__init__(parent)
        self.shown = shown
        d = shown.diagnosis
        badge, tip, colours, edge = SEVERITY_STYLES[d.severity]
        self.setProperty("code", d.code.value)
        layout = card_layout(self, "diagnosisCard", edge)

        head = QHBoxLayout()
        head.setSpacing(8)
        self.badge = chip(badge, tip, colours, name="severityChip")
        head.addWidget(self.badge)
        who = f" <span style='font-weight:400'>— {html.escape(d.pipeline)}</span>" if d.pipeline else ""
        title = html.escape(d.label) + who
        self.title = QLabel(f"<b>{title}</b>")
        head.addWidget(self.title, 1)
        layout.addLayout(head)
        self.held: QLabel | None = None
        if shown.held:
            self.held = muted(wrapped_text(f"On the reviewer's labels: {shown.held}"))
            self.held.setObjectName("heldOnLabels")
            self.held.setToolTip(
                "How often this diagnosis matched the reviewer's verdict on the labelled responses"
            )
            layout.addWidget(self.held)

        self.reviewer: QLabel | None = None
        if d.reviewer:
            weight = "600" if d.refuted else "400"
            self.reviewer = wrapped_text(
                f"<span style='font-weight:{weight}'>{html.escape(d.reviewer)}</span>", rich=True
            )
            self.reviewer.setObjectName("reviewerView")
            self.reviewer.setToolTip(
                "The reviewer's label on this response, else their override of its Factual Knowledge"
            )
            layout.addWidget(self.reviewer)

        self.explanation = wrapped_text(d.explanation)
        layout.addWidget(self.explanation)
        if d.answers:
            layout.addLayout(self._answers(d.answers, detail))
        elif (
            quote and d.pipeline and detail is not None and (said := detail.pipeline(d.pipeline)) is not None
        ):
            layout.addWidget(self._quote(d.pipeline, said.response, detail))
        evidence = self._evidence(d)
        if evidence:
            layout.addWidget(wrapped_text(evidence, rich=True))
        if d.numbers:
            numbers = muted(wrapped_text(f"Numbers: {numbers_text(dict(d.numbers))}"))
            numbers.setObjectName("numbers")
            numbers.setToolTip("The numbers that triggered this diagnosis, thresholds included")
            layout.addWidget(numbers)
        self.action = wrapped_text(f"<b>Suggested:</b> {html.escape(d.action)}", rich=True)
        layout.addWidget(self.action)

        self.fix_button: QPushButton | None = None
        self._add_fix(layout)

    def _add_fix(self, layout: QVBoxLayout) -> None:
        """The fix button and the note under it (or the note alone: an override in effect)."""
        text, note = fix_texts(self.shown)
        if not (text or note):
            return
        row = QHBoxLayout()
        row.setSpacing(8)
        if text:
            self.fix_button = QPushButton(text)
            self.fix_button.setObjectName("fixButton")
            self.fix_button.setToolTip(note)
            self.fix_button.clicked.connect(lambda: self.fix_clicked.emit(self.shown))
            row.addWidget(self.fix_button, 0, Qt.AlignmentFlag.AlignTop)
        self.fix_note = wrapped_text(note)
        if text:  # beside a button the note is secondary; alone it is the state
            muted(self.fix_note)
        row.addWidget(self.fix_note, 1)
        layout.addLayout(row)

    def _answers(self, answers: Sequence[PipelineAnswer], detail: QuestionDetail | None) -> QHBoxLayout:
        """Each pipeline's answer in a box, side by side (highlighted as in the detail pane)."""
        row = QHBoxLayout()
        row.setSpacing(6)
        self.answer_boxes: list[QFrame] = []
        for a in answers:
            box = QFrame()
            box.setObjectName("answerBox")
            box.setProperty("pipeline", a.pipeline)
            box.setStyleSheet("QFrame#answerBox { background: palette(alternate-base); border-radius: 4px; }")
            inner = QVBoxLayout(box)
            inner.setContentsMargins(6, 4, 6, 6)
            inner.setSpacing(2)
            fk = "not scored" if a.factual_knowledge is None else f"{a.factual_knowledge:g}"
            facts = [f"FK {fk}", f"recall {a.recall:.3f}"]
            if a.similarity is not None:
                facts.append(f"similarity {a.similarity:.3f}")
            if a.reading:
                facts.append(f"<i>{html.escape(a.reading.replace('_', ' '))}</i>")
            inner.addWidget(wrapped_text(f"<b>{html.escape(a.pipeline)}</b>", rich=True))
            inner.addWidget(muted(wrapped_text(" · ".join(facts), rich=True)))
            inner.addWidget(_response(a.pipeline, a.response, detail))
            inner.addStretch(1)
            row.addWidget(box, 1)
            self.answer_boxes.append(box)
        return row

    def _quote(self, pipeline: str, response: str, detail: QuestionDetail) -> QFrame:
        """The response a pipeline-level diagnosis is about, as the evidence to read."""
        box = QFrame()
        box.setObjectName("responseQuote")
        box.setStyleSheet("QFrame#responseQuote { background: palette(alternate-base); border-radius: 4px; }")
        inner = QHBoxLayout(box)
        inner.setContentsMargins(6, 4, 6, 4)
        inner.setSpacing(6)
        inner.addWidget(muted(wrapped_text(f"{pipeline} said:")), 0, Qt.AlignmentFlag.AlignTop)
        self.quote = _response(pipeline, response, detail)
        inner.addWidget(self.quote, 1)
        return box

    @staticmethod
    def _evidence(d: Diagnosis) -> str:
        lines = [
            f"• <b>{html.escape(m.question_id)}/{html.escape(m.pipeline)}</b>: “{html.escape(m.excerpt)}”"
            for m in d.false_matches[:LISTED_MATCHES]
        ]
        shown = min(len(d.false_matches), LISTED_MATCHES)
        if d.false_match_count > shown:
            lines.append(f"• … and {d.false_match_count - shown} more")
        lines += [
            f"• <b>{html.escape(s.pipeline)}</b> against the trimmed answer: precision "
            f"{s.precision:.3f} → {s.precision_trimmed:.3f}, recall {s.recall:.3f} → "
            f"{s.recall_trimmed:.3f}, F1 {s.f1:.3f} → {s.f1_trimmed:.3f}"
            for s in d.trimmed
        ]
        if d.words:
            lines.append("Words: " + ", ".join(f"“{html.escape(w)}”" for w in d.words))
        return "<br>".join(lines)

    def set_fix_enabled(self, enabled: bool) -> None:
        if self.fix_button is not None:
            self.fix_button.setEnabled(enabled)


def _response(pipeline: str, response: str, detail: QuestionDetail | None) -> QLabel:
    """A response coloured as the detail pane colours it (matched, extra and fact words),
    cut to :data:`ANSWER_CHARS` with the whole text in the tooltip."""
    shown = detail.pipeline(pipeline) if detail is not None else None
    if shown is not None and shown.response == response and len(response) <= ANSWER_CHARS:
        body = response_html(response, shown.alignment, shown.fact)
    else:
        body = html.escape(one_line(response, ANSWER_CHARS)) or "<i>(no response)</i>"
    label = wrapped_text(body, rich=True)
    label.setToolTip(response if len(response) > ANSWER_CHARS else "")
    return label


class AdvisorPane(QWidget):
    """The current question's diagnoses as :class:`DiagnosisCard` s, or a message.

    Signal: ``fix_requested(ShownDiagnosis)`` — the reviewer pressed a fix button.
    """

    fix_requested = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._fixes_enabled = True
        outer = column_layout(self, (6, 4, 6, 4), spacing=4)
        head, self.title = title_row("Advisor")
        self.summary = QLabel()
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        head.addWidget(self.summary, 1)
        self.status = muted(QLabel())
        head.addWidget(self.status)
        outer.addLayout(head)

        self._stack = QStackedWidget()
        self.message = QLabel("Open a scored project to see the advisor's diagnoses.")
        self.message.setWordWrap(True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        muted(self.message)
        self._stack.addWidget(self.message)
        self.cards_scroll: CardList[DiagnosisCard] = CardList()
        self._stack.addWidget(self.cards_scroll)
        outer.addWidget(self._stack, 1)

    # -- public API -----------------------------------------------------------------------

    def show_message(self, text: str) -> None:
        """Show ``text`` instead of diagnoses (no project, no scores, no question)."""
        self.cards_scroll.clear()
        self.summary.setText("")
        self.message.setText(text)
        self._stack.setCurrentIndex(0)

    def show_question(
        self, advice: QuestionAdvice, shown: Sequence[ShownDiagnosis], detail: QuestionDetail | None
    ) -> None:
        """Show the diagnoses of one question (``shown``, in the advisor's order)."""
        self.cards_scroll.clear()
        qid = html.escape(advice.question_id)
        if not shown:
            self.summary.setText(f"· {qid}")
            self.message.setText(
                f"✓ No diagnosis for {advice.question_id}: "
                "the advisor finds nothing to fix in this golden row."
            )
            self._stack.setCurrentIndex(0)
            return
        by_severity = [
            f"{sum(s.diagnosis.severity is severity for s in shown)} {severity.value}"
            for severity in AdviceSeverity
            if any(s.diagnosis.severity is severity for s in shown)
        ]
        count = plural(len(shown), "diagnosis", "diagnoses")
        self.summary.setText(f"· {qid} · {count} ({', '.join(by_severity)})")
        answered = any(s.diagnosis.answers for s in shown)
        for item in shown:
            card = DiagnosisCard(item, detail, self.cards_scroll.host, quote=not answered)
            card.fix_clicked.connect(self.fix_requested.emit)
            card.set_fix_enabled(self._fixes_enabled)
            self.cards_scroll.add(card)
        self._stack.setCurrentIndex(1)
        self.cards_scroll.verticalScrollBar().setValue(0)

    def set_status(self, text: str) -> None:
        """The header's status text ("Updating the advice…"; ``""``: up to date)."""
        self.status.setText(text)

    def set_fixes_enabled(self, enabled: bool) -> None:
        """Disable the fix buttons while the advice shown is stale (its question was edited and
        the advice is being recomputed): a stale fix must not be applied."""
        self._fixes_enabled = enabled
        for card in self.cards_scroll.cards():
            card.set_fix_enabled(enabled)

    def cards(self) -> list[DiagnosisCard]:
        """The cards shown, in order."""
        return self.cards_scroll.cards()
