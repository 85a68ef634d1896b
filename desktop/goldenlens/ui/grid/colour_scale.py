"""The score grid's cell colours: the score colour scale (:mod:`goldenlens.core.view.score_colours`)
as Qt colours, light or dark to suit the palette."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette

from goldenlens.core.view.score_colours import DARK_SCORE_STOPS, SCORE_STOPS, score_rgb

#: Steps of the scale: scores are coloured to the nearest hundredth.
STEPS = 100


def is_dark(palette: QPalette) -> bool:
    """True when ``palette`` draws light text on a dark base."""
    return palette.color(QPalette.ColorRole.Base).lightnessF() < 0.5


def colour_scale(dark: bool) -> tuple[list[QColor], QColor]:
    """101 background colours for scores 0.00..1.00, and the text colour readable on all."""
    stops = DARK_SCORE_STOPS if dark else SCORE_STOPS
    colours = [QColor(*score_rgb(step / STEPS, stops)) for step in range(STEPS + 1)]
    return colours, QColor(240, 240, 240) if dark else QColor(20, 20, 20)
