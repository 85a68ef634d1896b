"""The report as JSON or CSV, for scripts and CI pipelines (the workbook is report_writer)."""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cache
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any, Final, TextIO, cast

from goldenlens.core.inputs import GoldenItem
from goldenlens.core.lexical.flags import Flag
from goldenlens.core.lexical.scorer import FACT_SCORE_NAMES, LEXICAL_SCORE_NAMES
from goldenlens.core.lexical.signature import Signature
from goldenlens.core.problems import Problem
from goldenlens.core.reviewer_decisions import AppliedOverride, QuestionReview, review_counts
from goldenlens.core.scored_rows import Report
from goldenlens.core.scores import ScoreRecord, ScoreStatus
from goldenlens.io.atomic_files import write_atomically

#: Judge scores of a run: ``{(question_id, pipeline): {metric: record}}``.
JudgeScores = Mapping[tuple[str, str], Mapping[str, ScoreRecord]]


def judge_metric_names(judge: JudgeScores) -> list[str]:
    """The judge metrics present, in first-seen order."""
    names: list[str] = []
    for by_metric in judge.values():
        names.extend(name for name in by_metric if name not in names)
    return names


def _judge_fields(
    key: tuple[str, str], judge: JudgeScores, metrics: Sequence[str]
) -> dict[str, dict[str, Any]]:
    """``judge`` {metric: value|None}, ``judge_status`` {metric: status|None} and
    ``judge_reasons`` {metric: reason} (not-scored metrics only) of one row."""
    by_metric = judge.get(key, {})
    values: dict[str, float | None] = {}
    status: dict[str, str | None] = {}
    reasons: dict[str, str] = {}
    for name in metrics:
        record = by_metric.get(name)
        values[name] = None if record is None else record.value
        status[name] = None if record is None else ScoreStatus(record.status).value
        if record is not None and record.status is ScoreStatus.NOT_SCORED:
            reasons[name] = record.reason
    return {"judge": values, "judge_status": status, "judge_reasons": reasons}


def override_fields(override: AppliedOverride) -> dict[str, Any]:
    """An override as JSON: the effective value, the stored score it replaced (``None``: not
    scored), the pass/fail verdict (``None`` when none was given), who, when and why."""
    return {
        "value": override.value,
        "original": override.original,
        "passed": override.passed,
        "reviewer": override.reviewer,
        "created_at": override.created_at,
        "note": override.note,
    }


def review_fields(review: QuestionReview) -> dict[str, str]:
    return {
        "status": review.status,
        "note": review.note,
        "reviewer": review.reviewer,
        "updated_at": review.updated_at,
    }


def report_rows(report: Report, judge: JudgeScores | None = None) -> list[dict[str, Any]]:
    """:func:`iter_report_rows` as a list."""
    return list(iter_report_rows(report, judge))


def iter_report_rows(report: Report, judge: JudgeScores | None = None) -> Iterator[dict[str, Any]]:
    """One dict per (question, pipeline) (:func:`report_row_fields`)."""
    metrics = judge_metric_names(judge) if judge else []
    for row in report.rows:
        yield report_row_fields(
            row.key,
            row.scores,
            row.result.reasons,
            row.flags,
            review=report.review(row.item.id),
            overrides=row.overrides,
            judge=judge,
            judge_metrics=metrics,
        )


def report_row_fields(
    key: tuple[str, str],
    scores: Mapping[str, float | None],
    reasons: Mapping[str, str],
    flags: Sequence[Flag],
    *,
    review: QuestionReview,
    overrides: Mapping[str, AppliedOverride],
    judge: JudgeScores | None = None,
    judge_metrics: Sequence[str] = (),
) -> dict[str, Any]:
    """A report row: :func:`row_fields` of the effective ``scores``; with ``judge``, also
    ``judge``/``judge_status``/``judge_reasons`` of ``judge_metrics``
    (:func:`judge_metric_names` of ``judge``, worked out once per report)."""
    fields = row_fields(
        key[0],
        key[1],
        scores,
        reasons=reasons,
        flags=[flag.value for flag in flags],
        review=review,
        overrides=overrides,
    )
    if judge:
        fields |= _judge_fields(key, judge, judge_metrics)
    return fields


_SCORED, _NOT_SCORED = ScoreStatus.SCORED.value, ScoreStatus.NOT_SCORED.value
_ALL_SCORED = dict.fromkeys(LEXICAL_SCORE_NAMES, _SCORED)


def row_fields(
    question_id: str,
    pipeline: str,
    scores: Mapping[str, float | None],
    *,
    reasons: Mapping[str, str],
    flags: Sequence[str],
    review: QuestionReview,
    overrides: Mapping[str, AppliedOverride],
) -> dict[str, Any]:
    """A report row: ids, the seven effective scores (overrides applied; ``None``: not
    scored), the ``status`` of each and the ``reasons`` of the not-scored ones, the flag
    names, the question's ``review_status``/``review_note`` and ``overrides``
    {metric: :func:`override_fields`} (lexical and judge metrics)."""
    values = [scores[name] for name in LEXICAL_SCORE_NAMES]
    if None in values:
        pairs = list(zip(LEXICAL_SCORE_NAMES, values, strict=True))
        status = {name: _SCORED if v is not None else _NOT_SCORED for name, v in pairs}
        why = {name: reasons.get(name, "") for name, v in pairs if v is None}
    else:  # the common case, without a comparison per metric
        status, why = dict(_ALL_SCORED), {}
    return {
        "question_id": question_id,
        "pipeline": pipeline,
        **dict(zip(LEXICAL_SCORE_NAMES, values, strict=True)),
        "status": status,
        "reasons": why,
        "flags": list(flags),
        "review_status": review.status,
        "review_note": review.note,
        "overrides": {metric: override_fields(o) for metric, o in overrides.items()},
    }


def row_json(fields: Mapping[str, Any]) -> str:
    """A row of the JSON report as its one line (compact, C-encoded)."""
    return _dumps(fields)


def fresh_row_json(
    question_id: str,
    pipeline: str,
    values: Sequence[float | None],
    *,
    flags: Sequence[str],
    reasons: Mapping[str, str],
) -> str:
    """:func:`row_json` of :func:`row_fields` for a row nobody has reviewed or overridden
    (every row of a report scored without a project), filled into a template instead of
    encoding a dict: the same text, several times faster. ``values`` are the seven scores in
    :data:`LEXICAL_SCORE_NAMES` order (``reasons`` say why those that are ``None`` are not
    scored); a row with a value not scored, or not finite, is encoded the general way."""
    if None in values or not all(map(math.isfinite, cast(Sequence[float], values))):
        scores = dict(zip(LEXICAL_SCORE_NAMES, values, strict=True))
        return row_json(
            row_fields(
                question_id,
                pipeline,
                scores,
                reasons=reasons,
                flags=flags,
                review=QuestionReview(),
                overrides={},
            )
        )
    # encode_basestring is what json.dumps(..., ensure_ascii=False) calls for a str (the C
    # encoder) without its per-call set-up; %r writes a float as json does (float.__repr__).
    return _fresh_row_template() % (
        encode_basestring(question_id),
        encode_basestring(pipeline),
        *values,
        _flags_json(tuple(flags)),
    )


def fresh_rows_text(
    rows: Iterable[tuple[str, str, Sequence[float | None], Sequence[str], Mapping[str, str]]],
    *,
    no_negative_zero: bool = False,
) -> str:
    """:func:`fresh_row_json` of each ``(question_id, pipeline, values, flags, reasons)``, joined
    with :data:`ROW_SEPARATOR`: the text of a chunk of rows as the report writes it.

    Where GoldenLens's C extension was built, the pieces of every row are joined in one call of
    it (``goldenlens.io.reports._json_rows``), the ids and flag lists encoded here once per distinct
    text; a chunk with a value not scored is joined in Python instead (:func:`python_rows_text`)."""
    if _json_rows is None:
        return python_rows_text(rows, no_negative_zero=no_negative_zero)
    rows = rows if isinstance(rows, list) else list(rows)
    escaped = _JsonText()
    text = _json_rows(
        _fresh_row_pieces(),
        [escaped[row[0]] for row in rows],
        [escaped[row[1]] for row in rows],
        [row[2] for row in rows],
        [_flags_json(tuple(row[3])) for row in rows],
        ROW_SEPARATOR,
    )
    return python_rows_text(rows, no_negative_zero=no_negative_zero) if text is None else text


class _JsonText(dict[str, str]):
    """Each text's JSON string (``encode_basestring``), worked out once: a chunk's rows share
    their few pipelines, and a question's rows its id."""

    def __missing__(self, text: str) -> str:
        found = self[text] = encode_basestring(text)
        return found


#: ``goldenlens.io.reports._json_rows.json_rows`` (``None`` where the C extension was not built).
_json_rows: Callable[..., str | None] | None
try:  # the rows joined in C (optional: built where a C compiler is at hand)
    from goldenlens.io.reports import _json_rows as _json_rows_in_c
except ImportError:
    _json_rows = None
else:
    _json_rows = _json_rows_in_c.json_rows

#: Whether a chunk's rows are joined by the C extension (``goldenlens.io.reports._json_rows``).
ROWS_IN_C: Final = _json_rows is not None


def python_rows_text(
    rows: Iterable[tuple[str, str, Sequence[float | None], Sequence[str], Mapping[str, str]]],
    *,
    no_negative_zero: bool = False,
) -> str:
    """:func:`fresh_rows_text` in Python. The pieces of every line are joined at once (a line
    is not made on its own, then copied again into the chunk), with the float texts and the
    flag lists looked up, not worked out again. ``no_negative_zero``: the caller knows no value
    is -0.0, so the text of 0.0 (the commonest value) is looked up too."""
    p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10 = _fresh_row_pieces()  # 2 ids, 7 values, flags
    flag_lists: dict[tuple[str, ...], str] = {}
    float_text = (_FLOAT_TEXT_OF_ANY if no_negative_zero else _FLOAT_TEXT).__getitem__
    out: list[str] = []
    extend = out.extend
    for question_id, pipeline, values, flags, reasons in rows:
        if out:
            out.append(ROW_SEPARATOR)
        try:
            v0, v1, v2, v3, v4, v5, v6 = map(float_text, values)
        except _NoFloatTextError:  # a value not scored (or not a finite float): the general way
            out.append(fresh_row_json(question_id, pipeline, values, flags=flags, reasons=reasons))
            continue
        key = tuple(flags)
        flag_list = flag_lists.get(key)
        if flag_list is None:
            flag_list = flag_lists[key] = _flags_json(key)
        extend(
            (p0, encode_basestring(question_id), p1, encode_basestring(pipeline), p2, v0, p3, v1, p4, v2, p5)
        )
        extend((v3, p6, v4, p7, v5, p8, v6, p9, flag_list, p10))
    return "".join(out)


class _NoFloatTextError(Exception):
    """A value :class:`_FloatText` has no text for: ``None``, not a float, or not finite."""


class _FloatText(dict[object, str]):
    """Each finite float's JSON text (``float.__repr__``), worked out once: the rows of a run
    share few distinct values (0.0, 1.0 and ratios of small word counts), and the shortest repr
    of a ratio is the costliest step of a row's line. Zeros are kept only by a cache for values
    known to hold no -0.0 (``zeros``): 0.0 and -0.0 are one key of a dict but two texts.
    ``None``, a float that is not finite and any other type (an ``int`` would find the text of
    the equal float) raise :class:`_NoFloatTextError` when first met; the values are the
    scorer's floats, so one never is met after a float equal to it. Bounded: emptied when it
    holds :data:`_FLOAT_TEXTS` values."""

    def __init__(self, *, zeros: bool) -> None:
        super().__init__()
        self._zeros = zeros

    def __missing__(self, value: object) -> str:
        if type(value) is not float or not math.isfinite(value):
            raise _NoFloatTextError(value)
        text = float.__repr__(value)
        if value or self._zeros:
            if len(self) >= _FLOAT_TEXTS:
                self.clear()
            self[value] = text
        return text


_FLOAT_TEXTS: Final = 1 << 16
_FLOAT_TEXT: Final = _FloatText(zeros=False)
#: For values with no -0.0 among them (:func:`fresh_rows_text`'s ``no_negative_zero``).
_FLOAT_TEXT_OF_ANY: Final = _FloatText(zeros=True)


@cache
def _flags_json(flags: tuple[str, ...]) -> str:
    """A row's flag list as JSON (few distinct lists occur: each is encoded once)."""
    return "[" + ", ".join([encode_basestring(flag) for flag in flags]) + "]"


@cache
def _fresh_row_template() -> str:
    """:func:`_fresh_row_pieces` as a %-format: a ``%s`` for each text hole, ``%r`` for each value."""
    pieces = [piece.replace("%", "%%") for piece in _fresh_row_pieces()]
    holes = ["%s", "%s", *("%r" for _ in LEXICAL_SCORE_NAMES), "%s"]
    return "".join(piece + hole for piece, hole in zip(pieces, holes, strict=False)) + pieces[-1]


@cache
def _fresh_row_pieces() -> tuple[str, ...]:
    """The literal text between the holes of a fresh row's JSON line, taken from the line
    :func:`row_fields` gives a row of marker values, so the template cannot drift from it.
    Holes in order: question id, pipeline, the seven values, the flags."""
    markers = [0.015625 * (n + 1) for n in range(len(LEXICAL_SCORE_NAMES))]  # exact binary fractions
    text = row_json(
        row_fields(
            "\x00q",
            "\x00p",
            dict(zip(LEXICAL_SCORE_NAMES, markers, strict=True)),
            reasons={},
            flags=["\x00f"],
            review=QuestionReview(),
            overrides={},
        )
    )
    holes = [_dumps("\x00q"), _dumps("\x00p"), *(float.__repr__(m) for m in markers), _dumps(["\x00f"])]
    pieces: list[str] = []
    for hole in holes:
        before, found, text = text.partition(hole)
        if not found or hole in text:  # each hole once, in this order
            raise AssertionError(f"the report row layout changed: {hole!r} is not where it was")
        pieces.append(before)
    return (*pieces, text)


def judge_signatures(judge: JudgeScores) -> dict[str, str]:
    """Each judge metric's signature JSON (the first stored record's), in first-seen order.
    A record made only to carry a reviewer's override has no signature and is skipped."""
    found: dict[str, str] = {}
    for by_metric in judge.values():
        for name, record in by_metric.items():
            if record.signature:
                found.setdefault(name, record.signature)
    return found


def report_to_dict(report: Report, judge: JudgeScores | None = None) -> dict[str, Any]:
    """The JSON report: rows, per-pipeline means of the effective scores (``summary``), the
    overridden values per pipeline and metric (``overridden``, ``overridden_total``), every
    question's review state (``reviews``), flags, signatures and input problems."""
    head, tail = _report_parts(report, judge)
    return {**head, "rows": report_rows(report, judge), **tail}


def report_head(judge: JudgeScores | None) -> dict[str, Any]:
    """The JSON report's entries before ``rows``."""
    return {"judge_signatures": judge_signatures(judge)} if judge else {}


def _report_parts(report: Report, judge: JudgeScores | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The JSON report's entries before and after ``rows``: the judge's signatures, means per
    pipeline, models and caveat come first."""
    # judge_summary builds on this module's judge helpers, so it is imported here.
    from goldenlens.io.reports.judge_summary import judge_summary_entries

    head = report_head(judge)
    if judge:
        head |= judge_summary_entries(report, judge)
    return head, report_tail(
        report.golden,
        summary=report.summary(),
        comparisons=report.decision().as_dict(),
        overridden=report.override_counts(),
        review=report.review,
        golden_flags=report.golden_flags,
        signatures=report.signatures,
        problems=report.problems,
    )


def report_tail(
    golden: Sequence[GoldenItem],
    *,
    summary: Mapping[str, Mapping[str, float | None]],
    comparisons: Mapping[str, Any],
    overridden: Mapping[str, Mapping[str, int]],
    review: Callable[[str], QuestionReview],
    golden_flags: Mapping[str, Sequence[Flag]],
    signatures: Mapping[str, Signature],
    problems: Sequence[Problem],
) -> dict[str, Any]:
    """The JSON report's entries after ``rows``: per-pipeline means of the effective scores,
    their intervals and the pipelines' paired comparisons (``comparisons``,
    :meth:`goldenlens.core.stats.decision.Decision.as_dict`), overridden values, every question's
    review state, flags, signatures, input problems."""
    # Equal reviews (most questions are unreviewed) and equal flag lists share one value, which
    # the writer then encodes once (:func:`_write_entry`).
    review_values: dict[QuestionReview, dict[str, str]] = {}
    flag_values: dict[tuple[Flag, ...], list[str]] = {}
    reviews = [review(item.id) for item in golden]
    return {
        "summary": summary,
        "comparisons": comparisons,
        "overridden": overridden,
        "overridden_total": sum(sum(by_metric.values()) for by_metric in overridden.values()),
        "reviews": {
            item.id: review_values.get(found) or review_values.setdefault(found, review_fields(found))
            for item, found in zip(golden, reviews, strict=True)
        },
        "review_counts": review_counts(reviews),
        "golden_flags": {
            qid: flag_values.get(key) or flag_values.setdefault(key, [f.value for f in key])
            for qid, flags in golden_flags.items()
            if (key := tuple(flags))
        },
        "signatures": {name: sig.short() for name, sig in signatures.items()},
        "problems": [p.as_dict() for p in problems],
    }


#: Entries of the JSON report with one element per row or question: written one element a
#: line (compact JSON, C-encoded), the rest indented.
_PER_LINE = frozenset({"rows", "reviews", "golden_flags", "problems"})


def write_report_json(report: Report, path: Path, judge: JudgeScores | None = None) -> None:
    """The report as one JSON document, streamed row by row (one row a line, never the whole
    document in memory), written whole or not at all (:class:`ExportError`)."""
    head, tail = _report_parts(report, judge)
    lines = (row_json(row) for row in iter_report_rows(report, judge))
    write_json_document(path, head, lines, lambda: tail)


def write_json_document(
    path: Path,
    head: Mapping[str, Any],
    row_lines: Iterable[str],
    tail: Callable[[], Mapping[str, Any]],
) -> None:
    """The JSON report from its parts: ``head`` entries, ``rows`` (each already one line of
    JSON, :func:`row_json`), then the entries ``tail()`` returns once every row is written
    (so rows can be written as they are scored); written whole or not at all."""
    write_atomically(path, lambda temporary: _write_json(temporary, head, row_lines, tail))


def _write_json(
    path: Path, head: Mapping[str, Any], row_lines: Iterable[str], tail: Callable[[], Mapping[str, Any]]
) -> None:
    with path.open("w", encoding="utf-8") as handle:
        handle.write("{")
        for name, value in head.items():
            _write_entry(handle, name, value)
            handle.write(",")
        handle.write(f"\n  {_dumps('rows')}: ")
        _write_lines(handle, iter(row_lines), "[", "]")
        for name, value in tail().items():
            handle.write(",")
            _write_entry(handle, name, value)
        handle.write("\n}\n")


def _write_entry(handle: TextIO, name: str, value: Any) -> None:
    handle.write(f"\n  {_dumps(name)}: ")
    if name in _PER_LINE and isinstance(value, dict):
        # A value object met again is the same value: encoded once (the report's tail shares
        # one value among the questions with equal reviews or flags).
        encoded: dict[int, str] = {}

        def entry(key: Any, item: Any) -> str:
            found = encoded.get(id(item))
            if found is None:
                found = encoded[id(item)] = _dumps(item)
            return f"{encode_basestring(key) if type(key) is str else _dumps(key)}: {found}"

        _write_lines(handle, (entry(k, v) for k, v in value.items()), "{", "}")
    elif name in _PER_LINE and isinstance(value, list):
        _write_lines(handle, (_dumps(v) for v in value), "[", "]")
    else:
        handle.write(json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n  "))


def _dumps(value: Any) -> str:
    # No indent: the C encoder, several times faster than the indenting pure-Python one.
    return json.dumps(value, ensure_ascii=False)


#: Between two lines of a list of the JSON report (``rows``, ``problems``…); a writer may give
#: several rows as one line joined with it.
ROW_SEPARATOR = ",\n    "


def _write_lines(handle: TextIO, lines: Iterator[str], opening: str, closing: str) -> None:
    handle.write(opening)
    first = True
    for line in lines:
        handle.write("\n    " if first else ROW_SEPARATOR)
        handle.write(line)  # not added to the separator first: a line may be a chunk of rows
        first = False
    handle.write(closing if first else f"\n  {closing}")


#: Per overridden metric, the CSV columns after the value: ``<metric>_<suffix>``.
OVERRIDE_CSV_SUFFIXES: tuple[str, ...] = ("original", "override_by", "override_at", "override_note")


def overridden_metrics(report: Report) -> list[str]:
    """Metrics overridden at least once in the report: lexical ones in score order, then
    judge ones in first-seen order."""
    found = {metric for row in report.rows for metric in row.overrides}
    judge = [m for row in report.rows for m in row.overrides if m not in LEXICAL_SCORE_NAMES]
    return [m for m in LEXICAL_SCORE_NAMES if m in found] + list(dict.fromkeys(judge))


def _override_cells(overrides: Mapping[str, Any], metrics: Sequence[str]) -> dict[str, Any]:
    cells: dict[str, Any] = {"overridden": ";".join(m for m in metrics if m in overrides)}
    for metric in metrics:
        found = overrides.get(metric)
        values = (
            ("", "", "", "")
            if found is None
            else (found["original"], found["reviewer"], found["created_at"], found["note"])
        )
        cells |= {f"{metric}_{suffix}": v for suffix, v in zip(OVERRIDE_CSV_SUFFIXES, values, strict=True)}
    return cells


def write_report_csv(report: Report, path: Path, judge: JudgeScores | None = None) -> None:
    """UTF-8 with BOM so Excel opens accented text correctly; flags joined with ``;``.

    Scores are the effective values (reviewer overrides applied); a not-scored lexical value is
    an empty cell, with the reason in ``<metric>_reason`` (the two Factual Knowledge metrics,
    the only lexical ones that can be not scored). ``review_status`` and ``review_note`` give
    the question's review, ``overridden`` the row's overridden metrics (``;``-joined), and each
    metric overridden anywhere in the report adds the columns ``<metric>_original`` (empty when
    it was not scored), ``_override_by``, ``_override_at`` and ``_override_note``. With
    ``judge``, each judge metric adds a value column (empty when not scored) and a
    ``<metric>_reason`` column (why it was not scored). Written whole or not at all
    (:class:`ExportError`)."""
    write_atomically(path, lambda temporary: _write_csv(report, temporary, judge))


def _write_csv(report: Report, path: Path, judge: JudgeScores | None) -> None:
    metrics = judge_metric_names(judge) if judge else []
    judge_columns = [column for name in metrics for column in (name, f"{name}_reason")]
    fact_reasons = [f"{name}_reason" for name in FACT_SCORE_NAMES]
    overridden = overridden_metrics(report)
    override_columns = [f"{m}_{suffix}" for m in overridden for suffix in OVERRIDE_CSV_SUFFIXES]
    fields = [
        "question_id",
        "pipeline",
        *LEXICAL_SCORE_NAMES,
        *fact_reasons,
        "flags",
        *judge_columns,
        "review_status",
        "review_note",
        "overridden",
        *override_columns,
    ]
    with path.open("w", newline="", encoding="utf-8-sig") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        for row in iter_report_rows(report, judge):
            values = row.pop("judge", {})
            reasons = row.pop("judge_reasons", {})
            row.pop("judge_status", None)
            row.pop("status")
            lexical_reasons = row.pop("reasons")
            cells_lexical = {f"{name}_reason": lexical_reasons.get(name, "") for name in FACT_SCORE_NAMES}
            cells = {name: values.get(name) for name in metrics}
            cells |= {f"{name}_reason": reasons.get(name, "") for name in metrics}
            cells |= _override_cells(row.pop("overrides"), overridden)
            writer.writerow({**row, **cells_lexical, "flags": ";".join(row["flags"]), **cells})
