"""What the CLI prints and writes: progress on stderr, problems, the summary table, reports."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from goldenlens.core.problems import InputError, Problem, Severity
from goldenlens.core.stats.gates import with_calibrated

# Every command line imports this module (progress and problems are printed by all), so the
# report, its formats and the judge summary load only where a summary or report is written.
if TYPE_CHECKING:
    from goldenlens.core.advice.values import ProjectAdvice
    from goldenlens.core.project_handle import ProjectHandle
    from goldenlens.core.scored_rows import Report
    from goldenlens.io.reports.row_fields import JudgeScores
    from goldenlens.jobs.progress import Progress


class StderrProgress:
    """Progress lines on stderr: a live line on a terminal, a line every few seconds otherwise."""

    def __init__(self, *, quiet: bool = False, interval: float = 2.0) -> None:
        self.quiet = quiet
        self._tty = sys.stderr.isatty()
        self._interval = 0.1 if self._tty else interval
        self._last = 0.0
        self._started = time.monotonic()
        self._live = False

    def __call__(self, progress: Progress, /) -> None:
        if self.quiet:
            return
        now = time.monotonic()
        last_item = progress.total > 0 and progress.done >= progress.total
        if now - self._last < self._interval and not last_item:
            return
        self._last = now
        line = f"{progress.stage}: {progress.message}" if progress.message else f"{progress.stage}:"
        # A job that words its own counter and ETA ("judged 12/30 rows · … · ETA 1m05s") is
        # printed as it is.
        if progress.total > 2 and f"{progress.done}/{progress.total}" not in progress.message:
            elapsed = now - self._started
            eta = elapsed / progress.done * (progress.total - progress.done) if progress.done else 0.0
            line += f" {progress.done:,}/{progress.total:,} ({progress.fraction:.0%}, ETA {eta:.0f}s)"
        if self._tty:
            sys.stderr.write("\r\x1b[2K" + line)
            self._live = True
        else:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def restart(self) -> None:
        """A new stage begins: its ETA counts from now, and its first line is printed."""
        self._started = time.monotonic()
        self._last = 0.0

    def finish(self) -> None:
        if self._live:
            sys.stderr.write("\n")
            self._live = False


@contextmanager
def working(what: str, *, quiet: bool = False) -> Iterator[None]:
    """On a terminal, a line saying what is being worked out while it is (cleared afterwards),
    for the steps that take seconds and count nothing; elsewhere (a script, a log) nothing."""
    if quiet or not sys.stderr.isatty():
        yield
        return
    sys.stderr.write(f"{what}…")
    sys.stderr.flush()
    try:
        yield
    finally:
        sys.stderr.write("\r\x1b[2K")
        sys.stderr.flush()


def json_text(data: Mapping[str, Any]) -> str:
    """JSON as every command prints or writes it: indented, non-ASCII as is, a final newline."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def write_json(path: Path, data: Mapping[str, Any]) -> None:
    """:func:`json_text` of ``data`` written to ``path`` whole or not at all."""
    from goldenlens.io.atomic_files import write_atomically

    text = json_text(data)

    def write(target: Path) -> None:
        target.write_text(text, encoding="utf-8")

    write_atomically(path, write)


def print_result(
    data: Mapping[str, Any], text: Callable[[], str], *, output: Path | None, as_json: bool, wrote: str
) -> None:
    """A command's result: JSON written to ``output`` (then "``wrote`` to ``output``" on
    stderr), or JSON on stdout with ``as_json`` (``--json``), else ``text()`` on stdout."""
    if output is not None:
        write_json(output, data)
        print(f"{wrote} to {output}", file=sys.stderr)
    elif as_json:
        sys.stdout.write(json_text(data))
    else:
        print(text())


def check_json_output(output: Path | None, what: str) -> None:
    """Refuse an ``-o`` that does not end in ``.json`` ("the ``what`` must be .json") before
    any work is done."""
    if output is not None and output.suffix.lower() != ".json":
        raise InputError.fatal(output.name, f"the {what} must be .json")


def project_file(text: str) -> Path:
    """An argparse ``type`` for a project a command may create: an existing file is taken as it
    is (opening it checks it), a new one must be named ``*.goldenlens`` — the app's Open dialog
    lists only those, and a typo such as ``--project report.xlsx`` must not become a project."""
    from goldenlens.core.project_handle import PROJECT_SUFFIX

    path = Path(text)
    if path.exists() or path.suffix.lower() == PROJECT_SUFFIX:
        return path
    raise argparse.ArgumentTypeError(
        f"a new project's file name ends in {PROJECT_SUFFIX}: did you mean {path.name}{PROJECT_SUFFIX}?"
        if not path.suffix
        else f"a new project's file name ends in {PROJECT_SUFFIX}, not {path.suffix}"
    )


def counting_number(what: str) -> Callable[[str], int]:
    """An argparse ``type`` for a number counted from 1; ``what`` names it in the error
    ("a row number": "expected a row number (1, 2, ...), got 'x'")."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what} (1, 2, ...), got {text!r}") from None
        if value < 1:
            raise argparse.ArgumentTypeError(f"{what} is 1 or more, got {value}")
        return value

    return parse


def print_problems(problems: Sequence[Problem], *, limit: int = 20) -> None:
    """Notes about whole files, then warnings and errors on stderr (at most ``limit`` lines).

    File-level notes say how the input was read (the header row, which columns became
    pipelines, skipped hidden sheets) and are always printed; row-level notes (fuzzy joins)
    are only counted.
    """
    for note in problems:
        if note.severity is Severity.INFO and note.row is None:
            print(f"goldenlens: {note.format()}", file=sys.stderr)
    shown = [p for p in problems if p.severity is not Severity.INFO]
    for problem in shown[:limit]:
        print(f"goldenlens: {problem.format()}", file=sys.stderr)
    if len(shown) > limit:
        print(
            f"goldenlens: ... and {len(shown) - limit} more problems (see the report's Problems sheet)",
            file=sys.stderr,
        )
    row_notes = [p for p in problems if p.severity is Severity.INFO and p.row is not None]
    notes = len(row_notes)
    if notes:
        first_note = row_notes[0]
        print(f"goldenlens: {notes} note(s), e.g. {first_note.format()}", file=sys.stderr)


def format_review_lines(report: Report) -> list[str]:
    """What reviewers changed: overridden values per pipeline and metric (the means count
    them) and how many questions are in each review state."""
    from goldenlens.core.reviewer_decisions import review_counts
    from goldenlens.core.view.metric_names import metric_short

    counts = report.override_counts()
    total = sum(sum(by_metric.values()) for by_metric in counts.values())
    lines = []
    if total:
        parts = [
            f"{pipeline}: " + ", ".join(f"{metric_short(m)} {n}" for m, n in by_metric.items())
            for pipeline, by_metric in counts.items()
            if by_metric
        ]
        lines.append(f"Overridden by reviewers: {total} value(s), counted in the means ({'; '.join(parts)})")
    else:
        lines.append("Overridden by reviewers: none")
    reviews = review_counts(report.review(item.id) for item in report.golden)
    lines.append("Review: " + ", ".join(f"{n} {status.replace('_', ' ')}" for status, n in reviews.items()))
    return lines


def format_summary(report: Report) -> str:
    """Per-pipeline means (reviewer overrides applied) as a fixed-width table, then what
    reviewers changed."""
    from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES
    from goldenlens.core.view.metric_names import metric_short

    summary = report.summary()
    width = max([len("pipeline"), *(len(p) for p in report.pipelines)])
    counts = report.response_counts()
    heads = {n: metric_short(n) for n in LEXICAL_SCORE_NAMES}
    widths = {n: max(5, len(h)) for n, h in heads.items()}
    header = f"{'pipeline':<{width}}  {'n':>5}  " + "  ".join(f"{heads[n]:>{widths[n]}}" for n in heads)
    lines = [header, "-" * len(header)]
    for pipeline in report.pipelines:
        means = summary.get(pipeline, {})
        cells = "  ".join(_mean_text(means.get(n), widths[n]) for n in heads)
        lines.append(f"{pipeline:<{width}}  {counts.get(pipeline, 0):>5}  {cells}")
    legend = ", ".join(f"{short}={name}" for name, short in heads.items())
    not_scored = sum(1 for row in report.rows for name in heads if row.scores[name] is None)
    if not_scored:
        legend += (
            f"\n{not_scored} value(s) not scored (an empty fact or fact part: see the import problems) "
            "are left out of the means; '-' = nothing scored"
        )
    lead = _calibrated_lines(report)
    return "\n".join([*lead, *lines, "", legend, *format_review_lines(report), *format_verdict_lines(report)])


def _calibrated_lines(report: Report) -> list[str]:
    """What reviewers would judge, first (a project's report), then the metrics' table."""
    if report.human_calibrated is None:
        return []
    from goldenlens.io.reports.calibrated_text import summary_lines

    return [*summary_lines(report.human_calibrated), "", "FMEval's metrics (means):"]


#: Verdicts printed under the means (the rest are counted; every one is in the file reports).
PRINTED_VERDICTS = 10


def format_verdict_lines(report: Report) -> list[str]:
    """The pairwise comparisons that tell two pipelines apart, then those whose interval leans
    one way without a confirming test ("may be ahead"), each with its caveat, then how many
    cannot tell them apart: the honest reading of the means above (every comparison is in the
    JSON, workbook and HTML reports)."""
    from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE
    from goldenlens.core.stats.decision_source import decision_for
    from goldenlens.io.reports.decision_text import (
        comparisons_heading,
        ordered_verdicts,
        rank_lines,
        verdict_line,
    )

    decision = decision_for(report)
    if decision is None or not decision.comparisons:
        return []
    ordered = ordered_verdicts(decision)
    leaning = [c for c in ordered if c.better is not None] + [
        c for c in ordered if c.better is None and _interval_leans(c.low, c.high)
    ]
    shown = leaning[:PRINTED_VERDICTS]
    ranks = rank_lines(decision, FACTUAL_KNOWLEDGE, PRINTED_VERDICTS)
    lines = ["", *ranks, *([""] if ranks else []), comparisons_heading(decision)]
    lines += [f"  {verdict_line(c)}" for c in shown]
    if len(leaning) > len(shown):
        more = len(leaning) - len(shown)
        lines.append(f"  {more} more like these: every comparison is in the .json, .xlsx and .html reports")
    apart = len(decision.comparisons) - len(leaning)
    if apart and leaning:
        lines.append(f"  {apart} other comparison(s) cannot tell the pipelines apart")
    elif apart:  # "70 all comparison(s)" read as a typo
        lines.append(f"  none of the {apart} comparison(s) can tell the pipelines apart")
    return lines


def _interval_leans(low: float | None, high: float | None) -> bool:
    """Whether a difference's interval excludes 0."""
    return low is not None and high is not None and (low > 0 or high < 0)


def _mean_text(mean: float | None, width: int) -> str:
    return f"{'-':>{width}}" if mean is None else f"{mean:>{width}.3f}"


def print_summary(report: Report) -> None:
    print(format_summary(report))


def format_judge_summary(report: Report, judge: JudgeScores) -> str:
    """Per-pipeline means of each judge metric (over the scored rows), cells not scored, the
    judge model and its caveat."""
    from goldenlens.io.reports.judge_summary import JUDGE_CAVEAT, judge_agreement, judge_means, judge_models
    from goldenlens.io.reports.row_fields import judge_metric_names

    metrics = judge_metric_names(judge)
    means = judge_means(report.rows, report.pipelines, judge)
    width = max([len("pipeline"), *(len(p) for p in report.pipelines)])
    widths = [max(8, len(m)) for m in metrics]
    header = f"{'pipeline':<{width}}  " + "  ".join(f"{m:>{w}}" for m, w in zip(metrics, widths, strict=True))
    lines = [header + "  not scored"]
    for pipeline in report.pipelines:
        by_metric, missing = means.get(pipeline, ({}, 0))
        cells = "  ".join(_mean_text(by_metric.get(m), w) for m, w in zip(metrics, widths, strict=True))
        lines.append(f"{pipeline:<{width}}  {cells}  {missing:>10}")
    models = judge_models(judge)
    lines.append("Judge model: " + (", ".join(models["judge_model"]) or "(none)"))
    if models["embedding_model"]:
        lines.append("Embedding model: " + ", ".join(models["embedding_model"]))
    lines.append(JUDGE_CAVEAT)
    ruled = {m: a for m, a in judge_agreement(report, judge).items() if a["n"]}
    if ruled:
        parts = [
            f"{m} {a['agreed']}/{a['n']}"
            + (f", kappa {a['kappa']:.2f}" if a["kappa"] is not None else ", kappa undefined")
            for m, a in ruled.items()
        ]
        lines.append("Judge vs reviewer (pass at 0.5, overridden or accepted scores): " + "; ".join(parts))
    return "\n".join(lines)


def write_outputs(
    project: ProjectHandle,
    run_id: int | None,
    out: Path | None,
    *,
    judge_run_id: int | None = None,
    baseline: str | None = None,
    progress: StderrProgress | None = None,
) -> dict[str, dict[str, float | None]]:
    """Write the report in the format OUT's extension picks, or print the summary; returns the
    means per pipeline (for the CI gate). Judge scores (of ``judge_run_id``, else the newest
    judge run) go into every report format; ``baseline``: ``--baseline``."""
    from goldenlens.jobs.reporting.report_job import report_and_advice, report_sources, write_stored_json
    from goldenlens.jobs.reporting.stored_run import judge_scores

    quiet = progress is None or progress.quiet
    if out is not None and out.suffix.lower() == ".json":
        # Straight from the project, row by row: no row objects, no response texts in memory.
        with working(
            f"writing {out.name}: the rows, the decision and what reviewers would judge", quiet=quiet
        ):
            written = write_stored_json(project, out, run_id, judge_run_id=judge_run_id, baseline=baseline)
        print(f"Wrote {written.rows} scored responses to {out}", file=sys.stderr)
        return with_calibrated(written.summary, written.human_calibrated)
    # A project's Advice sheet says what the reviewer said of each diagnosis and how often each held.
    workbook = out is not None and out.suffix.lower() == ".xlsx"
    with working(
        "reading the scores; working out the decision, what reviewers would judge and the advice", quiet=quiet
    ):
        report, advice = report_and_advice(
            project, run_id, judge_run_id=judge_run_id, baseline=baseline, with_advice=workbook
        )
    judge = judge_scores(project, judge_run_id)
    write_report(report, out, judge=judge, sources=report_sources(project), progress=progress, advice=advice)
    return with_calibrated(report.summary(), report.human_calibrated)


#: What a report may be written as: the output's name picks the format.
REPORT_SUFFIXES = (".xlsx", ".html", ".htm", ".json", ".csv")


def check_report_path(out: Path | None, *, reads: Sequence[tuple[str, Path | None]] = ()) -> None:
    """Refuse a report name of no format (``-o out.txt``), or a file the command reads
    (:func:`check_not_read`), before any work is done."""
    if out is None:
        return
    if out.suffix.lower() not in REPORT_SUFFIXES:
        raise InputError.fatal(
            str(out), f"{out} is no report file name: the report must be .xlsx, .html, .json or .csv"
        )
    check_not_read(out, reads)


def check_not_read(out: Path, reads: Sequence[tuple[str, Path | None]]) -> None:
    """Refuse to write ``out`` when it is one of the files the command reads (``reads``: what
    each is, and its path): ``-o golden.csv`` would replace the analyst's golden set."""
    for what, path in reads:
        if path is not None and _same_file(out, path):
            raise InputError.fatal(
                out.name, f"the output (-o) would replace the {what} this command reads; give it another name"
            )


def _same_file(one: Path, other: Path) -> bool:
    """Whether both paths name one existing file (through links, case-insensitive systems...)."""
    try:
        return one.samefile(other)
    except OSError:  # either is missing (or unreadable): not one file that exists
        return False


def write_report(
    report: Report,
    out: Path | None,
    *,
    judge: JudgeScores | None = None,
    sources: Sequence[str] = (),
    progress: StderrProgress | None = None,
    advice: ProjectAdvice | None = None,
) -> None:
    """Write ``report`` in the format OUT's extension picks (``sources``: the input files, for
    the workbook's About block), or print the summary when ``out`` is ``None``. ``progress``
    hears how far a workbook is (tens of seconds for ten thousand responses)."""
    judge = judge or {}
    if out is None:
        print_summary(report)
        if judge:
            print("\nJudge metrics (mean of the scored rows):")
            print(format_judge_summary(report, judge))
        return
    check_report_path(out)
    suffix = out.suffix.lower()
    if suffix == ".json":
        from goldenlens.io.reports.json_report import write_report_json

        write_report_json(report, out, judge)
    elif suffix == ".csv":
        from goldenlens.io.reports.csv_report import write_report_csv

        write_report_csv(report, out, judge)
    elif suffix == ".xlsx":
        from goldenlens.io.reports.xlsx.workbook import write_report_workbook  # openpyxl: only for .xlsx
        from goldenlens.jobs.progress import Progress

        if progress is not None:
            progress.restart()

        def rows_written(done: int, total: int) -> None:
            if progress is not None:
                progress(Progress("writing the workbook", done, total, "rows of its sheets"))

        write_report_workbook(
            report, out, sources=list(sources), judge=judge, progress=rows_written, advice=advice
        )
        if progress is not None:
            progress.finish()
    elif suffix in (".html", ".htm"):
        from goldenlens.io.reports.html.page import write_report_html

        write_report_html(report, out, sources=list(sources), judge=judge)
    print(f"Wrote {len(report.rows)} scored responses to {out}", file=sys.stderr)
