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
  on the same golden set resumes it (:func:`~goldenlens.jobs.scoring.resume.resumable_run`);
* the project's writer lock is held for the whole run.

The verbosity criterion is counted, not asked (:func:`~goldenlens.core.golden.criteria.verbosity_verdict`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
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
from goldenlens.core.lexical.signature import Signature
from goldenlens.core.runs.fingerprint import inputs_fingerprint
from goldenlens.core.runs.run_kinds import GOLDEN_REVIEW_RUN
from goldenlens.core.scores import ScoreRecord, ScoreStatus
from goldenlens.jobs.judging.judge_cache import ModelIds, cache_key, result_from_cache, result_to_cache
from goldenlens.jobs.judging.judge_job import JudgeRunError
from goldenlens.jobs.judging.judge_options import open_judge_engine
from goldenlens.jobs.judging.judge_progress import JudgeMeter
from goldenlens.jobs.progress import Cancelled, CancelToken, ProgressFn, no_progress
from goldenlens.jobs.project_access import takes_project
from goldenlens.jobs.scoring.resume import resumable_run
from goldenlens.judge.engines.protocol import JudgeEngine
from goldenlens.judge.golden_review import (
    DEFAULT_REASON_CHARS,
    VERSION,
    CriterionJudge,
    criterion_judges,
    triplet_inputs,
)
from goldenlens.judge.metrics.base import (
    DEFAULT_SEED,
    DEFAULT_TEMPERATURE,
    JudgeCall,
    MetricInputs,
    MetricResult,
    judge_signature,
)
from goldenlens.store.lock import project_lock
from goldenlens.store.project import ProjectStore
from goldenlens.store.values import GOLDEN_ROW

__all__ = [
    "GOLDEN_REVIEW_RUN",
    "GoldenReviewOptions",
    "JudgeRunError",
    "criterion_metric",
    "review_golden_set",
    "triplet_fingerprint",
]

#: Consecutive golden items whose judge calls failed (server down, engine error) before a run stops.
MAX_ENGINE_ERRORS = 5


@dataclass(frozen=True)
class GoldenReviewOptions:
    """What a golden review uses: the judge (``judge_model`` ``None`` = the bundled SmolLM2,
    or a ``judge_url`` server), sampling, the criteria, the verbosity guardrail in words and
    the longest reason a judge reply may hold."""

    judge_model: Path | None = None
    judge_url: str | None = None
    n_ctx: int = 4096
    n_threads: int | None = None
    temperature: float = DEFAULT_TEMPERATURE
    seed: int = DEFAULT_SEED
    criteria: tuple[Criterion, ...] = tuple(Criterion)
    max_answer_words: int = DEFAULT_MAX_ANSWER_WORDS
    reason_chars: int = DEFAULT_REASON_CHARS

    def __post_init__(self) -> None:
        if self.judge_model is not None and self.judge_url:
            raise ValueError("choose either a judge model file or a judge server URL, not both")
        if not self.criteria:
            raise ValueError("choose at least one criterion")
        object.__setattr__(self, "criteria", tuple(dict.fromkeys(Criterion(c) for c in self.criteria)))
        if self.max_answer_words < 1:
            raise ValueError(f"the word guardrail must be at least 1, got {self.max_answer_words}")
        if self.n_ctx < 256:
            raise ValueError(f"the context size must be at least 256 tokens, got {self.n_ctx}")
        criterion_judges(self.criteria, reason_chars=self.reason_chars)  # checks reason_chars

    def judges(self) -> list[CriterionJudge]:
        return criterion_judges(self.criteria, reason_chars=self.reason_chars)

    @property
    def needs_judge(self) -> bool:
        return any(CRITERION_INFO[c].judged for c in self.criteria)

    def params(self) -> dict[str, Any]:
        """The run's parameters (JSON), enough to resume it with the same judge."""
        return {
            "judge_model": None if self.judge_model is None else str(self.judge_model),
            "judge_url": self.judge_url,
            "n_ctx": self.n_ctx,
            "n_threads": self.n_threads,
            "temperature": self.temperature,
            "seed": self.seed,
            "criteria": [c.value for c in self.criteria],
            "max_answer_words": self.max_answer_words,
            "reason_chars": self.reason_chars,
        }

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> GoldenReviewOptions:
        """The options of a stored run."""
        model = params.get("judge_model")
        return cls(
            judge_model=None if model is None else Path(model),
            judge_url=params.get("judge_url"),
            n_ctx=int(params.get("n_ctx", 4096)),
            n_threads=params.get("n_threads"),
            temperature=float(params.get("temperature", DEFAULT_TEMPERATURE)),
            seed=int(params.get("seed", DEFAULT_SEED)),
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
    max_engine_errors: int = MAX_ENGINE_ERRORS,
) -> int:
    """Rate every golden triplet of ``store`` on ``options.criteria``; return the run id.

    ``engine`` lets the caller keep a judge loaded between runs; otherwise it is opened from
    ``options`` and closed at the end (none is opened when only counted criteria are chosen).
    On cancel the finished items stay, the run is marked ``cancelled`` and :class:`Cancelled`
    is raised. Items whose judge calls failed in the engine are not saved (a resume retries
    them): after ``max_engine_errors`` consecutive ones, or at the end if there were any, the
    run is marked ``failed`` and :class:`~goldenlens.jobs.judging.judge_job.JudgeRunError` is raised.
    """
    with project_lock(store.path, while_waiting=None if cancel is None else cancel.raise_if_cancelled):
        if engine is not None or not options.needs_judge:
            return _ReviewRun(
                store,
                options,
                engine=engine,
                progress=progress,
                cancel=cancel,
                max_engine_errors=max_engine_errors,
            ).run(resume)
        with open_judge_engine(
            judge_model=options.judge_model,
            judge_url=options.judge_url,
            n_ctx=options.n_ctx,
            n_threads=options.n_threads,
            seed=options.seed,
        ) as opened:
            return _ReviewRun(
                store,
                options,
                engine=opened,
                progress=progress,
                cancel=cancel,
                max_engine_errors=max_engine_errors,
            ).run(resume)


@dataclass
class _Outcome:
    """One golden item's records, whether a model was called, and what went wrong."""

    records: list[ScoreRecord]
    fresh: bool = False
    tokens: int = 0
    engine_error: str = ""
    cancelled: bool = False


class _ReviewRun:
    def __init__(
        self,
        store: ProjectStore,
        options: GoldenReviewOptions,
        *,
        engine: JudgeEngine | None,
        progress: ProgressFn,
        cancel: CancelToken | None,
        max_engine_errors: int,
    ) -> None:
        self.store = store
        self.options = options
        self.engine = engine
        self.progress = progress
        self.cancel = cancel
        self.max_engine_errors = max_engine_errors
        self.judges = options.judges() if engine is not None else []
        self.models = ModelIds(judge=engine.model_sha256 if engine is not None else "")
        self.signatures = {
            j.name: judge_signature(
                j, engine=engine, embedder=None, temperature=options.temperature, seed=options.seed
            ).to_json()
            for j in self.judges
        }
        verbosity = criterion_metric(Criterion.VERBOSITY)
        self.signatures[verbosity] = Signature(
            verbosity, VERSION, {"max_answer_words": options.max_answer_words, "rule": "word count"}
        ).to_json()

    def run(self, resume: bool) -> int:
        items = self.store.golden.items()
        fingerprint = inputs_fingerprint(items, [], questions=True)
        wanted = self.options.params()
        run_id = (
            resumable_run(self.store, GOLDEN_REVIEW_RUN, fingerprint, lambda stored: dict(stored) == wanted)
            if resume
            else None
        )
        if run_id is None:
            run_id = self.store.runs.start(
                GOLDEN_REVIEW_RUN, wanted, total=len(items), inputs_sha256=fingerprint
            )
        else:
            self.store.runs.resume(run_id)
        done = {question_id for question_id, _pipeline in self.store.results.scored_keys(run_id)}
        todo = [item for item in items if item.id not in done]
        self.meter = JudgeMeter(
            self.progress, len(items), len(items) - len(todo), stage=GOLDEN_REVIEW_RUN, unit="golden rows"
        )
        self.meter.report()
        try:
            failed = self._review_all(run_id, todo)
        except Cancelled:
            self.store.runs.finish(run_id, "cancelled")
            raise
        except JudgeRunError:
            self.store.runs.finish(run_id, "failed")
            raise
        if failed:
            self.store.runs.finish(run_id, "failed")
            raise JudgeRunError(
                f"{failed} golden rows failed in the judge engine and were not saved; resume to retry them."
            )
        self.store.runs.finish(run_id, "finished")
        self.meter.report(final=True)
        return run_id

    def _review_all(self, run_id: int, todo: list[GoldenItem]) -> int:
        """Review and commit ``todo`` item by item; the number left unsaved by engine errors."""
        failed = streak = 0
        for item in todo:
            if self.cancel is not None and self.cancel.cancelled:
                raise Cancelled
            outcome = self._review(item)
            if outcome.cancelled:
                raise Cancelled
            if outcome.engine_error:
                failed += 1
                streak += 1
                if streak >= self.max_engine_errors:
                    raise JudgeRunError(
                        f"stopped after {streak} consecutive golden rows failed in the judge engine; the "
                        f"last error: {outcome.engine_error}. Finished rows are saved; resume when the "
                        "engine works."
                    )
                continue
            streak = 0
            self.store.results.save(run_id, outcome.records)
            self.meter.row_done(fresh=outcome.fresh, tokens=outcome.tokens)
            self.meter.committed()
            self.meter.report()
        return failed

    def _review(self, item: GoldenItem) -> _Outcome:
        """The item's records: cached verdicts, fresh ones (cached as they come), the count."""
        inputs = triplet_inputs(item.question, item.answer, item.fact)
        outcome = _Outcome([])
        for judge in self.judges:
            if self.cancel is not None and self.cancel.cancelled:
                outcome.cancelled = True
                return outcome
            result = self._judged(judge, inputs, outcome)
            if outcome.cancelled or outcome.engine_error:
                return outcome
            outcome.records.append(self._record(item.id, judge.name, result))
        if Criterion.VERBOSITY in self.options.criteria:
            verdict, reason = verbosity_verdict(item.answer, self.options.max_answer_words)
            detail: dict[str, object] = {"verdict": verdict.value, "reason": reason, "source": SOURCE_RULE}
            name = criterion_metric(Criterion.VERBOSITY)
            outcome.records.append(
                ScoreRecord(
                    item.id, GOLDEN_ROW, name, VERDICT_VALUES[verdict], self.signatures[name], detail=detail
                )
            )
        return outcome

    def _judged(self, judge: CriterionJudge, inputs: MetricInputs, outcome: _Outcome) -> MetricResult:
        assert self.engine is not None  # judges exist only with an engine
        options = self.options
        key = cache_key(judge, inputs, self.models, temperature=options.temperature, seed=options.seed)
        cached = self.store.cache.get(key)
        result = None if cached is None else result_from_cache(judge.name, cached)
        if result is not None:
            return result
        call = JudgeCall(self.engine, temperature=options.temperature, seed=options.seed, cancel=self.cancel)
        result = judge.score(inputs, call, None)
        outcome.fresh = True
        outcome.tokens += result.completion_tokens
        finishes = [reply["finish_reason"] for reply in call.replies]
        if "cancelled" in finishes:
            outcome.cancelled = True
        errors = [reply["error"] for reply in call.replies if reply["finish_reason"] == "error"]
        if errors:
            outcome.engine_error = str(errors[-1]) or "judge engine error"
        if not outcome.cancelled and not outcome.engine_error:
            self.store.cache.put(
                key,
                metric=judge.name,
                model_sha256=self.models.judge,
                prompt_version=judge.prompt_version,
                output=result_to_cache(result),
            )
        return result

    def _record(self, question_id: str, metric: str, result: MetricResult) -> ScoreRecord:
        detail: dict[str, object] = {
            **result.detail,
            "usage": {
                "calls": result.calls,
                "prompt_tokens": result.prompt_tokens,
                "completion_tokens": result.completion_tokens,
                "seconds": round(result.seconds, 4),
            },
        }
        return ScoreRecord(
            question_id=question_id,
            pipeline=GOLDEN_ROW,
            metric=metric,
            value=result.value,
            signature=self.signatures[metric],
            status=ScoreStatus(result.status),
            reason=result.reason,
            detail=detail,
        )
