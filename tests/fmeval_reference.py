"""A literal, per-row port of AWS FMEval 1.2.3's lexical metrics: the oracle for the core tests.

Slow and plain on purpose. Each function follows FMEval's (and NLTK's) control flow one row at a
time: no caching, no precomputation, no shared state, nothing imported from ``goldenlens``. The
tests and ``tests/bench/bench_lexical.py`` compare GoldenLens against these numbers with ``==``.

Sources being ported (FMEval 1.2.3):

* ``fmeval.eval_algorithms.util.normalize_text_quac_protocol``
* ``fmeval.eval_algorithms.qa_accuracy``: ``_f1_score``, ``_precision``, ``_recall``,
  ``_exact_match_score``, ``_quasi_exact_match_score`` and the ``max`` over the targets of
  ``target_output.split(target_output_delimiter)``
* ``fmeval.eval_algorithms.factual_knowledge``: ``_exact_inclusion_score``,
  ``_quasi_exact_inclusion_score`` and ``max``/``min`` over ``target_output.split(delimiter)``
* ``nltk.metrics.scores``: ``precision``, ``recall``, ``f_measure`` (``alpha=0.5``)
"""

from __future__ import annotations

import string
from collections.abc import Callable

FACTUAL_KNOWLEDGE = "factual_knowledge"
FACTUAL_KNOWLEDGE_QUASI_EXACT = "factual_knowledge_quasi_exact"
F1_SCORE = "f1_score"
PRECISION_OVER_WORDS = "precision_over_words"
RECALL_OVER_WORDS = "recall_over_words"
EXACT_MATCH_SCORE = "exact_match_score"
QUASI_EXACT_MATCH_SCORE = "quasi_exact_match_score"

QA_SCORE_NAMES = (
    F1_SCORE,
    PRECISION_OVER_WORDS,
    RECALL_OVER_WORDS,
    EXACT_MATCH_SCORE,
    QUASI_EXACT_MATCH_SCORE,
)
FACT_SCORE_NAMES = (FACTUAL_KNOWLEDGE, FACTUAL_KNOWLEDGE_QUASI_EXACT)
ALL_SCORE_NAMES = FACT_SCORE_NAMES + QA_SCORE_NAMES

QA_TARGET_DELIMITER = "<OR>"


# --- fmeval.eval_algorithms.util -------------------------------------------------------------


def normalize_text_quac_protocol(text: str) -> str:
    """Lower-case, drop ASCII punctuation, split on ``" "``, drop empties and articles, join."""
    text = text.lower()
    text = "".join(character for character in text if character not in string.punctuation)
    return " ".join([word for word in text.split(" ") if (word != "" and word not in ["a", "an", "the"])])


# --- nltk.metrics.scores ---------------------------------------------------------------------


def precision(reference: set[str], test: set[str]) -> float | None:
    if len(test) == 0:
        return None
    return len(reference.intersection(test)) / len(test)


def recall(reference: set[str], test: set[str]) -> float | None:
    if len(reference) == 0:
        return None
    return len(reference.intersection(test)) / len(reference)


def f_measure(reference: set[str], test: set[str], alpha: float = 0.5) -> float | None:
    p = precision(reference, test)
    r = recall(reference, test)
    if p is None or r is None:
        return None
    if p == 0 or r == 0:
        return 0
    return 1.0 / (alpha / p + (1 - alpha) / r)


# --- fmeval.eval_algorithms.qa_accuracy ------------------------------------------------------


def _normalize_and_strip_text(text: str, *, normalize_text: bool = False, strip_text: bool = False) -> str:
    if strip_text:
        text = text.strip()
    if normalize_text:
        text = normalize_text_quac_protocol(text)
    return text


def _split(text: str) -> set[str]:
    return set(text.split())


def _f1_score(
    model_output: str, target_output: str, *, normalize_text: bool = False, strip_text: bool = False
) -> float:
    model_output = _normalize_and_strip_text(
        model_output, normalize_text=normalize_text, strip_text=strip_text
    )
    target_output = _normalize_and_strip_text(
        target_output, normalize_text=normalize_text, strip_text=strip_text
    )
    ret = f_measure(reference=_split(target_output), test=_split(model_output))
    if ret is None:
        return 0.0
    return float(ret)


def _precision(
    model_output: str, target_output: str, *, normalize_text: bool = False, strip_text: bool = False
) -> float:
    model_output = _normalize_and_strip_text(
        model_output, normalize_text=normalize_text, strip_text=strip_text
    )
    target_output = _normalize_and_strip_text(
        target_output, normalize_text=normalize_text, strip_text=strip_text
    )
    ret = precision(reference=_split(target_output), test=_split(model_output))
    if ret is None:
        return 0.0
    return float(ret)


def _recall(
    model_output: str, target_output: str, *, normalize_text: bool = False, strip_text: bool = False
) -> float:
    model_output = _normalize_and_strip_text(
        model_output, normalize_text=normalize_text, strip_text=strip_text
    )
    target_output = _normalize_and_strip_text(
        target_output, normalize_text=normalize_text, strip_text=strip_text
    )
    ret = recall(reference=_split(target_output), test=_split(model_output))
    if ret is None:
        return 0.0
    return float(ret)


def _exact_match_score(model_output: str, target_output: str) -> float:
    return float(model_output.strip() == target_output.strip())


def _quasi_exact_match_score(model_output: str, target_output: str) -> float:
    return float(
        normalize_text_quac_protocol(model_output.strip())
        == normalize_text_quac_protocol(target_output.strip())
    )


def _qa_get_score(
    target_output: str,
    model_output: str,
    eval_fn: Callable[..., float],
    target_output_delimiter: str,
    **fn_kwargs: bool,
) -> float:
    possible_targets = target_output.split(target_output_delimiter)
    return max([eval_fn(model_output, target, **fn_kwargs) for target in possible_targets])


def qa_accuracy(
    model_output: str, target_output: str, target_output_delimiter: str = QA_TARGET_DELIMITER
) -> dict[str, float]:
    """The five QA Accuracy scores of one row, as FMEval's ``QAAccuracy.evaluate_sample``."""
    return {
        F1_SCORE: _qa_get_score(
            target_output,
            model_output,
            _f1_score,
            target_output_delimiter,
            normalize_text=True,
            strip_text=True,
        ),
        PRECISION_OVER_WORDS: _qa_get_score(
            target_output,
            model_output,
            _precision,
            target_output_delimiter,
            normalize_text=True,
            strip_text=True,
        ),
        RECALL_OVER_WORDS: _qa_get_score(
            target_output,
            model_output,
            _recall,
            target_output_delimiter,
            normalize_text=True,
            strip_text=True,
        ),
        EXACT_MATCH_SCORE: _qa_get_score(
            target_output, model_output, _exact_match_score, target_output_delimiter
        ),
        QUASI_EXACT_MATCH_SCORE: _qa_get_score(
            target_output, model_output, _quasi_exact_match_score, target_output_delimiter
        ),
    }


# --- fmeval.eval_algorithms.factual_knowledge ------------------------------------------------


def _exact_inclusion_score(model_output: str, target_output: str) -> float:
    model_output_lower_case = model_output.lower()
    return float(target_output.lower() in model_output_lower_case)


def _quasi_exact_inclusion_score(model_output: str, target_output: str) -> float:
    return float(
        normalize_text_quac_protocol(target_output.strip())
        in normalize_text_quac_protocol(model_output.strip())
    )


def _fact_get_score(
    target_output: str,
    model_output: str,
    score_fn: Callable[[str, str], float],
    target_output_delimiter: str,
    logical_operator: str,
) -> float:
    possible_targets = target_output.split(target_output_delimiter)
    if logical_operator == "OR":
        return max([score_fn(model_output, target) for target in possible_targets])
    # logical_operator == "AND"
    return min([score_fn(model_output, target) for target in possible_targets])


def factual_knowledge(
    model_output: str, target_output: str, target_output_delimiter: str = "<OR>", logical_operator: str = "OR"
) -> dict[str, float]:
    """Both Factual Knowledge scores of one row, for one (delimiter, operator) run setting."""
    if logical_operator not in ("OR", "AND"):
        raise ValueError(f"logical_operator must be OR or AND, not {logical_operator!r}")
    return {
        FACTUAL_KNOWLEDGE: _fact_get_score(
            target_output, model_output, _exact_inclusion_score, target_output_delimiter, logical_operator
        ),
        FACTUAL_KNOWLEDGE_QUASI_EXACT: _fact_get_score(
            target_output,
            model_output,
            _quasi_exact_inclusion_score,
            target_output_delimiter,
            logical_operator,
        ),
    }


# --- per-row glue used by the tests (not FMEval: FMEval sets the delimiter once per run) -----


def fact_setting(fact: str) -> tuple[str, str]:
    """The FMEval (delimiter, operator) a single-operator fact implies.

    A fact with only ``<AND>`` is ``("<AND>", "AND")``; anything else without ``<AND>`` is
    ``("<OR>", "OR")`` (a fact with neither is one target either way). A fact mixing both
    operators has no FMEval equivalent and raises ``ValueError``.
    """
    has_or, has_and = "<OR>" in fact, "<AND>" in fact
    if has_or and has_and:
        raise ValueError("a fact mixing <OR> and <AND> has no single FMEval setting")
    if has_and:
        return "<AND>", "AND"
    return "<OR>", "OR"


def all_scores(model_output: str, golden_answer: str, fact: str) -> dict[str, float]:
    """All seven lexical scores of one row: Factual Knowledge on ``fact``, QA Accuracy on the answer."""
    delimiter, operator = fact_setting(fact)
    return {
        **factual_knowledge(model_output, fact, delimiter, operator),
        **qa_accuracy(model_output, golden_answer),
    }
