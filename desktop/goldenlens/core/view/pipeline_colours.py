"""The colour of each pipeline, the same in the app's charts, the workbook's chart and the HTML
report, so a reader who learnt "Pipeline2 is orange" in one keeps it in the others."""

from __future__ import annotations

#: Okabe-Ito colours (colour-blind safe), mid-tones that stand out on light and dark backgrounds.
PIPELINE_COLOURS: tuple[str, ...] = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#56B4E9",
    "#D55E00",
    "#F0E442",
)


def pipeline_colour(index: int) -> str:
    """``#RRGGBB`` of the pipeline at ``index`` in report order (the palette repeats past 7)."""
    return PIPELINE_COLOURS[index % len(PIPELINE_COLOURS)]
