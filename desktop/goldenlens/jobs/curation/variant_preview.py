"""Fact variants of one question with their flip preview, read from a project.

A thin job: :func:`read_variant_inputs` is the one place that reads the project (the golden
item, every response and the latest finished lexical run's Factual Knowledge scores); the
rest is the pure generator (:func:`~goldenlens.core.variants.generator.suggest_variants`) and preview
(:func:`~goldenlens.core.variants.flip_preview.preview_question`). Adding a chosen variant is
:func:`goldenlens.jobs.curation.edits.add_fact_variant` (pass ``and_group=variant.and_group``).

The stored scores are the run's, before reviewer overrides: the preview is about what the
metric computes, and an override keeps its value whatever the fact says.
"""

from __future__ import annotations

from dataclasses import dataclass

from goldenlens.core.inputs import GoldenItem
from goldenlens.core.lexical.flags import FlagThresholds
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE, FACTUAL_KNOWLEDGE_QUASI_EXACT
from goldenlens.core.runs.run_kinds import LEXICAL_RUN
from goldenlens.core.variants.flip_preview import QuestionPreview, ScoredResponse, preview_question
from goldenlens.core.variants.flip_preview_sizes import ELSEWHERE_EXAMPLES
from goldenlens.core.variants.generator import suggest_variants
from goldenlens.jobs.curation.edits import run_options
from goldenlens.jobs.progress import CancelToken, Progress, ProgressFn, no_progress
from goldenlens.jobs.project_access import takes_project
from goldenlens.store.project import ProjectStore


class UnknownQuestionError(ValueError):
    """The project has no golden question of that id; the message names a few that exist."""


@dataclass(frozen=True)
class VariantInputs:
    """What the preview needs from a project, as plain data."""

    item: GoldenItem
    responses: tuple[ScoredResponse, ...]
    thresholds: FlagThresholds
    run_id: int | None


def read_variant_inputs(store: ProjectStore, question_id: str) -> VariantInputs:
    """The golden item, every response with its stored FK scores, and the run's thresholds.

    The only function here that touches the store (store method names may change: fix them
    here). Raises :class:`UnknownQuestionError` for an unknown id.
    """
    item = store.golden.item(question_id)
    if item is None:
        known = [i.id for i in store.golden.items()]
        shown = ", ".join(known[:10]) + (f", … ({len(known)} in all)" if len(known) > 10 else "")
        raise UnknownQuestionError(
            f"there is no golden question {question_id!r} (questions: {shown or 'none'})"
        )
    run = store.runs.latest(LEXICAL_RUN, finished_only=True)
    exact = store.results.score_matrix(run.id, FACTUAL_KNOWLEDGE) if run else {}
    quasi = store.results.score_matrix(run.id, FACTUAL_KNOWLEDGE_QUASI_EXACT) if run else {}
    responses = tuple(
        ScoredResponse(
            r.question_id,
            r.pipeline,
            r.response,
            exact.get((r.question_id, r.pipeline)),
            quasi.get((r.question_id, r.pipeline)),
        )
        for r in store.responses.all()
    )
    thresholds = run_options(run.params).thresholds if run else FlagThresholds()
    return VariantInputs(item, responses, thresholds, run.id if run else None)


@takes_project
def preview_fact_variants(
    store: ProjectStore,
    question_id: str,
    fact: str | None = None,
    *,
    examples: int = ELSEWHERE_EXAMPLES,
    progress: ProgressFn = no_progress,
    cancel: CancelToken | None = None,
) -> QuestionPreview:
    """Suggestions for ``fact`` (default: the question's own fact) and what each would do when
    added to the question's current fact.

    ``progress`` hears ``variants`` with one step per suggestion previewed; ``cancel`` is
    checked between them (raises :class:`~goldenlens.jobs.progress.Cancelled`)."""
    token = cancel or CancelToken()
    inputs = read_variant_inputs(store, question_id)
    token.raise_if_cancelled()
    current = inputs.item.fact
    suggestions = suggest_variants(
        current if fact is None else fact, against=current, thresholds=inputs.thresholds
    )

    def each(done: int, total: int) -> None:
        token.raise_if_cancelled()
        progress(Progress("variants", done, total, f"previewing {done} of {total} variants"))

    return preview_question(question_id, current, inputs.responses, suggestions, examples=examples, each=each)
