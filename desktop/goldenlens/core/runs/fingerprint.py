"""Fingerprints of what a run scores, so a resumed run never mixes old and new inputs.

A run records the SHA-256 of exactly the inputs its metrics read; resuming an unfinished
run is allowed only when the project's inputs today hash to the same value. The encoding is
canonical: one JSON array per golden item and per response, sorted by key, so the order of
rows in a spreadsheet (which changes no score) does not change the fingerprint, while any
change of any text does.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from goldenlens.core.inputs import GoldenItem, PipelineResponse

#: Bumped whenever the encoding changes, so an old fingerprint can never match a new one.
_ENCODING = "goldenlens-inputs-1"


def inputs_fingerprint(
    items: Sequence[GoldenItem],
    responses: Sequence[PipelineResponse],
    *,
    questions: bool = False,
    contexts: bool = False,
) -> str:
    """SHA-256 (hex) of the golden items' ``(id, answer, fact)`` and the responses'
    ``(question_id, pipeline, response)``.

    ``questions`` adds each golden question and ``contexts`` each response's retrieved
    contexts: the lexical metrics read neither, the judge metrics read both.
    """
    digest = hashlib.sha256(_ENCODING.encode())
    digest.update(f"\ngolden {len(items)}\n".encode())
    for item in sorted(items, key=lambda i: i.id):
        golden: list[object] = [item.id, item.answer, item.fact]
        if questions:
            golden.append(item.question)
        digest.update(_line(golden))
    digest.update(f"responses {len(responses)}\n".encode())
    for response in sorted(responses, key=lambda r: (r.question_id, r.pipeline)):
        answer: list[object] = [response.question_id, response.pipeline, response.response]
        if contexts:
            answer.append(list(response.contexts))
        digest.update(_line(answer))
    return digest.hexdigest()


def _line(values: list[object]) -> bytes:
    # JSON quotes every string, so no text can forge a field or row boundary.
    return json.dumps(values, ensure_ascii=False).encode("utf-8", "surrogatepass") + b"\n"
