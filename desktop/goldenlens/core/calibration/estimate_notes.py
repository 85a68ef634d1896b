"""What the estimates say about the labels they could not use: no usable round yet, or labels
given outside every round's sample (:func:`~goldenlens.core.calibration.estimator.estimate`)."""

from __future__ import annotations

from typing import Final

from goldenlens.core.view.wording import plural

#: The note of labels with no usable round: the estimates need a sampled one.
NO_ROUND_YET: Final = "no planned sample labelled yet"


def estimate_notes(*, unestimated: bool, planned: bool, waiting: int) -> tuple[str, ...]:
    """The notes of an estimate: ``unestimated``, no round could be used and a pipeline has no
    estimate (``planned``: a round exists, not labelled enough yet); ``waiting``, labelled
    responses that were in no round's sample and had no verdict when the rounds were planned."""
    notes = []
    if unestimated:
        notes.append(
            f"{NO_ROUND_YET}: "
            + (
                "label the answers of the round planned (labels outside its sample do not count alone)"
                if planned
                else "plan a round of labels to estimate"
            )
        )
    if waiting:
        notes.append(
            f"{plural(waiting, 'labelled response')} {'was' if waiting == 1 else 'were'} in no round's "
            "sample and had no verdict when the rounds were planned: the estimates rest on the sampled "
            "ones; a round planned after them counts them exactly"
        )
    return tuple(notes)
