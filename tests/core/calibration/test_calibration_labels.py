"""Reviewer labels: the spellings a file may use, one verdict per answer, stale and detached."""

from __future__ import annotations

import pytest

from goldenlens.core.calibration.answers import answer_key
from goldenlens.core.calibration.labels import (
    LabelKind,
    LabelRecord,
    LabelSource,
    LabelState,
    ResponseKey,
    Verdict,
    golden_version_key,
    parse_verdict,
    resolve_labels,
)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("correct", Verdict.CORRECT),
        ("Yes", Verdict.CORRECT),
        ("1", Verdict.CORRECT),
        ("TRUE", Verdict.CORRECT),
        ("pass", Verdict.CORRECT),
        (" 1.0 ", Verdict.CORRECT),
        ("incorrect", Verdict.INCORRECT),
        ("no", Verdict.INCORRECT),
        ("0", Verdict.INCORRECT),
        ("False", Verdict.INCORRECT),
        ("FAIL", Verdict.INCORRECT),
        ("unsure", Verdict.UNSURE),
        ("maybe", None),
        ("", None),
        ("2", None),
        ("correctly", None),
    ],
)
def test_verdict_spellings(text: str, verdict: Verdict | None) -> None:
    assert parse_verdict(text) is verdict


@pytest.mark.parametrize(
    ("first", "second", "same"),
    [
        ("Paris.", "paris", True),
        ("  The   Beatles ", "the beatles", True),
        ("\u201cScorpio\u201d", "Scorpio", True),
        ("3.5", "35", False),
        ("-5", "5", False),
        ("5%", "5", False),
        ("a Beatle", "the Beatles", False),
        ("\uff30\uff41\uff52\uff49\uff53", "Paris", True),  # full-width letters fold (NFKC)
    ],
)
def test_what_counts_as_the_same_answer(first: str, second: str, same: bool) -> None:
    assert (answer_key(first) == answer_key(second)) is same


G = golden_version_key("Q?", "Paris", "Paris")


def _record(
    i: int,
    pipeline: str,
    verdict: Verdict | None,
    key: str = "paris",
    golden: str = G,
    kind=LabelKind.VERDICT,
):
    return LabelRecord(i, "q1", pipeline, kind, verdict, key, golden, reviewer="ana")


def test_a_label_holds_for_the_same_answer_from_another_pipeline() -> None:
    responses = [
        ResponseKey("q1", "A", "paris", G),
        ResponseKey("q1", "B", "paris", G),
        ResponseKey("q1", "C", "lyon", G),
    ]
    found = resolve_labels(responses, [_record(1, "A", Verdict.CORRECT)])
    assert [(f.state, f.source) for f in found] == [
        (LabelState.CORRECT, LabelSource.DIRECT),
        (LabelState.CORRECT, LabelSource.SAME_ANSWER),
        (LabelState.NONE, LabelSource.NONE),
    ]


def test_a_detached_response_needs_its_own_label_and_can_be_attached_again() -> None:
    responses = [ResponseKey("q1", "A", "paris", G), ResponseKey("q1", "B", "paris", G)]
    records = [_record(1, "A", Verdict.CORRECT), _record(2, "B", None, kind=LabelKind.DETACHED)]
    assert resolve_labels(responses, records)[1].state is LabelState.NONE
    records.append(_record(3, "B", None, kind=LabelKind.ATTACHED))
    assert resolve_labels(responses, records)[1].state is LabelState.CORRECT


def test_the_latest_label_wins_and_a_cleared_one_takes_its_propagation_with_it() -> None:
    responses = [ResponseKey("q1", "A", "paris", G), ResponseKey("q1", "B", "paris", G)]
    records = [_record(1, "A", Verdict.CORRECT), _record(2, "A", Verdict.INCORRECT)]
    assert [f.state for f in resolve_labels(responses, records)] == [LabelState.INCORRECT] * 2
    records.append(_record(3, "A", None, kind=LabelKind.CLEARED))
    assert [f.state for f in resolve_labels(responses, records)] == [LabelState.NONE] * 2


def test_a_label_on_another_answer_text_or_golden_version_is_stale() -> None:
    changed_golden = golden_version_key("Q?", "Paris", "Paris<OR>City of Light")
    responses = [ResponseKey("q1", "A", "lyon", G), ResponseKey("q1", "B", "paris", changed_golden)]
    found = resolve_labels(responses, [_record(1, "A", Verdict.CORRECT), _record(2, "B", Verdict.CORRECT)])
    assert [(f.state, f.source, f.stale_reason) for f in found] == [
        (LabelState.NONE, LabelSource.STALE, "answer changed"),
        (LabelState.NONE, LabelSource.STALE, "golden item changed"),
    ]


def test_unsure_is_a_verdict_that_estimates_cannot_use() -> None:
    found = resolve_labels([ResponseKey("q1", "A", "paris", G)], [_record(1, "A", Verdict.UNSURE)])
    assert found[0].state is LabelState.UNSURE
    assert not found[0].known
