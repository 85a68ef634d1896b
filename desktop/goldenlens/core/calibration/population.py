"""The responses of one scoring run as the calibration sees them: who gave each, which answer
it is, and the signals the predictor reads (:mod:`~goldenlens.core.calibration.features`).

Built from plain columns so the same code serves a project (the jobs read the columns from the
store) and the tests (which read a public benchmark's files).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import log1p

import numpy as np
import numpy.typing as npt

from goldenlens.core.calibration.answers import answer_groups, answer_key
from goldenlens.core.calibration.estimator import Population
from goldenlens.core.calibration.features import feature_table
from goldenlens.core.lexical.fact_coverage import fact_word_coverage
from goldenlens.core.lexical.normalise import word_set
from goldenlens.core.lexical.refusal import refusals
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]

#: The signals worked out from the texts themselves.
FACT_COVERAGE = "fact_word_coverage"
RESPONSE_LENGTH = "response_words_log"
REFUSAL = "refusal"
EMPTY = "empty response"


@dataclass(frozen=True)
class RunResponses:
    """One run's responses, in a fixed order, with their signals."""

    population: Population
    question_ids: tuple[str, ...]
    #: Per response, its question's index in :attr:`question_ids`.
    question: IntArray
    answer_keys: tuple[str, ...]
    feature_names: tuple[str, ...]


def run_responses(
    *,
    question_ids: Sequence[str],
    pipelines: Sequence[str],
    texts: Sequence[str],
    facts: Sequence[str],
    signals: Mapping[str, FloatArray],
    pipeline_order: Sequence[str] = (),
) -> RunResponses:
    """The responses (``question_ids[i]``, ``pipelines[i]``, ``texts[i]``, their question's
    ``facts[i]``) with the run's computed ``signals`` by name (NaN: not scored) — the lexical
    scores, and judge scores where the caller has them — and those of the texts: fact-word
    coverage, length, refusal, empty. Pipelines come in ``pipeline_order`` then first-seen
    order."""
    order = list(dict.fromkeys([*pipeline_order, *pipelines]))
    index = {name: i for i, name in enumerate(order)}
    pipeline = np.fromiter((index[name] for name in pipelines), dtype=np.intp, count=len(pipelines))
    questions = list(dict.fromkeys(question_ids))
    question_index = {q: i for i, q in enumerate(questions)}
    question = np.fromiter((question_index[q] for q in question_ids), dtype=np.intp, count=len(question_ids))
    keys = tuple(answer_key(text) for text in texts)
    words = [word_set(text) for text in texts]
    columns = dict(signals)
    columns[FACT_COVERAGE] = np.array(
        [fact_word_coverage(said, fact) for said, fact in zip(words, facts, strict=True)], dtype=np.float64
    )
    columns[RESPONSE_LENGTH] = np.array([log1p(len(said)) for said in words], dtype=np.float64)
    columns[REFUSAL] = np.array(refusals(list(texts)), dtype=np.float64)
    columns[EMPTY] = np.array([not text.strip() for text in texts], dtype=np.float64)
    table = feature_table(columns, prior_from=FACTUAL_KNOWLEDGE)
    population = Population(
        pipeline, tuple(order), answer_groups(question_ids, keys), table.matrix, table.prior, question
    )
    return RunResponses(population, tuple(questions), question, keys, table.names)
