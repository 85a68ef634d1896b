"""Writing reviewer labels: one verdict (the command line, the labelling view), a whole file of
them (all or nothing), and the undo of each: a verdict withdrawn, a response detached from the
verdict of the same answer given elsewhere (and attached again), stale labels confirmed.

Every label remembers the answer key and the golden version it was given on (see
:mod:`goldenlens.core.calibration.labels`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from goldenlens.core.calibration.labels import (
    GOLDEN_CHANGED,
    STATE_OF_VERDICT,
    LabelKind,
    LabelledResponses,
    LabelRecord,
    LabelSource,
    LabelState,
    Verdict,
    parse_verdict,
    verdict_spellings,
)
from goldenlens.core.errors import GoldenLensError
from goldenlens.core.problems import InputError, Problem, Severity
from goldenlens.core.view.wording import one_line
from goldenlens.io.importing.labels_file import LabelRow, LabelsFile, read_labels_file
from goldenlens.io.reports.csv_cells import neutralised
from goldenlens.jobs.project_access import takes_project
from goldenlens.store.project import ProjectStore


class LabelError(GoldenLensError):
    """A label that cannot be given: no such response, or no such verdict."""


@dataclass(frozen=True)
class LabelOutcome:
    """What a verdict was given to: the response, the pipelines whose same answer takes it, and
    those that gave the same answer but keep a verdict of their own that differs."""

    question_id: str
    pipeline: str
    verdict: Verdict | None
    same_answer: tuple[str, ...]
    #: ``(pipeline, its own verdict)``: one answer, two verdicts (each response's own wins).
    disagreeing: tuple[tuple[str, str], ...] = ()


def disagreements(responses: LabelledResponses, n: int) -> tuple[tuple[str, str], ...]:
    """``(pipeline, verdict)`` of each other response that gave response ``n``'s answer to its
    question (:meth:`~goldenlens.core.calibration.labels.LabelledResponses.same_answer`: neither
    detached) and holds a verdict of its own that differs from ``n``'s own verdict."""
    mine = responses.labels[n]
    if mine.source is not LabelSource.DIRECT:
        return ()
    found = []
    for m in responses.same_answer_positions(n):
        other = responses.labels[m]
        if other.source is LabelSource.DIRECT and other.state is not mine.state:
            found.append((responses.keys[m][1], other.state.name.lower()))
    return tuple(found)


class _Questions:
    """The project's question ids, found as written or spelled in another case (golden ids are
    unique ignoring case, and an import joins responses to them so: "Q07" is q07)."""

    def __init__(self, ids: Iterable[str]) -> None:
        self.ids = set(ids)
        self._by_case = {q.casefold(): q for q in self.ids}

    def find(self, written: str) -> str | None:
        return written if written in self.ids else self._by_case.get(written.casefold())


def _question_id(store: ProjectStore, written: str) -> str:
    """The project's id of the question ``written`` names (as :class:`_Questions` finds it), or
    ``written`` when none is (the error then names it as written)."""
    return _Questions(store.golden.ids()).find(written) or written


def _response(responses: LabelledResponses, question_id: str, pipeline: str) -> int:
    found = responses.index().get((question_id, pipeline))
    if found is not None:
        return found
    pipelines = responses.pipelines_of(question_id)
    if not pipelines:
        raise LabelError(f"no question {question_id!r} in the project (or no response to it)")
    raise LabelError(_no_response(question_id, pipeline, pipelines))


def _no_response(question_id: str, pipeline: str, pipelines: Iterable[str]) -> str:
    """Why no response is labelled: the question's responses are from other pipelines."""
    return (
        f"question {question_id!r} has no response from {pipeline!r} "
        f"(its responses are from {', '.join(pipelines)})"
    )


def _new(
    responses: LabelledResponses,
    n: int,
    kind: LabelKind,
    verdict: Verdict | None,
    *,
    reviewer: str = "",
    note: str = "",
    source: str = "",
) -> LabelRecord:
    key = responses.response_keys[n]
    return LabelRecord(
        0,
        key.question_id,
        key.pipeline,
        kind,
        verdict,
        key.answer_key,
        key.golden_key,
        reviewer=reviewer,
        note=note,
        source=source,
    )


@takes_project
def label_response(
    store: ProjectStore,
    question_id: str,
    pipeline: str,
    verdict: Verdict | str,
    *,
    note: str = "",
    reviewer: str = "",
    source: str = "",
) -> LabelOutcome:
    """Record a reviewer's verdict on one response (it holds for the same answer elsewhere)."""
    chosen = verdict if isinstance(verdict, Verdict) else parse_verdict(verdict)
    if chosen is None:
        raise LabelError(f"{verdict!r} is not a verdict: say {verdict_spellings()}")
    question_id = _question_id(store, question_id)
    responses = store.labels.in_force(question_id)
    n = _response(responses, question_id, pipeline)
    store.labels.add(
        [_new(responses, n, LabelKind.VERDICT, chosen, reviewer=reviewer, note=note, source=source)],
        what=f"save the label of {question_id}/{pipeline}",
    )
    after = store.labels.in_force(question_id)
    mine = after.index()[responses.keys[n]]
    shared = set(after.same_answer(mine))
    taking = tuple(
        key[1]
        for m, key in enumerate(after.keys)
        if key[1] in shared and after.labels[m].source is LabelSource.SAME_ANSWER
    )
    return LabelOutcome(question_id, pipeline, chosen, taking, disagreements(after, mine))


@takes_project
def clear_label(store: ProjectStore, question_id: str, pipeline: str, *, reviewer: str = "") -> None:
    """Withdraw the response's own verdict (and with it the same answer's, where it came from it)."""
    question_id = _question_id(store, question_id)
    responses = store.labels.in_force(question_id)
    n = _response(responses, question_id, pipeline)
    store.labels.add(
        [_new(responses, n, LabelKind.CLEARED, None, reviewer=reviewer)], what="withdraw the label"
    )


@takes_project
def detach_response(store: ProjectStore, question_id: str, pipeline: str, *, attach: bool = False) -> None:
    """Stop (or, with ``attach``, start again) taking the verdict of the same answer given to
    another pipeline: the response is then asked about on its own."""
    question_id = _question_id(store, question_id)
    responses = store.labels.in_force(question_id)
    n = _response(responses, question_id, pipeline)
    kind = LabelKind.ATTACHED if attach else LabelKind.DETACHED
    store.labels.add([_new(responses, n, kind, None)], what="change how the label applies")


@takes_project
def confirm_stale(
    store: ProjectStore, question_ids: Iterable[str] | None = None, *, reviewer: str = ""
) -> int:
    """Give each label made before its golden item changed again on the current version (the
    reviewer confirms it still holds); how many were confirmed. A label given on another answer
    text is never confirmed: its verdict is about that text, and the new answer is labelled anew."""
    responses = store.labels.in_force()
    wanted = None if question_ids is None else set(question_ids)
    new = [
        _new(
            responses,
            n,
            LabelKind.VERDICT,
            label.record.verdict,
            reviewer=reviewer or label.record.reviewer,
            note=label.record.note,
            source="confirmed",
        )
        for n, label in enumerate(responses.labels)
        if label.source is LabelSource.STALE
        and label.stale_reason == GOLDEN_CHANGED
        and label.record is not None
        and label.record.verdict is not None
        and (wanted is None or responses.keys[n][0] in wanted)
    ]
    if new:
        store.labels.add(new, what="confirm the stale labels")
    return len(new)


@dataclass(frozen=True)
class LabelsImport:
    """What ``label --from FILE`` wrote."""

    written: int
    #: Rows with an empty verdict, and rows whose verdict is the one in force already.
    skipped: int
    file: str
    unchanged: int = 0
    #: Responses with a verdict in force afterwards, and how many of them hold it because another
    #: pipeline gave the same answer to the question (a verdict holds for the same answer).
    in_force: int = 0
    by_same_answer: int = 0
    #: Of those written, the verdicts that replace another one in force (correct to incorrect…):
    #: ``(question, pipeline, verdict before, verdict now)``.
    replaced: tuple[tuple[str, str, str, str], ...] = ()
    #: Rows giving a response the verdict an earlier row of the file gave it (not written again).
    repeated: int = 0
    #: ``(file row, round)`` of each row that names a plan's round whose sample, as it stands,
    #: does not hold its response (a round drawn anew after the file was written, or a round
    #: the project does not have): counted as a label outside the plans.
    outside_round: tuple[tuple[int, int], ...] = ()
    #: How many rounds the project has (a row naming a higher one names no round of it).
    rounds: int = 0
    #: ``(question, pipeline, verdict, other pipeline, its verdict)`` of each written response
    #: whose answer another pipeline gave with a verdict of its own that differs.
    disagreeing: tuple[tuple[str, str, str, str, str], ...] = ()


class _AnswersNow:
    """Each question's responses as the project holds them, read once per question asked for."""

    def __init__(self, store: ProjectStore) -> None:
        self._store = store
        self._read: dict[str, dict[str, str]] = {}

    def of(self, question_id: str) -> dict[str, str]:
        found = self._read.get(question_id)
        if found is None:
            found = self._read[question_id] = {
                r.pipeline: r.response for r in self._store.responses.of_question(question_id)
            }
        return found


def same_answer_shown(shown: str, now: str) -> bool:
    """Whether a file's response cell shows the answer ``now``: the same text, as a CSV writes
    it (:func:`~goldenlens.io.reports.csv_cells.neutralised`: a leading apostrophe before
    formula-like text), or with its spaces and line breaks changed (a spreadsheet program's
    round trip turns line endings, and a reader strips a cell's ends)."""
    if shown == now or shown == neutralised(now):
        return True
    return " ".join(shown.split()) == " ".join(now.split())


@takes_project
def labels_from_file(
    store: ProjectStore, path: Path, *, sheet: str | None = None, reviewer: str = ""
) -> LabelsImport:
    """Write every verdict of a labels file, or none: a row that gives no verdict one can read,
    names a response that does not exist or no longer shows, or gives a response another
    verdict than an earlier row is an :class:`InputError` naming the row and column, with every
    other such row, in the file's order."""
    found = read_labels_file(path, sheet=sheet)
    table = found.table
    responses = store.labels.in_force()
    index = responses.index()
    questions = _Questions(q for q, _p in responses.keys)
    problems: list[Problem] = list(found.problems)  # the rows the file itself cannot give
    answers_now = _AnswersNow(store)
    given: dict[int, tuple[int, Verdict]] = {}
    new: list[LabelRecord] = []
    unchanged = repeated = 0
    replacements: list[tuple[str, str, str, str]] = []
    for row in found.rows:
        question = questions.find(row.question_id)
        n = index.get((question or row.question_id, row.pipeline))
        if n is None:
            known = question is not None
            column = found.columns["pipeline" if known else "question_id"]
            what = (
                _no_response(row.question_id, row.pipeline, responses.pipelines_of(question or ""))
                if known
                else f"no question {row.question_id!r} in the project"
            )
            problems.append(table.problem(what, Severity.FATAL, row=row.row, column=column))
            continue
        earlier = given.get(n)
        if earlier is not None and earlier[1] is not row.verdict:
            problems.append(
                table.problem(
                    f"{row.question_id}/{row.pipeline} is labelled {earlier[1].value} in row {earlier[0]}"
                    f" and {row.verdict.value} here",
                    Severity.FATAL,
                    row=row.row,
                    column=found.columns["verdict"],
                )
            )
            continue
        if earlier is not None:  # the same verdict again: one label, the row said so
            repeated += 1
            continue
        given[n] = (row.row, row.verdict)
        if row.response is not None:
            now = answers_now.of(responses.keys[n][0]).get(row.pipeline, "")
            if not same_answer_shown(row.response, now):
                problems.append(
                    table.problem(
                        f"this is not {row.pipeline}'s response to {row.question_id} now "
                        f"('{one_line(now, 60)}'): it was answered again after this file was written, or "
                        "this cell was edited, and the verdict may not be about the project's answer. "
                        "Remove the row, or label the answer the project holds (the next plan lists it).",
                        Severity.FATAL,
                        row=row.row,
                        column=found.columns["response"],
                    )
                )
                continue
        state = responses.labels[n].state
        if state is STATE_OF_VERDICT[row.verdict]:
            unchanged += 1  # the verdict in force already (a report read back, a plan labelled twice)
            continue
        replacements += (
            [] if state is LabelState.NONE else [(*responses.keys[n], state.name.lower(), row.verdict.value)]
        )
        new.append(
            _new(
                responses,
                n,
                LabelKind.VERDICT,
                row.verdict,
                reviewer=row.reviewer or reviewer,
                note=row.note,
                source=f"file {path.name}",
            )
        )
    problems = _of_another_project(found, questions) or problems
    if problems:
        problems.sort(key=lambda problem: problem.row or 0)  # in the file's order, as it is fixed
        raise InputError(problems[0], tuple(problems[1:]))
    if new:
        store.labels.add(new, what=f"save the labels of {path.name}")
    final = store.labels.in_force()
    after = final.labels
    in_force = sum(1 for label in after if label.state is not LabelState.NONE)
    by_same_answer = sum(1 for label in after if label.source is LabelSource.SAME_ANSWER)
    return LabelsImport(
        len(new),
        found.skipped,
        path.name,
        unchanged,
        in_force,
        by_same_answer,
        tuple(replacements),
        repeated,
        disagreeing=_file_disagreements(final, {responses.keys[n] for n in given}),
        outside_round=_outside_rounds(store, found.rows),
        rounds=len(store.labels.rounds()),
    )


def _of_another_project(found: LabelsFile, questions: _Questions) -> list[Problem]:
    """For a file none of whose rows (two or more) names a question of the project (a plan or a
    report of another project), its problems: the file's own and one for all those rows,
    instead of one a row. Otherwise none."""
    rows = found.rows
    if len(rows) < 2 or any(questions.find(row.question_id) is not None for row in rows):
        return []
    first = rows[0]
    stranger = found.table.problem(
        f"none of its {len(rows)} rows names a question of this project (this row names "
        f"{first.question_id!r}): is it a file of another project? Label a plan of this one "
        "(goldenlens plan-labels).",
        Severity.FATAL,
        row=first.row,
        column=found.columns["question_id"],
    )
    return [*found.problems, stranger]


def _outside_rounds(store: ProjectStore, rows: Iterable[LabelRow]) -> tuple[tuple[int, int], ...]:
    """:attr:`LabelsImport.outside_round`: the rows whose round (``round`` column: its place
    among the project's rounds, as a plan numbers it) does not sample their response now, each
    response once (a row repeating an earlier one is one label)."""
    named = [row for row in rows if row.round_number is not None]
    if not named:
        return ()
    rounds = store.labels.rounds()
    samples: dict[int, set[tuple[str, str]]] = {}
    outside: list[tuple[int, int]] = []
    seen: set[tuple[str, str]] = set()
    for row in named:
        number = row.round_number
        assert number is not None
        response = (row.question_id.casefold(), row.pipeline)
        if response in seen:
            continue
        seen.add(response)
        if number not in samples:
            exists = 1 <= number <= len(rounds)
            samples[number] = (
                {(q.casefold(), p) for q, p, _pos in store.labels.sample(rounds[number - 1].id)}
                if exists
                else set()
            )
        if response not in samples[number]:
            outside.append((row.row, number))
    return tuple(outside)


def _file_disagreements(
    responses: LabelledResponses, given: set[tuple[str, str]]
) -> tuple[tuple[str, str, str, str, str], ...]:
    """:attr:`LabelsImport.disagreeing` of the responses a file gave verdicts (``given``): each
    one's :func:`disagreements`, each pair once (from the first pipeline by name when the file
    gave both)."""
    found = []
    for n, key in enumerate(responses.keys):
        if key not in given:
            continue
        mine = responses.labels[n].state.name.lower()
        for other, theirs in disagreements(responses, n):
            if (key[0], other) not in given or key[1] < other:  # the pair told from the other
                found.append((key[0], key[1], mine, other, theirs))
    return tuple(found)
