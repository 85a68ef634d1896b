"""The judge options of the command line: the engine options every judge command shares
(:func:`add_engine_arguments`, read back as a
:class:`~goldenlens.core.judge_engine_spec.JudgeEngineSpec` by :func:`engine_spec_from_args`),
the metric options of ``goldenlens score``, and the judge part of ``goldenlens resume``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from goldenlens.cli.input_options import parse_pairs
from goldenlens.cli.lazy_help import LazyHelpFormatter
from goldenlens.cli.output import StderrProgress
from goldenlens.core.judge_engine_spec import JudgeEngineSpec
from goldenlens.core.problems import InputError, Problem, Severity
from goldenlens.core.runs.run_kinds import GOLDEN_REVIEW_RUN, JUDGE_RUN

if TYPE_CHECKING:  # the judge packages (numpy, llama.cpp) load only when a judge run is asked for
    from goldenlens.core.project_handle import ProjectHandle
    from goldenlens.jobs.judging.judge_job import JudgeOptions
    from goldenlens.jobs.progress import ProgressFn

DEFAULT = "default"

#: Stands for the list of judge metric names in the ``--metrics`` help, filled in by
#: :class:`JudgeHelpFormatter` only when help is shown: listing them imports the judge registry.
METRIC_NAMES_PLACEHOLDER = "{judge metric names}"


class JudgeHelpFormatter(LazyHelpFormatter):
    """Fills in the judge metric names when ``--help`` is printed (and only then)."""

    placeholder = METRIC_NAMES_PLACEHOLDER

    def fill(self) -> str:
        from goldenlens.judge.registry import valid_names

        return ", ".join(valid_names())


def add_engine_arguments(
    group: argparse._ArgumentGroup, *, embedding: bool = False, parallel: bool = False
) -> None:
    """The judge engine options, with the spec's defaults: ``--judge-model`` or ``--judge-url``,
    ``--n-ctx``, ``--threads``, ``--temperature``, ``--seed``; ``--embed-model`` for a command
    that embeds, ``--parallel`` for one that judges rows concurrently. Read them back with
    :func:`engine_spec_from_args`."""
    defaults = JudgeEngineSpec()
    source = group.add_mutually_exclusive_group()
    source.add_argument(
        "--judge-model",
        metavar="PATH|default",
        help="GGUF chat model for the judge (default: the bundled SmolLM2-135M-Instruct)",
    )
    source.add_argument(
        "--judge-url", metavar="URL", help="an OpenAI-compatible server instead of a local judge model"
    )
    if embedding:
        group.add_argument(
            "--embed-model",
            metavar="PATH|default",
            help="GGUF embedding model (default: bundled all-MiniLM-L6-v2, converted once)",
        )
    group.add_argument(
        "--n-ctx", type=int, default=defaults.n_ctx, metavar="N", help="judge context size in tokens"
    )
    group.add_argument("--threads", type=int, metavar="N", help="llama.cpp threads (default: llama.cpp's)")
    group.add_argument("--temperature", type=float, default=defaults.temperature, metavar="T")
    group.add_argument("--seed", type=int, default=defaults.seed, metavar="S")
    if parallel:
        group.add_argument(
            "--parallel", type=int, default=defaults.parallel, metavar="N", help="concurrent server requests"
        )


def engine_spec_from_args(args: argparse.Namespace, where: str) -> JudgeEngineSpec:
    """The engine options of :func:`add_engine_arguments` as a spec. A model file that does not
    exist, or a value the spec refuses, is bad input (exit 2) named after the option or
    ``where`` (the command)."""
    defaults = JudgeEngineSpec()
    try:
        return JudgeEngineSpec(
            judge_model=_model_path(args.judge_model, "--judge-model"),
            judge_url=args.judge_url,
            embed_model=_model_path(getattr(args, "embed_model", None), "--embed-model"),
            n_ctx=args.n_ctx,
            n_threads=args.threads,
            temperature=args.temperature,
            seed=args.seed,
            parallel=getattr(args, "parallel", defaults.parallel),
        )
    except ValueError as error:
        raise InputError.fatal(where, str(error)) from error


class _RunOptions(Protocol):
    @property
    def engine(self) -> JudgeEngineSpec: ...


RunOptions = TypeVar("RunOptions", bound=_RunOptions)
Options_contra = TypeVar("Options_contra", bound=_RunOptions, contravariant=True)


class _Job(Protocol[Options_contra]):
    def __call__(
        self, project: ProjectHandle, /, options: Options_contra, *, progress: ProgressFn
    ) -> int: ...


#: What ``goldenlens resume`` calls each kind of judge job it finishes, and how to start anew.
_RESUMED = {
    JUDGE_RUN: ("judge run", "start a new run with `goldenlens score ... --metrics`"),
    GOLDEN_REVIEW_RUN: ("golden review", "start a new review with `goldenlens review-golden`"),
}


def resume_newest(
    store: ProjectHandle,
    kind: str,
    from_params: Callable[[Mapping[str, Any]], RunOptions],
    job: _Job[RunOptions],
    *,
    quiet: bool,
    detail: Callable[[RunOptions], str] = lambda _options: "",
) -> int | None:
    """Finish the newest interrupted ``kind`` run of ``store`` (a judge run or a golden
    review) with the options it recorded, for ``goldenlens resume``, with progress on stderr;
    ``None`` when there is none. A model file of the run that no longer exists is bad input
    that says to put it back or start anew. ``detail`` adds to the line that announces it."""
    from goldenlens.queries.project import ProjectQueries

    pending = ProjectQueries(store).unfinished_runs(kind)
    if not pending:
        return None
    stored = pending[-1]
    what, restart = _RESUMED[kind]
    name = f"{what} {stored.id}"
    return _run_recorded(
        store,
        stored.params,
        from_params,
        job,
        name=f"interrupted {name}",
        announce=f"resuming {name}",
        restart=restart,
        quiet=quiet,
        detail=detail,
    )


def _run_recorded(
    store: ProjectHandle,
    params: Mapping[str, Any],
    from_params: Callable[[Mapping[str, Any]], RunOptions],
    job: _Job[RunOptions],
    *,
    name: str,
    announce: str,
    restart: str,
    quiet: bool,
    detail: Callable[[RunOptions], str] = lambda _options: "",
) -> int:
    """Run ``job`` on ``store`` with the options recorded as ``params`` (an interrupted run's,
    or those an import recorded for its judge run), announced on stderr as ``announce``. Options
    this version refuses, or a model file that no longer exists, are bad input that names the
    run (``name``) and says what to do instead (``restart``)."""
    try:
        options = from_params(params)
    except ValueError as error:  # recorded by a version that allowed what this one refuses
        message = f"the {name} cannot be resumed: {error}; {restart}"
        raise InputError.fatal(store.path.name, message) from error
    for label, path in (("judge", options.engine.judge_model), ("embedding", options.engine.embed_model)):
        if path is not None and not path.is_file():
            raise InputError(
                Problem(
                    store.path.name,
                    f"the {label} model of the {name} no longer exists: {path}; put it back, or {restart}",
                    Severity.FATAL,
                )
            )
    progress = StderrProgress(quiet=quiet)
    print(f"{store.path.name}: {announce}{detail(options)}", file=sys.stderr)
    run_id = job(store, options, progress=progress)
    progress.finish()
    return run_id


def add_judge_options(parser: argparse.ArgumentParser) -> None:
    """The judge metric options of ``goldenlens score``."""
    group = parser.add_argument_group(
        "judge metrics (run after the lexical scores; models run offline on this machine)"
    )
    group.add_argument(
        "--metrics",
        metavar="NAME,...",
        help="judge/embedding metrics or groups (judge, embedding, aspects, all): "
        f"{METRIC_NAMES_PLACEHOLDER}",
    )
    add_engine_arguments(group, embedding=True, parallel=True)
    group.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="METRIC.KEY=VALUE",
        help="a metric parameter, e.g. answer_relevancy.n=3 or factual_correctness.mode=precision "
        "(VALUE is read as JSON when it parses, else as text); repeatable",
    )
    group.add_argument(
        "--only",
        metavar="QUESTION_ID,...",
        help="judge only these questions (comma-separated ids)",
    )
    group.add_argument(
        "--where",
        metavar="EXPR",
        default="",
        help="judge only the questions a threshold expression on the lexical scores keeps, "
        'as in the grid: "f1 < 0.5", "Pipeline1.recall < 0.5 or exact_match == 0"',
    )
    group.add_argument(
        "--aspect",
        action="append",
        default=[],
        metavar="NAME=DEFINITION",
        help="a custom aspect critique, selected as aspect_NAME (or with the group 'aspects')",
    )


def _model_path(value: str | None, option: str) -> Path | None:
    if value is None or value == DEFAULT:
        return None
    path = Path(value)
    if not path.is_file():
        raise InputError.fatal(option, f"model file not found: {path}")
    return path


def _parse_params(pairs: list[str]) -> dict[str, dict[str, Any]]:
    params: dict[str, dict[str, Any]] = {}
    for pair in pairs:
        target, sep, raw = pair.partition("=")
        metric, dot, key = target.partition(".")
        if not sep or not dot or not metric.strip() or not key.strip():
            raise InputError.fatal("--param", f"expected METRIC.KEY=VALUE, got '{pair}'")
        try:
            value: Any = json.loads(raw)
        except ValueError:
            value = raw
        params.setdefault(metric.strip(), {})[key.strip()] = value
    return params


def judge_options(args: argparse.Namespace) -> JudgeOptions | None:
    """The judge options of ``score``, or None without ``--metrics``. Bad values are
    reported as bad input (exit 2) before anything is imported or scored."""
    if not args.metrics:
        return None
    from goldenlens.jobs.judging.judge_job import JudgeOptions

    engine = engine_spec_from_args(args, "--metrics")
    try:
        options = JudgeOptions(
            metrics=tuple(name for name in args.metrics.split(",") if name.strip()),
            engine=engine,
            metric_params=_parse_params(args.param),
            custom_aspects=dict(parse_pairs(args.aspect, "--aspect", "NAME=DEFINITION")),
            only=tuple(q.strip() for q in (args.only or "").split(",") if q.strip()),
            where=args.where,
        )
        options.build_metrics()
    except ValueError as error:
        raise InputError.fatal("--metrics", str(error)) from error
    return options


def resume_judge(store: ProjectHandle, *, quiet: bool) -> int | None:
    """Resume the newest unfinished judge run of ``store`` with its stored options; None when
    there is none. A model file of the run that no longer exists is bad input."""
    from goldenlens.jobs.judging.judge_job import JudgeOptions, judge_project

    return resume_newest(
        store, JUDGE_RUN, JudgeOptions.from_params, judge_project, quiet=quiet, detail=_metrics
    )


def _metrics(options: JudgeOptions) -> str:
    return f" ({', '.join(options.metrics)})"


def start_judge_run_asked_for(
    store: ProjectHandle, params: Mapping[str, Any], import_id: int, *, restart: str, quiet: bool
) -> int:
    """Start the judge run that ``score`` asked for with import ``import_id`` and never began
    (it recorded ``params``), for ``goldenlens resume``; ``restart`` is the command that does
    it anew when the recorded options cannot be used."""
    from goldenlens.jobs.judging.judge_job import JudgeOptions, judge_project

    name = f"judge run that `score` asked for with import {import_id}"
    return _run_recorded(
        store,
        params,
        JudgeOptions.from_params,
        judge_project,
        name=name,
        announce=f"starting the {name}",
        restart=restart,
        quiet=quiet,
        detail=_metrics,
    )
