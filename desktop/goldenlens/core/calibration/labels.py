"""Reviewer verdicts ("labels") on responses, and what each response's verdict is now.

A label says a person judged an answer: correct, incorrect, or unsure. It is not an override (an
override says what a metric should read). Labels are kept append-only; the latest record of a
response is the one in force. A label belongs to the answer text and the golden item's version it
was given on:

- **direct** — the response's own latest label, given on its current answer and golden version;
- **same answer** — no direct label, but another response to the same question with the same
  :func:`~goldenlens.core.calibration.answers.answer_key` has a current one: it holds here too,
  unless the reviewer detached this response ("not the same answer: judge it on its own");
- **stale** — the only label there is was given on another answer text or another version of the
  golden item: shown, and left out until a reviewer confirms it;
- **none**.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from functools import cached_property
from hashlib import sha256
from typing import Final, NamedTuple

import numpy as np
import numpy.typing as npt

from goldenlens.core.calibration.answers import answer_key


class Verdict(StrEnum):
    """What a reviewer said of an answer."""

    CORRECT = "correct"
    INCORRECT = "incorrect"
    UNSURE = "unsure"


class LabelKind(StrEnum):
    """What a stored label record does."""

    #: A verdict on the response (and, through it, on the same answer elsewhere).
    VERDICT = "verdict"
    #: The response's own verdict withdrawn (an undo).
    CLEARED = "cleared"
    #: The response does not take the verdict of the same answer given elsewhere.
    DETACHED = "detached"
    #: The response takes it again (the undo of a detach).
    ATTACHED = "attached"


#: The spellings a labels file may use, case-insensitive (issue 21).
VERDICT_SPELLINGS: dict[str, Verdict] = {
    **dict.fromkeys(("correct", "yes", "y", "1", "true", "pass", "passed", "right"), Verdict.CORRECT),
    **dict.fromkeys(("incorrect", "no", "n", "0", "false", "fail", "failed", "wrong"), Verdict.INCORRECT),
    **dict.fromkeys(("unsure", "?", "unknown", "not sure", "skip"), Verdict.UNSURE),
}


def verdict_spellings() -> str:
    """Every spelling :func:`parse_verdict` reads, by verdict, for a message or a help text:
    ``correct (yes, y, 1, …), incorrect (no, …), unsure (?, …)``."""

    def others(verdict: Verdict) -> str:
        return ", ".join(
            word for word, of in VERDICT_SPELLINGS.items() if of is verdict and word != verdict.value
        )

    return ", ".join(f"{verdict.value} ({others(verdict)})" for verdict in Verdict)


def parse_verdict(text: str) -> Verdict | None:
    """The verdict ``text`` spells (``"Yes"``, ``"1"``, ``"pass"`` …), or ``None``."""
    cleaned = " ".join(text.strip().casefold().split())
    if cleaned in {"1.0", "0.0"}:
        cleaned = cleaned[0]
    return VERDICT_SPELLINGS.get(cleaned)


def golden_version_key(question: str, answer: str, fact: str) -> str:
    """The golden item's content as a label remembers it: a label given on another question,
    answer or fact text is stale."""
    digest = sha256("\x1f".join((question, answer, fact)).encode("utf-8")).hexdigest()
    return digest[:16]


@dataclass(frozen=True, slots=True)
class LabelRecord:
    """One label record (append-only; ``id`` orders them, 0 for one not written yet: the store
    gives the id and the time)."""

    id: int
    question_id: str
    pipeline: str
    kind: LabelKind
    verdict: Verdict | None
    #: The response's answer key and the golden item's version key when the record was made.
    answer_key: str
    golden_key: str
    reviewer: str = ""
    note: str = ""
    created_at: str = ""
    #: Where it was given ("desktop app", a file's name, "command line").
    source: str = ""


class LabelState(IntEnum):
    """What is known of a response's verdict now, as the estimates use it."""

    NONE = 0
    CORRECT = 1
    INCORRECT = 2
    UNSURE = 3


class LabelSource(StrEnum):
    NONE = "none"
    DIRECT = "direct"
    SAME_ANSWER = "same_answer"
    STALE = "stale"


@dataclass(frozen=True, slots=True)
class ResponseLabel:
    """A response's verdict in force (``state``) and where it comes from."""

    state: LabelState
    source: LabelSource
    #: The record behind it (for the reviewer, note and time shown); ``None`` for ``NONE``.
    record: LabelRecord | None = None
    #: For a stale label, why: "answer changed" or "golden item changed".
    stale_reason: str = ""

    @property
    def known(self) -> bool:
        """Correct or incorrect: a verdict an estimate can use."""
        return self.state in (LabelState.CORRECT, LabelState.INCORRECT)


_NO_LABEL = ResponseLabel(LabelState.NONE, LabelSource.NONE)
#: :attr:`ResponseLabel.stale_reason` of a label given on another answer text: its verdict is
#: about that text, and is never confirmed on the new one.
ANSWER_CHANGED: Final = "answer changed"
#: ... of a label given on the same answer before its golden item changed: it may be confirmed.
GOLDEN_CHANGED: Final = "golden item changed"
#: The label state each verdict gives a response.
STATE_OF_VERDICT = {
    Verdict.CORRECT: LabelState.CORRECT,
    Verdict.INCORRECT: LabelState.INCORRECT,
    Verdict.UNSURE: LabelState.UNSURE,
}


class LabelTarget(NamedTuple):
    """A response with its golden item's texts: what a label is given on."""

    question_id: str
    pipeline: str
    response: str
    question: str
    answer: str
    fact: str


@dataclass(frozen=True, slots=True)
class ResponseKey:
    """A response as labels see it now: its question and pipeline, its answer key and its golden
    item's version key."""

    question_id: str
    pipeline: str
    answer_key: str
    golden_key: str

    @classmethod
    def of(cls, target: LabelTarget) -> ResponseKey:
        """The key of a response as the store reads it for labels."""
        return cls(
            target.question_id,
            target.pipeline,
            answer_key(target.response),
            golden_version_key(target.question, target.answer, target.fact),
        )


def resolve_labels(responses: Sequence[ResponseKey], records: Iterable[LabelRecord]) -> list[ResponseLabel]:
    """Each response's label in force, from every label record of the project (any order)."""
    return _resolved(responses, records)[0]


def _resolved(
    responses: Sequence[ResponseKey], records: Iterable[LabelRecord]
) -> tuple[list[ResponseLabel], dict[tuple[str, str], bool]]:
    """:func:`resolve_labels`, and whether each labelled ``(question, pipeline)`` is detached."""
    latest_verdict: dict[tuple[str, str], LabelRecord] = {}
    detached: dict[tuple[str, str], bool] = {}
    for record in sorted(records, key=lambda found: found.id):
        response = (record.question_id, record.pipeline)
        if record.kind in (LabelKind.VERDICT, LabelKind.CLEARED):
            latest_verdict[response] = record
        elif record.kind is LabelKind.DETACHED:
            detached[response] = True
        elif record.kind is LabelKind.ATTACHED:
            detached[response] = False
    # The same answer's verdict: the latest verdict record (a response's own latest record) given
    # on that answer text, whatever the labelled response's text is now. A detached response's
    # verdict is its own: it is not the same answer's, as it takes none of theirs.
    by_answer: dict[tuple[str, str], LabelRecord] = {}
    for response, record in latest_verdict.items():
        if record.kind is LabelKind.VERDICT and not detached.get(response, False):
            answer = (record.question_id, record.answer_key)
            found = by_answer.get(answer)
            if found is None or record.id > found.id:
                by_answer[answer] = record
    return [_label_of(response, latest_verdict, by_answer, detached) for response in responses], detached


def _label_of(
    response: ResponseKey,
    latest_verdict: dict[tuple[str, str], LabelRecord],
    by_answer: dict[tuple[str, str], LabelRecord],
    detached: dict[tuple[str, str], bool],
) -> ResponseLabel:
    own = latest_verdict.get((response.question_id, response.pipeline))
    current = (
        own is not None and own.answer_key == response.answer_key and own.golden_key == response.golden_key
    )
    if own is not None and own.kind is LabelKind.VERDICT and own.verdict is not None and current:
        return ResponseLabel(STATE_OF_VERDICT[own.verdict], LabelSource.DIRECT, own)
    if not detached.get((response.question_id, response.pipeline), False):
        shared = by_answer.get((response.question_id, response.answer_key))
        if shared is not None and shared.verdict is not None and shared.golden_key == response.golden_key:
            return ResponseLabel(STATE_OF_VERDICT[shared.verdict], LabelSource.SAME_ANSWER, shared)
    if own is not None and own.kind is LabelKind.VERDICT:
        reason = ANSWER_CHANGED if own.answer_key != response.answer_key else GOLDEN_CHANGED
        return ResponseLabel(LabelState.NONE, LabelSource.STALE, own, reason)
    if not detached.get((response.question_id, response.pipeline), False):
        shared = by_answer.get((response.question_id, response.answer_key))
        if shared is not None:
            return ResponseLabel(LabelState.NONE, LabelSource.STALE, shared, GOLDEN_CHANGED)
    return _NO_LABEL


@dataclass(frozen=True)
class LabelledResponses:
    """Responses as labels see them (a whole project's, or one question's): their keys, texts
    and label keys, and the verdict in force on each; no score, no predictor."""

    keys: tuple[tuple[str, str], ...]
    texts: tuple[str, ...]
    response_keys: tuple[ResponseKey, ...]
    labels: tuple[ResponseLabel, ...]
    #: Whether each response is detached from the same answer given elsewhere (judged on its own).
    detached: tuple[bool, ...]

    def index(self) -> dict[tuple[str, str], int]:
        return {key: n for n, key in enumerate(self.keys)}

    def state(self) -> npt.NDArray[np.int8]:
        return np.array([label.state for label in self.labels], dtype=np.int8)

    def same_answer(self, n: int) -> tuple[str, ...]:
        """The other pipelines that gave response ``n``'s answer to its question, and share its
        verdict: none detached, and none when ``n`` is."""
        return tuple(self.response_keys[m].pipeline for m in self.same_answer_positions(n))

    def same_answer_positions(self, n: int) -> tuple[int, ...]:
        """:meth:`same_answer` as positions among these responses."""
        if self.detached[n]:
            return ()
        mine = self.response_keys[n]
        return tuple(m for m in self._answers[(mine.question_id, mine.answer_key)] if m != n)

    def pipelines_of(self, question_id: str) -> list[str]:
        """The pipelines that answered ``question_id``, in response order."""
        return self._pipelines.get(question_id, [])

    @cached_property
    def _pipelines(self) -> dict[str, list[str]]:
        """Each question's pipelines (grouped once, on first use)."""
        groups: dict[str, list[str]] = {}
        for question, pipeline in self.keys:
            groups.setdefault(question, []).append(pipeline)
        return groups

    @cached_property
    def _answers(self) -> dict[tuple[str, str], list[int]]:
        """The responses not detached, by question and answer key (built once, on first use)."""
        groups: dict[tuple[str, str], list[int]] = {}
        for m, key in enumerate(self.response_keys):
            if not self.detached[m]:
                groups.setdefault((key.question_id, key.answer_key), []).append(m)
        return groups


def labelled_responses(targets: Sequence[LabelTarget], records: Iterable[LabelRecord]) -> LabelledResponses:
    """The responses ``targets`` (a whole project's, or one question's, as the store reads them)
    with the verdict in force on each, from every label record of those questions."""
    response_keys = tuple(ResponseKey.of(target) for target in targets)
    labels, detached = _resolved(response_keys, records)
    keys = tuple((t.question_id, t.pipeline) for t in targets)
    texts = tuple(t.response for t in targets)
    on_its_own = tuple(detached.get(key, False) for key in keys)
    return LabelledResponses(keys, texts, response_keys, tuple(labels), on_its_own)
