"""The score colour scale: red at 0, yellow at 0.5, green at 1, the same in the score grid, the
response cards and the report workbook, so a colour means the same number everywhere.

The stops are fixed points (not the data's minimum and maximum): a 0.5 is yellow whatever else
the table holds. Between two stops a colour is the straight mix of the two, channel by channel.
"""

from __future__ import annotations

from typing import Final

RGB = tuple[int, int, int]
Stops = tuple[RGB, RGB, RGB]

#: The scores the three stops stand for.
STOP_SCORES: Final = (0.0, 0.5, 1.0)
#: Excel's own red/yellow/green scale, so analysts recognise it: the grid on a light palette
#: and the workbook's conditional formats.
SCORE_STOPS: Final[Stops] = ((248, 105, 107), (255, 235, 132), (99, 190, 123))
#: Darker twins of :data:`SCORE_STOPS` for a dark palette, under light text.
DARK_SCORE_STOPS: Final[Stops] = ((140, 42, 46), (128, 108, 24), (32, 112, 58))
#: Pastel stops for the response cards' score chips: dark text reads on them on any palette.
CARD_SCORE_STOPS: Final[Stops] = ((0xF6, 0xB3, 0xB3), (0xFF, 0xE4, 0x9A), (0xB5, 0xE8, 0xC0))


def score_rgb(value: float, stops: Stops = SCORE_STOPS) -> RGB:
    """The colour of ``value`` (clamped to 0..1) on the scale through ``stops``."""
    t = 2 * min(max(value, 0.0), 1.0)
    low, high, f = (stops[0], stops[1], t) if t <= 1 else (stops[1], stops[2], t - 1)
    red, green, blue = (round(a + (b - a) * f) for a, b in zip(low, high, strict=True))
    return red, green, blue
