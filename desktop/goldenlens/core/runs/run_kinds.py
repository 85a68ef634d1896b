"""The kinds of scoring run a project holds (``runs.kind``): named once for every layer."""

from __future__ import annotations

from typing import Final

#: The seven FMEval lexical metrics (``goldenlens.jobs.scoring.score_job``).
LEXICAL_RUN: Final = "lexical"
#: LLM-judged and embedding metrics (``goldenlens.jobs.judging.judge_job``).
JUDGE_RUN: Final = "judge"
#: Golden items drafted by the judge from source documents (``goldenlens.jobs.drafting.draft_job``).
DRAFT_RUN: Final = "draft"
#: The judge's review of the golden triplets on the curation criteria
#: (``goldenlens.jobs.judging.golden_review_job``): one score row per golden item and criterion.
GOLDEN_REVIEW_RUN: Final = "golden_review"
