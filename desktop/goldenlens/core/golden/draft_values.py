"""The small values of drafting: the review queue's states and the defaults of the answer
guardrail and of the chunk size.

Apart from :mod:`goldenlens.core.golden.drafts` and :mod:`goldenlens.core.golden.source_chunks` (which
export them too) because the command line names them while it builds its parser — as
choices and defaults of ``draft`` and ``drafts`` — and every other command line would
otherwise load the drafting rules first.
"""

from __future__ import annotations

from enum import StrEnum

from goldenlens.core.lexical.flags import FlagThresholds

__all__ = ["DEFAULT_CHUNK_WORDS", "DEFAULT_MAX_ANSWER_WORDS", "DraftStatus"]

#: The answer guardrail: the curation advisor's "verbose golden answer" threshold, so that an
#: accepted draft within it is never flagged verbose by the advisor.
DEFAULT_MAX_ANSWER_WORDS = FlagThresholds().verbose_answer_words

#: Words per chunk: a passage a small judge reads whole, long enough to hold a few facts.
DEFAULT_CHUNK_WORDS = 180


class DraftStatus(StrEnum):
    """Where a draft is in the review queue."""

    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"
