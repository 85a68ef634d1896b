"""Score-grid core: threshold expressions, filters and row order on small hand-made arrays."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import pytest

from goldenlens.core.lexical.flags import Flag
from goldenlens.core.lexical.scorer import (
    EXACT_MATCH,
    F1_SCORE,
    FACTUAL_KNOWLEDGE,
    FACTUAL_KNOWLEDGE_QUASI_EXACT,
    LEXICAL_SCORE_NAMES,
    PRECISION,
    QUASI_EXACT_MATCH,
    RECALL,
)
from goldenlens.core.view.grid_rows import flag_counts, text_matcher, visible_rows
from goldenlens.core.view.grid_state import (
    ANY_FLAG,
    FLAG_BITS,
    FLAGS_COLUMN,
    ID_COLUMN,
    QUESTION_COLUMN,
    REVIEW_COLUMN,
    FloatArray,
    GridState,
    IntArray,
    ObjectArray,
    grid_columns,
    score_column,
    split_score_column,
)
from goldenlens.core.view.threshold import Condition, ThresholdFilter, parse_threshold

PIPELINES = ("Pipeline1", "Pipeline2", "RAG v1.2")
NAN = math.nan


def _objects(items: Sequence[str]) -> ObjectArray:
    array = np.empty(len(items), dtype=object)
    array[:] = items
    return array


@dataclass
class Arrays:
    """A minimal :class:`goldenlens.core.view.grid_state.GridArrays`."""

    question_ids: ObjectArray
    questions: ObjectArray
    pipelines: tuple[str, ...]
    values: Mapping[str, FloatArray]
    flags: IntArray
    golden_flags: IntArray
    review: ObjectArray
    texts: list[str] = field(default_factory=list)

    def search_texts(self) -> Sequence[str]:
        return self.texts

    def id_ranks(self) -> IntArray:
        # The ids below are natural-sorted by their number.
        numbers = [int(str(q)[1:]) for q in self.question_ids]
        return np.argsort(np.argsort(numbers, kind="stable"), kind="stable").astype(np.int64)


def make_arrays() -> Arrays:
    ids = ["q1", "q2", "q10", "q3", "q4"]
    questions = ["Who is the CEO?", "net sales Q2", "Where is the office?", "AWS sales", "a question"]
    fk = [[1, 1, 1], [1, 0, 0], [0, 0, 0], [1, NAN, 1], [0, NAN, NAN]]
    recall = [[0.9, 0.8, 0.95], [0.4, 0.92, 0.1], [0.5, 0.5, 0.5], [NAN, NAN, NAN], [0.2, NAN, 0.7]]
    f1 = [[0.86, 0.43, 0.44], [0.46, 0.92, 0.49], [0.67, 0.21, 0.40], [0.7, NAN, 0.4], [0.46, NAN, 0.2]]
    flags = np.zeros((5, 3), dtype=np.int64)
    flags[1, 1] = FLAG_BITS[Flag.LIKELY_HALLUCINATION.value]
    flags[1, 2] = FLAG_BITS[Flag.REFUSAL.value] | FLAG_BITS[Flag.VERBOSE.value]
    golden = np.zeros(5, dtype=np.int64)
    golden[2] = FLAG_BITS[Flag.AMBIGUOUS_QUESTION.value]
    review = ["unreviewed", "accepted", "needs_curation", "unreviewed", "accepted"]
    responses = ["Andy Jassy", "$170.0 billion", "Seattle", "22.1 billion", ""]
    texts = ["\n".join((i, q, r)).lower() for i, q, r in zip(ids, questions, responses, strict=True)]
    return Arrays(
        _objects(ids), _objects(questions), PIPELINES,
        {FACTUAL_KNOWLEDGE: np.array(fk), RECALL: np.array(recall), F1_SCORE: np.array(f1)},
        flags, golden, _objects(review), texts,
    )  # fmt: skip


@pytest.fixture
def arrays() -> Arrays:
    return make_arrays()


def ids(data: Arrays, rows: IntArray) -> list[str]:
    return [str(q) for q in data.question_ids[rows]]


# -- threshold parser -------------------------------------------------------------------

METRICS = LEXICAL_SCORE_NAMES


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("recall < 0.5", ((Condition(RECALL, "<", 0.5),),)),
        ("f1 >= 0.8", ((Condition(F1_SCORE, ">=", 0.8),),)),
        ("Pipeline2.recall < 0.5", ((Condition(RECALL, "<", 0.5, "Pipeline2"),),)),
        ("factual_knowledge == 0", ((Condition(FACTUAL_KNOWLEDGE, "==", 0.0),),)),
        ("fk = 1", ((Condition(FACTUAL_KNOWLEDGE, "=", 1.0),),)),
        ("FK != 1", ((Condition(FACTUAL_KNOWLEDGE, "!=", 1.0),),)),
        ("fk_quasi<=1e-1", ((Condition(FACTUAL_KNOWLEDGE_QUASI_EXACT, "<=", 0.1),),)),
        ("precision>.25", ((Condition(PRECISION, ">", 0.25),),)),
        ("em <> 0", ((Condition(EXACT_MATCH, "<>", 0.0),),)),
        ("qem > -1", ((Condition(QUASI_EXACT_MATCH, ">", -1.0),),)),
        ("pipeline1.F1 < 0.5", ((Condition(F1_SCORE, "<", 0.5, "Pipeline1"),),)),
        ('"RAG v1.2".recall < 0.5', ((Condition(RECALL, "<", 0.5, "RAG v1.2"),),)),
        ("  recall  <  0.5  ", ((Condition(RECALL, "<", 0.5),),)),
        (
            "recall < 0.5 and f1 > 0.2",
            ((Condition(RECALL, "<", 0.5), Condition(F1_SCORE, ">", 0.2)),),
        ),
        (
            "fk == 0 OR recall < 0.1 and f1 > 0.5",
            (
                (Condition(FACTUAL_KNOWLEDGE, "==", 0.0),),
                (Condition(RECALL, "<", 0.1), Condition(F1_SCORE, ">", 0.5)),
            ),
        ),
        ("", ()),
        ("   ", ()),
    ],
)
def test_threshold_parses(expr: str, expected: tuple[tuple[Condition, ...], ...]) -> None:
    assert parse_threshold(expr, METRICS, PIPELINES) == ThresholdFilter(expected)


@pytest.mark.parametrize(
    ("expr", "message"),
    [
        ("recall", "expected a comparison (<, <=, >, >=, ==, !=) after 'recall'"),
        ("recall <", "expected a number after '<'"),
        ("recall < abc", "'abc' is not a number"),
        ("recall < nan", "'nan' is not a finite number"),
        ("recall < 1e999", "'1e999' is not a finite number"),
        ("bogus < 1", "unknown metric 'bogus' (available: fk, fk_quasi, f1, precision, recall, em, qem)"),
        ("Pipeline9.f1 < 0.5", "unknown pipeline 'Pipeline9' (pipelines: Pipeline1, Pipeline2, RAG v1.2)"),
        ("recall < 0.5 and", "expected a condition after 'and'"),
        ("recall < 0.5 or", "expected a condition after 'or'"),
        ("recall < 0.5 f1 > 0.2", "expected 'and' or 'or' before 'f1'"),
        ("recall < 0.5;", "unexpected ';' in the threshold expression"),
        ("< 0.5", "expected a metric such as 'recall < 0.5'"),
        ("Pipeline1. < 0.5", "expected a metric after the pipeline name after '.'"),
        ("recall << 0.5", "expected a number after '<'"),
    ],
)
def test_threshold_errors_are_readable(expr: str, message: str) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        parse_threshold(expr, METRICS, PIPELINES)


def test_threshold_on_a_metric_the_grid_does_not_hold() -> None:
    with pytest.raises(ValueError, match=r"metric 'precision' is not in the grid \(available: fk, f1\)"):
        parse_threshold("precision < 0.5", (FACTUAL_KNOWLEDGE, F1_SCORE), PIPELINES)


# -- filters ----------------------------------------------------------------------------


def test_bare_metric_means_any_pipeline_and_missing_never_passes(arrays: Arrays) -> None:
    assert ids(arrays, visible_rows(arrays, GridState(threshold="recall < 0.5"))) == ["q2", "q4"]
    assert ids(arrays, visible_rows(arrays, GridState(threshold="Pipeline2.recall < 0.9"))) == ["q1", "q10"]
    # NaN != 1 would be true in IEEE arithmetic: a missing score still never passes.
    assert ids(arrays, visible_rows(arrays, GridState(threshold="Pipeline2.fk != 1"))) == ["q2", "q10"]
    # Each bare condition is met by any pipeline on its own (q2: Pipeline2 has fk 0 and f1 0.92).
    assert ids(arrays, visible_rows(arrays, GridState(threshold="fk == 0 and f1 > 0.6"))) == ["q2", "q10"]
    assert ids(arrays, visible_rows(arrays, GridState(threshold="fk == 0 and f1 > 0.9"))) == ["q2"]
    either = GridState(threshold='fk == 0 and f1 > 0.9 or "RAG v1.2".recall >= 0.95')
    assert ids(arrays, visible_rows(arrays, either)) == ["q1", "q2"]


def test_question_filter_keeps_the_listed_questions_with_the_other_filters(arrays: Arrays) -> None:
    """The review queue's filter by diagnosis: a set of ids, combined with the rest (and)."""
    chosen = frozenset({"q2", "q3", "q10", "absent"})
    assert ids(arrays, visible_rows(arrays, GridState(question_ids=chosen))) == ["q2", "q10", "q3"]
    assert ids(arrays, visible_rows(arrays, GridState(question_ids=chosen, text="sales"))) == ["q2", "q3"]
    assert ids(arrays, visible_rows(arrays, GridState(question_ids=frozenset()))) == []
    assert len(visible_rows(arrays, GridState(question_ids=None))) == 5


def test_text_filter_is_case_insensitive_over_ids_questions_and_responses(arrays: Arrays) -> None:
    assert ids(arrays, visible_rows(arrays, GridState(text="SALES"))) == ["q2", "q3"]
    assert ids(arrays, visible_rows(arrays, GridState(text="jassy"))) == ["q1"]
    assert ids(arrays, visible_rows(arrays, GridState(text="q10"))) == ["q10"]
    assert ids(arrays, visible_rows(arrays, GridState(text="   "))) == ["q1", "q2", "q10", "q3", "q4"]
    # Plain text is literal: regex characters mean themselves.
    assert ids(arrays, visible_rows(arrays, GridState(text="$170.0"))) == ["q2"]


def test_regex_filter(arrays: Arrays) -> None:
    state = GridState(text=r"\$\d+\.\d billion|seattle", regex=True)
    assert ids(arrays, visible_rows(arrays, state)) == ["q2", "q10"]
    assert ids(arrays, visible_rows(arrays, GridState(text="^q[34]$", regex=True))) == []
    assert ids(arrays, visible_rows(arrays, GridState(text="^q[34]\n", regex=True))) == ["q3", "q4"]


def test_invalid_regex_is_a_value_error_with_the_reason(arrays: Arrays) -> None:
    with pytest.raises(ValueError, match=r"invalid regular expression: missing \), unterminated subpattern"):
        visible_rows(arrays, GridState(text="(sales", regex=True))
    assert text_matcher("(sales", regex=False) is not None  # the same text is fine as plain text


def test_flag_filter_response_and_golden_level(arrays: Arrays) -> None:
    def rows(flag: str) -> list[str]:
        return ids(arrays, visible_rows(arrays, GridState(flag=flag)))

    assert rows(Flag.LIKELY_HALLUCINATION.value) == ["q2"]
    assert rows(Flag.VERBOSE.value) == ["q2"]
    assert rows(Flag.AMBIGUOUS_QUESTION.value) == ["q10"]
    assert rows(Flag.EMPTY_RESPONSE.value) == []
    assert rows(ANY_FLAG) == ["q2", "q10"]
    with pytest.raises(ValueError, match="unknown flag 'nope'"):
        rows("nope")


def test_flag_counts_add_golden_and_response_flags(arrays: Arrays) -> None:
    assert flag_counts(arrays).tolist() == [0, 3, 1, 0, 0]


def test_disagreements_only_ignores_missing_scores(arrays: Arrays) -> None:
    # q3 has 1 / missing / 1: the scored pipelines agree. q4 has a single score.
    assert ids(arrays, visible_rows(arrays, GridState(disagree_only=True))) == ["q2"]
    one_column = {FACTUAL_KNOWLEDGE: np.array([[1.0], [0.0], [1.0], [0.0], [1.0]])}
    single = replace(arrays, pipelines=("Pipeline1",), values=one_column)
    assert visible_rows(single, GridState(disagree_only=True)).tolist() == []


# -- order ------------------------------------------------------------------------------


def test_sort_by_score_puts_missing_last_in_both_directions(arrays: Arrays) -> None:
    key = score_column(RECALL, "Pipeline2")
    up = GridState(sort_column=key)
    assert ids(arrays, visible_rows(arrays, up)) == ["q10", "q1", "q2", "q3", "q4"]
    down = replace(up, sort_descending=True)
    assert ids(arrays, visible_rows(arrays, down)) == ["q2", "q1", "q10", "q3", "q4"]


def test_sort_is_stable_for_ties(arrays: Arrays) -> None:
    key = score_column(FACTUAL_KNOWLEDGE, "Pipeline1")
    assert ids(arrays, visible_rows(arrays, GridState(sort_column=key))) == ["q10", "q4", "q1", "q2", "q3"]
    down = GridState(sort_column=key, sort_descending=True)
    assert ids(arrays, visible_rows(arrays, down)) == ["q1", "q2", "q3", "q10", "q4"]


@pytest.mark.parametrize(
    ("column", "descending", "expected"),
    [
        (ID_COLUMN, False, ["q1", "q2", "q3", "q4", "q10"]),
        (ID_COLUMN, True, ["q10", "q4", "q3", "q2", "q1"]),
        (QUESTION_COLUMN, False, ["q4", "q3", "q2", "q10", "q1"]),
        (QUESTION_COLUMN, True, ["q1", "q10", "q2", "q3", "q4"]),
        (REVIEW_COLUMN, False, ["q2", "q4", "q10", "q1", "q3"]),
        (REVIEW_COLUMN, True, ["q1", "q3", "q10", "q2", "q4"]),
        (FLAGS_COLUMN, True, ["q2", "q10", "q1", "q3", "q4"]),
        (None, True, ["q1", "q2", "q10", "q3", "q4"]),
        ("no_such_metric:Pipeline1", False, ["q1", "q2", "q10", "q3", "q4"]),
    ],
)
def test_sort_by_fixed_columns(
    arrays: Arrays, column: str | None, descending: bool, expected: list[str]
) -> None:
    state = GridState(sort_column=column, sort_descending=descending)
    assert ids(arrays, visible_rows(arrays, state)) == expected


def test_filters_combine_then_sort(arrays: Arrays) -> None:
    state = GridState(
        threshold="f1 > 0.5", text="Q1", sort_column=score_column(F1_SCORE, "Pipeline1"), sort_descending=True
    )
    assert ids(arrays, visible_rows(arrays, state)) == ["q1", "q10"]
    assert ids(arrays, visible_rows(arrays, replace(state, sort_descending=False))) == ["q10", "q1"]
    assert ids(arrays, visible_rows(arrays, replace(state, flag=ANY_FLAG))) == ["q10"]
    assert ids(arrays, visible_rows(arrays, replace(state, text="", disagree_only=True))) == ["q2"]


def test_columns_and_keys() -> None:
    columns = grid_columns(GridState(metrics=(F1_SCORE, RECALL)), ("A", "B"))
    assert [c.key for c in columns] == [
        ID_COLUMN, QUESTION_COLUMN, REVIEW_COLUMN, FLAGS_COLUMN,
        "f1_score:A", "f1_score:B", "recall_over_words:A", "recall_over_words:B",
    ]  # fmt: skip
    assert (columns[5].pipeline, columns[5].pipeline_index) == ("B", 1)
    report = grid_columns(GridState(metrics=(F1_SCORE,), fk_report_mode=True), ("A", "B"))
    assert [c.metric for c in report[4:]] == [FACTUAL_KNOWLEDGE, FACTUAL_KNOWLEDGE]
    assert split_score_column("f1_score:Pipe:line") == ("f1_score", "Pipe:line")
    assert split_score_column(ID_COLUMN) is None


def test_empty_data_has_no_rows() -> None:
    empty = Arrays(
        _objects([]),
        _objects([]),
        (),
        {},
        np.zeros((0, 0), dtype=np.int64),
        np.zeros(0, dtype=np.int64),
        _objects([]),
    )
    state = GridState(threshold="", flag=ANY_FLAG, disagree_only=True, sort_column=ID_COLUMN)
    assert visible_rows(empty, state).tolist() == []


def test_metrics_in_use_are_those_the_state_shows_sorts_and_filters_on() -> None:
    assert GridState(metrics=(F1_SCORE, RECALL)).metrics_in_use() == (F1_SCORE, RECALL)
    sorted_state = GridState(metrics=(F1_SCORE,), sort_column=f"{EXACT_MATCH}:B", sort_descending=True)
    assert sorted_state.metrics_in_use() == (F1_SCORE, EXACT_MATCH)
    assert GridState(metrics=(F1_SCORE,), sort_column=ID_COLUMN).metrics_in_use() == (F1_SCORE,)
    assert GridState(metrics=(RECALL,), disagree_only=True).metrics_in_use() == (RECALL, FACTUAL_KNOWLEDGE)
    assert GridState(metrics=(RECALL,), fk_report_mode=True).metrics_in_use() == (RECALL, FACTUAL_KNOWLEDGE)
    assert GridState(metrics=(RECALL,), threshold="f1 < 0.5").metrics_in_use() is None  # may name any
    assert GridState(metrics=(RECALL,), threshold="  ").metrics_in_use() == (RECALL,)
