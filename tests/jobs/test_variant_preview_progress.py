"""The variant preview job reports one step per suggestion and stops when cancelled (the
desktop dialog runs it in a worker: a large project takes seconds)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.variant_project import build_project

from goldenlens.jobs.curation.variant_preview import preview_fact_variants
from goldenlens.jobs.progress import Cancelled, CancelToken, Progress
from goldenlens.store.project import ProjectStore


def test_progress_counts_the_suggestions_previewed(tmp_path: Path) -> None:
    seen: list[Progress] = []
    with ProjectStore.open(build_project(tmp_path)) as store:
        preview = preview_fact_variants(store, "q1", progress=seen.append)
    total = len(preview.previews)
    assert total > 1
    assert [p.done for p in seen] == list(range(total + 1))
    assert {p.total for p in seen} == {total}
    assert {p.stage for p in seen} == {"variants"}


def test_a_cancelled_preview_raises_before_any_suggestion_and_after_one(tmp_path: Path) -> None:
    token = CancelToken()
    token.cancel()
    with ProjectStore.open(build_project(tmp_path)) as store:
        with pytest.raises(Cancelled):
            preview_fact_variants(store, "q1", cancel=token)
        later = CancelToken()
        steps: list[int] = []

        def cancel_after_first(progress: Progress, /) -> None:
            steps.append(progress.done)
            if progress.done == 1:
                later.cancel()

        with pytest.raises(Cancelled):
            preview_fact_variants(store, "q1", progress=cancel_after_first, cancel=later)
        assert steps == [0, 1]  # stopped at the next suggestion
