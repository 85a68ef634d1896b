"""What reviewers would judge, as text for every renderer: the printed summary, the workbook's
Decision sheet and the HTML report say it in the same words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from goldenlens.core.calibration.diagnosis_check import DiagnosisCheck, check_flags
from goldenlens.core.calibration.estimator import PairEstimate, PipelineEstimate
from goldenlens.core.calibration.human_calibrated import HumanCalibrated, pair_verdict
from goldenlens.core.calibration.metric_agreement import PREDICTOR, MetricAgreement
from goldenlens.core.scored_rows import Report
from goldenlens.core.view.metric_names import metric_label
from goldenlens.core.view.wording import interval_text, number_text

TITLE: Final = "As a reviewer would judge them"
#: The diagnosis labels a report names (the advisor's, for the codes a label can check).
_DIAGNOSIS_LABELS: Final = {
    "likely_hallucination": "Likely hallucination",
    "accidental_fact_match": "Accidental fact match",
    "correct_but_rephrased": "Correct but rephrased",
    "fact_prone_to_false_matches": "Fact prone to false matches",
}


def share_text(estimate: PipelineEstimate) -> str:
    """``0.83 [0.79, 0.87]`` or ``not estimated``."""
    interval = estimate.interval
    if interval.estimate is None or interval.low is None or interval.high is None:
        return "not estimated"
    return f"{number_text(interval.estimate)} {interval_text(interval.low, interval.high)}"


def _agreement_part(found: MetricAgreement) -> str:
    rate = found.agreement.rate
    kappa = found.agreement.kappa
    name = "the calibrated predictor" if found.name == PREDICTOR else metric_label(found.name)
    shown = "n/a" if rate is None else f"{rate:.0%}"
    return f"{name} {shown}" + ("" if kappa is None else f" (κ {kappa:.2f})")


def agreement_sentence(found: HumanCalibrated) -> str:
    """ "Factual Knowledge agrees with your 240 labels 77% of the time (κ 0.53); the calibrated
    predictor 86% (κ 0.70)"; "" without labels."""
    by_name = {a.name: a for a in found.agreements}
    fk = by_name.get("factual_knowledge")
    predictor = by_name.get(PREDICTOR)
    if fk is None or fk.agreement.rate is None:
        return ""
    text = (
        f"Factual Knowledge agrees with your {fk.agreement.n} labels {fk.agreement.rate:.0%} of the time"
        + ("" if fk.agreement.kappa is None else f" (κ {fk.agreement.kappa:.2f})")
    )
    if predictor is not None and predictor.agreement.rate is not None:
        text += "; " + _agreement_part(predictor) + " (cross-validated)"
    return text


def diagnosis_sentences(checks: dict[str, DiagnosisCheck] | None) -> list[str]:
    """ "Likely hallucination: right on 1 of 19 labelled — demoted: …" per checked diagnosis."""
    return [check.sentence(_DIAGNOSIS_LABELS.get(code, code)) for code, check in (checks or {}).items()]


def ordered_pairs(pairs: Sequence[PairEstimate]) -> list[PairEstimate]:
    """The decided pairs first, then those whose interval alone excludes 0 ("may be ahead"),
    each group largest difference first, then the others in their order."""

    def rank(pair: PairEstimate) -> tuple[int, float]:
        low, high = pair.interval.low, pair.interval.high
        if pair.better is None and not (low is not None and high is not None and (low > 0 or high < 0)):
            return (2, 0.0)  # the rest keep their order
        return (0 if pair.better is not None else 1, -abs(pair.interval.estimate or 0.0))

    return sorted(pairs, key=rank)


def summary_lines(found: HumanCalibrated, *, verdicts: int = 10) -> list[str]:
    """The printed summary's lead: the headline, each pipeline's share with its interval, the
    verdicts, how far the metrics agree with the labels and how often each diagnosis held."""
    if not found.checked:
        return [found.headline(), *(f"  note: {note}" for note in found.notes)]
    lines = [f"{TITLE}: {found.headline()}"]
    width = max([len("pipeline"), *(len(e.pipeline) for e in found.estimates)])
    lines.append(f"  {'pipeline':<{width}}  correct [95% CI]      labelled")
    lines += [
        f"  {e.pipeline:<{width}}  {share_text(e):<20}  {e.labelled:>5} of {e.responses}"
        for e in found.estimates
    ]
    shown = ordered_pairs(found.pairs)[:verdicts]
    lines += [f"  {pair_verdict(p, found.level)}" for p in shown]
    if len(found.pairs) > len(shown):
        lines.append(
            f"  {len(found.pairs) - len(shown)} more comparison(s) in the .json, .xlsx and .html reports"
        )
    agreement = agreement_sentence(found)
    if agreement:
        lines.append(f"  {agreement}.")
    lines += [f"  {sentence}" for sentence in diagnosis_sentences(dict(found.diagnoses))]
    lines += [f"  note: {note}" for note in found.notes]
    return lines


def report_flag_checks(report: Report) -> dict[str, DiagnosisCheck]:
    """How often each response flag that claims a verdict held on the report's labelled answers
    (all of its rows, also when only some are written), by flag code."""
    if not report.labels:
        return {}
    records = report.label_records
    flagged = []
    for row in report.rows:
        key = (row.item.id, row.response.pipeline)
        said = report.labels.get(key)
        if row.flags and said is not None:
            record = records.get(key)
            # One verdict on an answer several pipelines gave is one judgement: counted once.
            verdict_id = ("record", record.id) if record is not None else key
            flagged.append((verdict_id, said, [f.value for f in row.flags]))
    return check_flags(flagged)
