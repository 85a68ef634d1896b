"""How often each advisor diagnosis held on the responses a reviewer labelled ("likely
hallucination: right on 1 of 19 labelled"), and which diagnoses this project's labels refute.

A response diagnosis holds when the reviewer's verdict is what it claims: a likely
hallucination or an accidental fact match is an incorrect answer; a correct-but-rephrased one
is correct. A golden row's "fact prone to false matches" holds on a labelled response the fact
matched that the reviewer judged incorrect. A diagnosis is demoted when, on at least
:data:`MIN_LABELLED` labelled responses, even the upper end of the 95% Wilson interval of how
often it holds stays below one half: on this data set the rule is more often wrong than right.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from math import sqrt
from typing import Final

from goldenlens.core.calibration.sampling_plan import two_sided_z

#: Diagnosis code -> the verdict it claims (True: correct) for a response it names.
CLAIMS: Final[dict[str, bool]] = {
    "likely_hallucination": False,
    "accidental_fact_match": False,
    "correct_but_rephrased": True,
    "fact_prone_to_false_matches": False,
}
#: Response flag code -> the verdict it claims: the per-response flags a report lists, checked
#: against the labels the same way (:func:`check_flags`).
FLAG_CLAIMS: Final[dict[str, bool]] = {
    "likely_hallucination": False,
    "accidental_fact_match": False,
    "possibly_correct_rephrased": True,
}
MIN_LABELLED: Final = 5
_Z: Final = two_sided_z(0.95)


@dataclass(frozen=True)
class DiagnosisCheck:
    """One diagnosis against the labels: on ``labelled`` labelled responses it ``held`` so often."""

    code: str
    held: int
    labelled: int

    @property
    def demoted(self) -> bool:
        return self.labelled >= MIN_LABELLED and wilson_upper(self.held, self.labelled) < 0.5

    def note(self) -> str:
        """ "right on 1 of 19 labelled" (and why it is demoted)."""
        text = f"right on {self.held} of {self.labelled} labelled"
        if self.demoted:
            text += " — demoted: on this project's labels the rule is more often wrong than right"
        return text

    def sentence(self, label: str) -> str:
        """ "Likely hallucination: right on 1 of 19 labelled" (and why it is demoted)."""
        return f"{label}: {self.note()}"

    def as_dict(self) -> dict[str, object]:
        return {"held": self.held, "labelled": self.labelled, "demoted": self.demoted}


def wilson_upper(successes: int, n: int) -> float:
    """The upper end of the 95% Wilson score interval of a proportion."""
    if n == 0:
        return 1.0
    p = successes / n
    centre = p + _Z * _Z / (2 * n)
    margin = _Z * sqrt(p * (1 - p) / n + _Z * _Z / (4 * n * n))
    return (centre + margin) / (1 + _Z * _Z / n)


def check_diagnoses(found: Iterable[tuple[str, bool]]) -> dict[str, DiagnosisCheck]:
    """Per diagnosis code, how often it held: ``found`` gives, for each (diagnosis, labelled
    response) pair, the code and whether the reviewer judged the response correct. Codes that
    claim no verdict are left out."""
    held: dict[str, int] = {}
    labelled: dict[str, int] = {}
    for code, correct in found:
        claim = CLAIMS.get(code)
        if claim is None:
            continue
        labelled[code] = labelled.get(code, 0) + 1
        held[code] = held.get(code, 0) + (1 if correct == claim else 0)
    return {code: DiagnosisCheck(code, held[code], labelled[code]) for code in labelled}


def labelled_diagnoses(
    diagnoses: Iterable[tuple[str, str, str]],
    verdict: Callable[[str, str], bool | None],
    fact_found: Callable[[str], Iterable[str]],
) -> Iterator[tuple[str, bool]]:
    """``(code, correct)`` for :func:`check_diagnoses`: each ``(code, question_id, pipeline)``
    diagnosis on a labelled response (``verdict``: ``None`` when not labelled); a golden row's
    diagnosis (empty pipeline) on each of its labelled responses the fact matched
    (``fact_found(question_id)``: those pipelines)."""
    for code, question_id, pipeline in diagnoses:
        if code not in CLAIMS:
            continue
        for each in (pipeline,) if pipeline else tuple(fact_found(question_id)):
            said = verdict(question_id, each)
            if said is not None:
                yield code, said


def check_flags(flagged: Iterable[tuple[Hashable, str, Iterable[str]]]) -> dict[str, DiagnosisCheck]:
    """Per response flag of :data:`FLAG_CLAIMS`, how often it held on the labelled answers that
    carry it: ``flagged`` gives, per flagged response, the verdict's identity (one verdict
    given to an answer that several pipelines gave counts once per flag), the verdict in force
    (``correct`` / ``incorrect``; any other word is not a verdict) and the flag codes."""
    held: dict[str, int] = {}
    labelled: dict[str, int] = {}
    counted: set[tuple[str, Hashable]] = set()
    for verdict_id, said, codes in flagged:
        if said not in ("correct", "incorrect"):
            continue
        for code in codes:
            claim = FLAG_CLAIMS.get(code)
            if claim is None or (code, verdict_id) in counted:
                continue
            counted.add((code, verdict_id))
            labelled[code] = labelled.get(code, 0) + 1
            held[code] = held.get(code, 0) + (1 if (said == "correct") == claim else 0)
    return {code: DiagnosisCheck(code, held[code], labelled[code]) for code in labelled}
