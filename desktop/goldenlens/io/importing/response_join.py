"""A responses table (long or wide) joined to a golden set → :class:`ResponseSet` plus problems.

Joining, in order: by question id (ignoring case and surrounding spaces); without an id, by
question text after :func:`~goldenlens.core.lexical.normalise.normalise`; then by fuzzy question text
(rapidfuzz ``ratio`` ≥ :data:`FUZZY_CUTOFF`, noted as INFO). Plain ``ratio`` because
questions keep their word order and a typo must not reshuffle a token sort. A fuzzy match
must be clearly better than the runner-up, because golden questions often differ by one word
("first quarter" / "second quarter").
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, cast

from goldenlens.core.bulk_records import bulk_records
from goldenlens.core.inputs import GoldenSet, PipelineResponse, ResponseSet
from goldenlens.core.lexical.normalise import normalise
from goldenlens.core.problems import InputError, Problem, Severity
from goldenlens.core.view.wording import listing, one_line
from goldenlens.io.importing.columns import ResponseColumns
from goldenlens.io.importing.response_coverage import (
    lookalike_problems,
    missing_problems,
    silent_problems,
)
from goldenlens.io.sheets.raw_table import RawTable
from goldenlens.io.sheets.visible_text import visible

FUZZY_CUTOFF = 90.0
# The best fuzzy match must beat the second best by this much to be trusted.
FUZZY_MARGIN = 3.0
# Keys tried, in order, when a contexts list holds objects instead of strings.
_TEXT_KEYS = ("text", "page_content", "content", "passage")
#: Marks an id not looked up yet (``None`` means looked up and not found).
_UNSEEN: Final = object()


def question_key(text: str) -> str:
    """Question text as compared for joining: FMEval normalisation, whitespace collapsed."""
    return " ".join(normalise(text).split())


@dataclass(frozen=True)
class TextMatch:
    """The golden id a question text matched, and the fuzzy score (``None`` for exact)."""

    golden_id: str
    score: float | None = None


class GoldenIndex:
    """Lookups of a golden set by id and by question text."""

    def __init__(self, golden: GoldenSet) -> None:
        self.golden = golden
        self._by_id = {item.id.strip().casefold(): item.id for item in golden.items}
        self._by_raw_id: dict[str, object] = {}
        self._questions = {item.id: item.question for item in golden.items}
        # The question-text lookups are built on first use: joining by id never needs them,
        # and normalising every golden question took a tenth of reading 60,000 responses.
        self._text_index: tuple[dict[str, str | None], dict[str, str], list[str]] | None = None

    def _by_text_keys(self) -> tuple[dict[str, str | None], dict[str, str], list[str]]:
        """(question key → golden id, or ``None`` when several share it; the unique keys'
        ids; those keys in golden order)."""
        if self._text_index is None:
            by_text: dict[str, str | None] = {}
            for item in self.golden.items:
                key = question_key(item.question)
                # Two golden items with the same question text cannot be told apart by text.
                by_text[key] = None if key in by_text else item.id
            unique = {key: golden_id for key, golden_id in by_text.items() if golden_id is not None}
            self._text_index = (by_text, unique, list(unique))
        return self._text_index

    def by_id(self, raw: str) -> str | None:
        """The golden id for ``raw`` ignoring case and surrounding spaces."""
        found = self._by_raw_id.get(raw, _UNSEEN)
        if found is _UNSEEN:  # each id is looked up once, not once per pipeline
            found = self._by_raw_id[raw] = self._by_id.get(raw.strip().casefold())
        return cast("str | None", found)

    def by_ids(self, raws: Iterable[str]) -> dict[str, str | None]:
        """:meth:`by_id` of each of ``raws`` (distinct ones: a set), in one comprehension."""
        get = self._by_id.get
        return {raw: get(raw.strip().casefold()) for raw in raws}

    def question(self, golden_id: str) -> str:
        """The golden question text of ``golden_id``."""
        return self._questions[golden_id]

    def by_text(self, text: str) -> TextMatch | str:
        """A match, or a reason (str) why there is none."""
        key = question_key(text)
        by_text, unique, keys = self._by_text_keys()
        if key in by_text:
            golden_id = by_text[key]
            if golden_id is None:
                return "the question text matches several golden questions (an id column would settle it)"
            return TextMatch(golden_id)
        from rapidfuzz import fuzz, process  # only a join by question text needs it

        found = process.extract(key, keys, scorer=fuzz.ratio, limit=2, score_cutoff=FUZZY_CUTOFF)
        if not found:
            return f"the question text matches no golden question (fuzzy score below {FUZZY_CUTOFF:g})"
        if len(found) > 1 and found[0][1] - found[1][1] < FUZZY_MARGIN:
            return (
                f"the question text is about equally close to golden questions {unique[found[0][0]]} "
                f"and {unique[found[1][0]]} (an id column would settle it)"
            )
        best_key, score = found[0][0], found[0][1]
        return TextMatch(unique[best_key], float(score))

    def same_question(self, golden_id: str, text: str) -> bool:
        """Whether ``text`` is (nearly) the golden question of ``golden_id``."""
        golden_key = question_key(self._questions[golden_id])
        key = question_key(text)
        if key == golden_key:
            return True
        from rapidfuzz import fuzz  # see by_text

        return bool(fuzz.ratio(key, golden_key) >= FUZZY_CUTOFF)


def parse_contexts(cell: str) -> tuple[tuple[str, ...], str | None]:
    """A contexts cell → passages, plus a warning message when the cell was odd.

    A JSON array of strings is the normal form; one plain-text passage is accepted too. A
    cell that starts with ``[`` but is not valid JSON is kept as one passage, with a warning.
    """
    stripped = cell.strip()
    if not stripped:
        return (), None
    if not stripped.startswith("["):
        return (cell,), None
    try:
        value = json.loads(stripped)
    except json.JSONDecodeError as error:
        return (cell,), (
            f"the contexts cell starts with '[' but is not valid JSON ({error.msg}, "
            f"character {error.pos + 1}); it is used as one plain-text passage."
        )
    if not isinstance(value, list):
        return (cell,), None
    passages: list[str] = []
    converted = False
    for entry in value:
        if isinstance(entry, str):
            passages.append(entry)
            continue
        converted = True
        text = next(
            (entry[key] for key in _TEXT_KEYS if isinstance(entry, dict) and isinstance(entry.get(key), str)),
            None,
        )
        passages.append(text if text is not None else json.dumps(entry, ensure_ascii=False))
    warning = (
        "the contexts list holds items that are not text; they were converted to text." if converted else None
    )
    return tuple(passages), warning


class _Joiner:
    """Turns table rows into responses, collecting problems; one instance per read."""

    def __init__(self, table: RawTable, columns: ResponseColumns, golden: GoldenSet) -> None:
        self.table = table
        self.columns = columns
        self.index = GoldenIndex(golden)
        self.problems: list[Problem] = list(table.problems)
        self.responses: list[PipelineResponse] = []
        self.first_row: dict[tuple[str, str], int] = {}
        self.pipelines: dict[str, None] = {}  # insertion-ordered set: file order
        self.unmatched: list[str] = []
        self._text_cache: dict[str, TextMatch | str] = {}
        self._checked_ids: set[str] = set()

    def resolve(self, ids: Sequence[str] | None, questions: Sequence[str] | None, i: int) -> str | None:
        """The golden id for row ``i``, or ``None`` after recording why."""
        row = self.table.row_numbers[i]
        raw_id = ids[i].strip() if ids is not None else ""
        text = questions[i] if questions is not None else ""
        if raw_id:
            golden_id = self.index.by_id(raw_id)
            if golden_id is None:
                self.unmatched.append(raw_id)
                self.error(
                    f"question id '{visible(raw_id)}' is not in the golden set ({self.index.golden.source}); "
                    "the row is skipped.",
                    row,
                    self.columns.question_id,
                )
            elif text.strip() and golden_id not in self._checked_ids:
                self._checked_ids.add(golden_id)
                if not self.index.same_question(golden_id, text):
                    self.problems.append(
                        self.table.problem(
                            f"question id '{visible(raw_id)}' is golden question "
                            f"'{_short(self.index.question(golden_id))}' but this row asks '{_short(text)}': "
                            "was the golden set changed after these responses?",
                            Severity.WARNING,
                            row=row,
                            column=self.columns.question,
                        )
                    )
            return golden_id
        if not text.strip():
            self.error(
                "the row has no question id and no question text; it is skipped.",
                row,
                self.columns.question_id or self.columns.question,
            )
            return None
        return self._resolve_text(text, row)

    def _resolve_text(self, text: str, row: int) -> str | None:
        # Long files repeat each question once per pipeline: match (and report) each text once.
        seen = text in self._text_cache
        match = self._text_cache[text] if seen else self.index.by_text(text)
        self._text_cache[text] = match
        if isinstance(match, str):
            self.unmatched.append(_short(text, 40))
            self.error(f"{match}: '{_short(text)}'; the row is skipped.", row, self.columns.question)
            return None
        if match.score is not None and not seen:
            self.problems.append(
                self.table.problem(
                    f"matched by fuzzy question text (score {match.score:.0f}) to {match.golden_id}: "
                    f"'{_short(text)}' ~ '{_short(self.index.question(match.golden_id))}'.",
                    Severity.INFO,
                    row=row,
                    column=self.columns.question,
                )
            )
        return match.golden_id

    def add(
        self,
        golden_id: str,
        pipeline: str,
        response: str,
        contexts: tuple[str, ...],
        row: int,
        *,
        column: str | None = None,
    ) -> None:
        """Keep the first response per (question, pipeline); warn about repeats.

        A response whose cell (in ``column``) has no readable text is skipped: the table has
        already reported why, and scoring it as empty would give wrong numbers.
        """
        if self.table.is_unreadable(row, column):
            self.pipelines.setdefault(pipeline)
            self.error(
                f"the response of pipeline '{pipeline}' has no readable text (see the error above); "
                "it is not scored.",
                row,
                column,
            )
            return
        key = (golden_id, pipeline)
        first = self.first_row.setdefault(key, row)
        self.pipelines.setdefault(pipeline)
        if first != row:
            self.problems.append(
                self.table.problem(
                    f"a second response for question {golden_id} and pipeline '{pipeline}' (the first is at "
                    f"row {first}); this one is ignored.",
                    Severity.WARNING,
                    row=row,
                    column=self.columns.pipeline or pipeline,
                )
            )
            return
        self.responses.append(PipelineResponse(golden_id, pipeline, response, contexts, row))

    def error(self, message: str, row: int, column: str | None) -> None:
        """Record a row-dropping problem."""
        self.problems.append(self.table.problem(message, Severity.ERROR, row=row, column=column))


def join_responses(
    table: RawTable, columns: ResponseColumns, golden: GoldenSet
) -> tuple[ResponseSet, list[Problem]]:
    """Read every response row and join it to ``golden``; raises :class:`InputError` if none joins."""
    joiner = _Joiner(table, columns, golden)
    ids = table.values(columns.question_id) if columns.question_id else None
    questions = table.values(columns.question) if columns.question else None
    if columns.layout == "long":
        _read_long(joiner, ids, questions)
    else:
        _read_wide(joiner, ids, questions)
    if not joiner.responses:
        raise InputError(_nothing_matched(joiner), tuple(joiner.problems))
    wide = columns.layout == "wide"
    pipelines = list(joiner.pipelines)
    golden_ids = [item.id for item in golden.items]
    joiner.problems.extend(missing_problems(table, wide, golden_ids, pipelines, joiner.first_row))
    joiner.problems.extend(silent_problems(table, wide, columns.response, joiner.responses, pipelines))
    joiner.problems.extend(lookalike_problems(table, wide, columns.pipeline, pipelines))
    result = ResponseSet(
        tuple(joiner.responses),
        tuple(joiner.pipelines),
        source=table.file,
        sheet=table.sheet,
        layout=columns.layout or "long",
    )
    return result, joiner.problems


def _read_long(joiner: _Joiner, ids: Sequence[str] | None, questions: Sequence[str] | None) -> None:
    if ids is not None and _join_long_at_once(joiner, ids, questions):
        return
    table, columns = joiner.table, joiner.columns
    pipelines = table.values(columns.pipeline) if columns.pipeline else []
    responses = table.values(columns.response) if columns.response else []
    contexts = table.values(columns.contexts) if columns.contexts else None
    for i, row in enumerate(table.row_numbers):
        golden_id = joiner.resolve(ids, questions, i)
        if golden_id is None:
            continue
        pipeline = pipelines[i].strip()
        if not pipeline:
            joiner.error("the pipeline name is empty; the row is skipped.", row, columns.pipeline)
            continue
        passages: tuple[str, ...] = ()
        if contexts is not None:
            passages, warning = parse_contexts(contexts[i])
            if warning:
                joiner.problems.append(
                    table.problem(warning, Severity.WARNING, row=row, column=columns.contexts)
                )
        joiner.add(golden_id, pipeline, responses[i], passages, row, column=columns.response)


def _join_long_at_once(joiner: _Joiner, ids: Sequence[str], questions: Sequence[str] | None) -> bool:
    """Join a long table whose rows have nothing to report, column by column; ``False``
    (with ``joiner`` untouched) when any row has, for the row-by-row loop to report.

    Nothing to report: every id is a golden id, the first question text given for each
    question (if any) is its golden question, no pipeline name is empty, every contexts cell
    reads cleanly, no response cell is unreadable and no (question, pipeline) repeats. Then
    the loop would make exactly these responses, in file order, and no problem; here the
    checks are dictionary, set and string operations over whole columns (60,000 rows: 60 ms
    instead of 600 ms).
    """
    table, columns = joiner.table, joiner.columns
    if columns.pipeline is None or columns.response is None:
        return False  # the loop says what it always said
    names = list(map(str.strip, table.values(columns.pipeline)))
    golden_ids = _golden_ids_at_once(joiner.index, ids, questions)
    passages = _passages_at_once(table.values(columns.contexts) if columns.contexts else None, len(ids))
    if (
        golden_ids is None
        or passages is None
        or "" in set(names)
        or _unreadable_column(table, columns.response)
    ):
        return False
    first_row = dict(zip(zip(golden_ids, names, strict=True), table.row_numbers, strict=True))
    if len(first_row) != len(golden_ids):
        return False  # a second response for a (question, pipeline)
    joiner.first_row = first_row  # the joiner has none yet: the long layout adds them all here
    joiner.pipelines = dict.fromkeys(names)
    responses = table.values(columns.response)
    joiner.responses.extend(
        bulk_records(PipelineResponse, golden_ids, names, responses, passages, table.row_numbers)
    )
    return True


def _golden_ids_at_once(
    index: GoldenIndex, ids: Sequence[str], questions: Sequence[str] | None
) -> list[str] | None:
    """Each row's golden id, or ``None`` when a row has no id (it is joined by text), an
    unknown one, or another question than the golden one."""
    stripped = list(map(str.strip, ids))
    golden_of = index.by_ids(set(stripped))
    if "" in golden_of or None in golden_of.values():
        return None
    golden_ids = cast("list[str]", list(map(golden_of.__getitem__, stripped)))
    if questions is not None and not _questions_agree(index, golden_ids, questions):
        return None
    return golden_ids


def _passages_at_once(contexts: Sequence[str] | None, count: int) -> list[tuple[str, ...]] | None:
    """Each row's contexts, or ``None`` when a cell gets a warning."""
    if contexts is None:
        return [()] * count
    parsed = list(map(parse_contexts, contexts))
    if any(warning for _passages, warning in parsed):
        return None
    return [found for found, _warning in parsed]


def _unreadable_column(table: RawTable, column: str) -> bool:
    """Whether a cell of ``column`` has no readable text (only workbooks have such cells)."""
    return any(name == column for _row, name in table.unreadable)


def _questions_agree(index: GoldenIndex, golden_ids: Sequence[str], questions: Sequence[str]) -> bool:
    """Whether the first non-blank question text of each golden id is its golden question
    (:meth:`_Joiner.resolve` checks that one and warns when it is not)."""
    first: dict[str, str] = {}
    for golden_id, text in zip(golden_ids, questions, strict=True):
        if golden_id not in first and text.strip():
            first[golden_id] = text
    return all(index.same_question(golden_id, text) for golden_id, text in first.items())


def _read_wide(joiner: _Joiner, ids: Sequence[str] | None, questions: Sequence[str] | None) -> None:
    table, columns = joiner.table, joiner.columns
    positions = [(name, table.index(name)) for name in columns.pipelines]
    for name in columns.pipelines:
        joiner.pipelines.setdefault(name)
    first_row: dict[str, int] = {}
    for i, row in enumerate(table.row_numbers):
        golden_id = joiner.resolve(ids, questions, i)
        if golden_id is None:
            continue
        first = first_row.setdefault(golden_id, row)
        if first != row:
            joiner.problems.append(
                table.problem(
                    f"question {golden_id} appears again (first at row {first}); this row is ignored.",
                    Severity.WARNING,
                    row=row,
                    column=columns.question_id or columns.question,
                )
            )
            continue
        cells = table.rows[i]
        for name, position in positions:
            joiner.add(golden_id, name, cells[position], (), row, column=name)


def _nothing_matched(joiner: _Joiner) -> Problem:
    table = joiner.table
    golden = joiner.index.golden
    if not joiner.unmatched:
        message = f"{table.where()} has no usable response rows: every row was skipped."
    elif joiner.columns.question_id is not None:
        sample = ", ".join(f"'{item.id}'" for item in golden.items[:3])
        message = (
            f"no row of {table.where()} matches a golden question of {golden.source}: its question "
            f"ids ({listing(_quoted(joiner.unmatched), 3)}) are not golden ids ({sample}, ...)."
        )
    else:
        message = (
            f"no row of {table.where()} matches a golden question of {golden.source} by question "
            f"text (for example {listing(_quoted(joiner.unmatched), 2)})."
        )
    return table.problem(message, Severity.FATAL)


def _quoted(values: Sequence[str]) -> list[str]:
    return [f"'{visible(value)}'" for value in values]


def _short(text: str, limit: int = 80) -> str:
    """One line of at most ``limit`` characters, invisible characters shown as ``<U+XXXX>``."""
    return one_line(visible(text), limit)
