"""Source chunks and a scripted judge that drafts them well: shared by the drafting tests."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from tests.judge.scripted import Reply

from goldenlens.core.golden.source_chunks import SourceChunk
from goldenlens.judge.engines.protocol import ChatMessage

SALES = "Total net sales increased 11% to $134,383 million in the second quarter of 2023."
FX = "Changes in foreign exchange rates reduced International segment net sales by $180 million for Q2 2023."
OFFICE = "Amazon.com, Inc. 410 Terry Avenue North, Seattle, Washington 98109-5210."

#: What a good judge would write for each passage (question, fact, answer).
GOOD: dict[str, tuple[str, str, str]] = {
    SALES: (
        "How much were Amazon's total net sales in the second quarter of 2023?",
        "$134,383 million",
        "Amazon's total net sales were $134,383 million in the second quarter of 2023.",
    ),
    FX: (
        "By how much did exchange rates reduce Amazon's International net sales in Q2 2023?",
        "$180 million",
        "Foreign exchange rates reduced International net sales by $180 million.",
    ),
    OFFICE: (
        "What is the street address of Amazon's principal office?",
        "410 Terry Avenue North",
        "Amazon's principal office is at 410 Terry Avenue North, Seattle.",
    ),
}


def chunk(text: str, chunk_id: str, document: str = "report.pdf", page: int | None = 1) -> SourceChunk:
    return SourceChunk(document, chunk_id, text, page=page)


CHUNKS = [chunk(SALES, "p1-1"), chunk(FX, "p1-2"), chunk(OFFICE, "p2-1", page=2)]


def passage(messages: Sequence[ChatMessage]) -> str:
    return messages[-1]["content"].removeprefix("Passage:\n")


def good_reply(messages: Sequence[ChatMessage], schema: Mapping[str, Any]) -> Reply:
    question, fact, answer = GOOD[passage(messages)]
    return json.dumps({"question": question, "fact": fact, "answer": answer})
