"""Bespoke-MiniCheck as it was trained and as its reference code runs it (github.com/Liyan06/
MiniCheck, ``minicheck/inference.py`` and ``minicheck/utils.py``, mode "bespoke").

* The input format is the model's training format: the system turn below and one user turn
  ``Document: …\\nClaim: …``. The system text is quoted from MiniCheck's ``SYSTEM_PROMPT``:
  it is the input format the model was trained on, reproduced because any other wording is a
  different prompt for this model.
* The answer is one token, read as the probability of "Yes": the summed probability of the
  first token's five most likely tokens that read "yes" (MiniCheck's ``get_support_prob``);
  an engine that cannot see token probabilities gives the bare answer (P = 1 or 0).
* The document is cut into chunks of whole sentences, line breaks kept, each chunk at most
  ``chunk_tokens`` tokens (a sentence longer than that is a chunk of its own, as in
  MiniCheck); the claim is split into sentences. Per sentence the maximum over chunks, over
  sentences the minimum; supported when that is above 0.5 (MiniCheck: ``> 0.5``).
"""

from __future__ import annotations

from collections.abc import Callable

from goldenlens.core.golden.sentences import split_sentences

#: MiniCheck's ``SYSTEM_PROMPT`` (minicheck/utils.py), the model's trained input format.
SYSTEM_PROMPT = (
    "Determine whether the provided claim is consistent with the corresponding document. "
    "Consistency in this context implies that all information presented in the claim is "
    "substantiated by the document. If not, it should be considered inconsistent. Please "
    'assess the claim\'s consistency with the document by responding with either "Yes" or "No".'
)
#: MiniCheck reserves this many tokens of the model's context for the claim and the prompt.
CLAIM_RESERVE_TOKENS = 300
THRESHOLD = 0.5
PROMPT_VERSION = "minicheck-2"


def user_prompt(document: str, claim: str) -> str:
    """MiniCheck's ``USER_PROMPT`` with the document and the claim filled in."""
    return f"Document: {document}\nClaim: {claim}"


def chunk_document(document: str, chunk_tokens: int, count_tokens: Callable[[str], int]) -> list[str]:
    """``document`` as chunks of whole sentences of at most ``chunk_tokens`` tokens each.

    Sentences within a line are joined by a space, lines by a line break; an empty document
    is one empty chunk (MiniCheck then checks the claim against nothing)."""
    units: list[tuple[str, bool]] = []  # (sentence, starts a new line)
    for line in document.split("\n"):
        for index, sentence in enumerate(split_sentences(line)):
            units.append((sentence, index == 0))
    chunks: list[str] = []
    current = ""
    used = 0
    for sentence, new_line in units:
        size = count_tokens(sentence)
        if current and used + size > chunk_tokens:
            chunks.append(current)
            current, used = "", 0
        current = f"{current}{chr(10) if new_line else ' '}{sentence}" if current else sentence
        used += size
    if current:
        chunks.append(current)
    return chunks or [""]


def is_supported(probabilities: list[list[float]]) -> tuple[float, bool]:
    """``probabilities[sentence][chunk]`` → (min over sentences of the max over chunks, > 0.5)."""
    score = min(max(per_chunk) for per_chunk in probabilities)
    return score, score > THRESHOLD
