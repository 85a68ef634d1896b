"""The judge reviews the golden set: every triplet rated on the curation criteria.

Qt-free, like every job: :func:`review_golden_set` takes a progress callback and a cancel
token, and works as the judge metric runs do (:mod:`goldenlens.jobs.judging.judge_job`), on the same
machinery:

* a run of its own kind (:data:`~goldenlens.core.runs.run_kinds.GOLDEN_REVIEW_RUN`) whose score
  rows are one per golden item and criterion, on the golden row (pipeline ``""``); the value
  encodes the verdict (:data:`~goldenlens.core.golden.criteria.VERDICT_VALUES`) and the detail
  holds verdict, reason and source; a judge reply that cannot be read is *not scored* with
  its cause, never a guessed verdict;
* each finished golden item is one commit, and each judge verdict is put in the judge cache
  as it comes (:mod:`goldenlens.jobs.judging.judge_cache`): a rerun with the same model and options
  calls no model, and editing one golden row re-asks only the criteria that read what changed;
* a run cancelled, failed or killed keeps its finished items; calling again with equal options
  on the same golden set resumes it (the loop is :func:`~goldenlens.jobs.judging.run_driver.drive_run`'s);
* the project's writer lock is held for the whole run.

The verbosity criterion is counted, not asked (:func:`~goldenlens.core.golden.criteria.verbosity_verdict`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any

from goldenlens.core.golden.criteria import (
    CRITERION_INFO,
    DEFAULT_MAX_ANSWER_WORDS,
    SOURCE_RULE,
    VERDICT_VALUES,
    Criterion,
    criterion_from_name,
    criterion_metric,
    triplet_fingerprint,
    verbosity_verdict,
)
from goldenlens.core.inputs import GoldenItem
from goldenlens.core.judge_engine_spec import JudgeEngineSpec
from goldenlens.core.lexical.signature import Signature
from goldenlens.core.runs.fingerprint import inputs_fingerprint
from goldenlens.core.runs.run_kinds import GOLDEN_REVIEW_RUN
from goldenlens.core.scores import ScoreRecord
from goldenlens.jobs.judging import run_driver
from goldenlens.jobs.judging.judge_cache import ModelIds, cached_result, put_result
from goldenlens.jobs.judging.judge_progress import JudgeMeter
from goldenlens.jobs.judging.run_driver import JudgeRunError
from goldenlens.jobs.progress import CancelToken, ProgressFn, no_progress
from goldenlens.jobs.project_access import takes_project
from goldenlens.judge.engines.protocol import JudgeEngine
from goldenlens.judge.golden_review import (
    DEFAULT_REASON_CHARS,
    VERSION,
    CriterionJudge,
    criterion_judges,
    triplet_inputs,
)
from goldenlens.judge.metrics.base import JudgeCall, MetricInputs, MetricResult, judge_signature
from goldenlens.store.project import ProjectStore
from goldenlens.store.values import GOLDEN_ROW, RUN_FINISHED

__all__ = [
    "GOLDEN_REVIEW_RUN",
    "GoldenReviewOptions",
    "JudgeRunError",
    "criterion_metric",
    "review_golden_set",
    "triplet_fingerprint",
]


@dataclass(frozen=True)
class GoldenReviewOptions:
    """What a golden review uses: the judge (``engine``; its embedding model is not used),
    the criteria, the verbosity guardrail in words and the longest reason a judge reply may
    hold."""

    engine: JudgeEngineSpec = field(default_factory=JudgeEngineSpec)
    criteria: tuple[Criterion, ...] = tuple(Criterion)
    max_answer_words: int = DEFAULT_MAX_ANSWER_WORDS
    reason_chars: int = DEFAULT_REASON_CHARS

    def __post_init__(self) -> None:
        if not self.criteria:
            raise ValueError("choose at least one criterion")
        object.__setattr__(self, "criteria", tuple(dict.fromkeys(Criterion(c) for c in self.criteria)))
        if self.max_answer_words < 1:
            raise ValueError(f"the word guardrail must be at least 1, got {self.max_answer_words}")
        criterion_judges(self.criteria, reason_chars=self.reason_chars)  # checks reason_chars

    def judges(self) -> list[CriterionJudge]:
        return criterion_judges(self.criteria, reason_chars=self.reason_chars)

    @property
    def needs_judge(self) -> bool:
        return any(CRITERION_INFO[c].judged for c in self.criteria)

    def params(self) -> dict[str, Any]:
        """The run's parameters (JSON), enough to resume it with the same judge."""
        return {
            **self.engine.judge_params(),
            "criteria": [c.value for c in self.criteria],
            "max_answer_words": self.max_answer_words,
            "reason_chars": self.reason_chars,
        }

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> GoldenReviewOptions:
        """The options of a stored run."""
        return cls(
            engine=JudgeEngineSpec.from_params(params),
            criteria=tuple(
                criterion_from_name(c) for c in params.get("criteria") or [c.value for c in Criterion]
            ),
            max_answer_words=int(params.get("max_answer_words", DEFAULT_MAX_ANSWER_WORDS)),
            reason_chars=int(params.get("reason_chars", DEFAULT_REASON_CHARS)),
        )


@takes_project
def review_golden_set(
    store: ProjectStore,
    options: GoldenReviewOptions,
    *,
    progress: ProgressFn = no_progress,
    cancel: CancelToken | None = None,
    engine: JudgeEngine | None = None,
    resume: bool = True,
    max_engine_errors: int = run_driver.MAX_ENGINE_ERRORS,
) -> int:
    """Rate every golden triplet of ``store`` on ``options.criteria``; return the run id.

    ``engine`` lets the caller keep a judge loaded between runs; otherwise it is opened from
    ``options`` and closed at the end (none is opened when only counted criteria are chosen).
    On cancel the finished items stay, the run is marked ``cancelled`` and :class:`Cancelled`
    is raised. Items whose judge calls failed in the engine are not saved (a resume retries
    them): after ``max_engine_errors`` consecutive ones, or at the end if there were any, the
    run is marked ``failed`` and :class:`~goldenlens.jobs.judging.run_driver.JudgeRunError` is raised.
    """
    call = run_driver.RunCall(store, progress, cancel, resume, max_engine_errors)
    counted_only = engine is None and not options.needs_judge
    with (
        call.lock(),
        nullcontext(None) if counted_only else run_driver.judge_engine(engine, options.engine) as judge,
    ):
        return _ReviewRun(call, options, judge).run()


@dataclass
class _Outcome:
    """One golden item's judged criteria, whether a model was called, and what went wrong."""

    results: list[MetricResult] = field(default_factory=list)
    fresh: bool = False
    tokens: int = 0
    engine_error: str = ""
    cancelled: bool = False


class _ReviewRun:
    """The :class:`~goldenlens.jobs.judging.run_driver.RunSteps` of a golden review: an item
    whose engine failed is not saved, and a run with such items ends failed."""

    unit = "golden rows"
    stop_advice = "Finished rows are saved; resume when the engine works."
    stop_error = JudgeRunError

    def __init__(
        self, call: run_driver.RunCall, options: GoldenReviewOptions, engine: JudgeEngine | None
    ) -> None:
        self.call = call
        self.store = call.store
        self.options = options
        self.engine = engine
        self.meter = JudgeMeter(call.progress, 0, 0)
        self.failed = 0  # golden rows left unsaved by an engine error
        self.judges = options.judges() if engine is not None else []
        self.models = ModelIds(judge=engine.model_sha256 if engine is not None else "")
        spec = options.engine
        self.signatures = {
            j.name: judge_signature(
                j, engine=engine, embedder=None, temperature=spec.temperature, seed=spec.seed
            ).to_json()
            for j in self.judges
        }
        verbosity = criterion_metric(Criterion.VERBOSITY)
        self.signatures[verbosity] = Signature(
            verbosity, VERSION, {"max_answer_words": options.max_answer_words, "rule": "word count"}
        ).to_json()

    def run(self) -> int:
        items = self.store.golden.items()
        run_id = run_driver.open_run(
            self.call,
            GOLDEN_REVIEW_RUN,
            fingerprint=inputs_fingerprint(items, [], questions=True),
            params=self.options.params(),
            total=len(items),
        )
        assert run_id is not None  # a run is always started
        done = {question_id for question_id, _pipeline in self.store.results.scored_keys(run_id)}
        todo = [item for item in items if item.id not in done]
        self.meter = JudgeMeter(
            self.call.progress,
            len(items),
            len(items) - len(todo),
            stage=GOLDEN_REVIEW_RUN,
            unit="golden rows",
        )
        self.meter.report()
        run_driver.drive_run(self.call, run_id, self, todo)
        return run_id

    def outcomes(self, todo: Sequence[GoldenItem]) -> Iterator[tuple[GoldenItem, _Outcome]]:
        return run_driver.one_by_one(todo, self._review, self.call.cancel)

    def take(self, run_id: int, item: GoldenItem, outcome: _Outcome) -> None:
        """Commit the item's verdicts (the judge's, then the counted one); an item whose
        engine failed is not saved, so a resume asks again."""
        if outcome.engine_error:
            self.failed += 1
            return
        records = [
            result.record(item.id, GOLDEN_ROW, self.signatures[result.metric]) for result in outcome.results
        ]
        if Criterion.VERBOSITY in self.options.criteria:
            records.append(self._verbosity(item))
        self.store.results.save(run_id, records)
        self.meter.row_done(fresh=outcome.fresh, tokens=outcome.tokens)
        self.meter.committed()
        self.meter.report()

    def conclude(self) -> str:
        if self.failed:
            raise JudgeRunError(
                f"{self.failed} {self.unit} failed in the judge engine and were not saved; "
                "resume to retry them."
            )
        self.meter.report(final=True)
        return RUN_FINISHED

    def flush(self, run_id: int, *, keep_failed: bool) -> None:
        """Nothing waits: every golden row is committed as it is reviewed."""

    def _review(self, item: GoldenItem) -> _Outcome:
        """The item's judged criteria: cached verdicts, and fresh ones (cached as they come)."""
        inputs = triplet_inputs(item.question, item.answer, item.fact)
        outcome = _Outcome()
        for judge in self.judges:
            if self.call.cancelled:
                outcome.cancelled = True
                return outcome
            result = self._judged(judge, inputs, outcome)
            if outcome.cancelled or outcome.engine_error:
                return outcome
            outcome.results.append(result)
        return outcome

    def _verbosity(self, item: GoldenItem) -> ScoreRecord:
        """The verbosity criterion: counted, not asked."""
        verdict, reason = verbosity_verdict(item.answer, self.options.max_answer_words)
        detail: dict[str, object] = {"verdict": verdict.value, "reason": reason, "source": SOURCE_RULE}
        name = criterion_metric(Criterion.VERBOSITY)
        return ScoreRecord(
            item.id, GOLDEN_ROW, name, VERDICT_VALUES[verdict], self.signatures[name], detail=detail
        )

    def _judged(self, judge: CriterionJudge, inputs: MetricInputs, outcome: _Outcome) -> MetricResult:
        assert self.engine is not None  # judges exist only with an engine
        spec = self.options.engine
        key, result = cached_result(
            self.store, judge, inputs, self.models, temperature=spec.temperature, seed=spec.seed
        )
        if result is not None:
            return result
        asked = JudgeCall(self.engine, temperature=spec.temperature, seed=spec.seed, cancel=self.call.cancel)
        result = judge.score(inputs, asked, None)
        outcome.fresh = True
        outcome.tokens += result.completion_tokens
        outcome.cancelled = outcome.cancelled or asked.cancelled
        outcome.engine_error = asked.engine_error or outcome.engine_error
        if not outcome.cancelled and not outcome.engine_error:
            put_result(self.store, key, judge, self.models, result)
        return result
