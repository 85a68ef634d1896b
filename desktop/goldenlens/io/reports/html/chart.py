"""The HTML report's bar chart as inline SVG: clusters by metric, one bar per pipeline in the
app's colour, the 95% confidence intervals as error bars (when the decision has them).

Drawn from numbers given, nothing computed but positions: the bars are the report's means and
the whiskers the decision's interval ends. Every text is escaped; no external reference (no
fonts, no images), so the chart renders offline in any browser.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from goldenlens.core.view.metric_names import metric_short
from goldenlens.core.view.pipeline_colours import pipeline_colour
from goldenlens.io.reports.decision_tables import MeansRow

WIDTH = 900
HEIGHT = 320
_LEFT, _RIGHT, _TOP, _BOTTOM = 48, 12, 16, 64


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def means_svg(rows: Sequence[MeansRow], metrics: Sequence[str]) -> str:
    """``<svg>`` of each row's ``means[metric]`` with the error bars of its ``estimates[metric]``;
    a missing mean draws no bar (its tooltip says n/a)."""
    plot_w = WIDTH - _LEFT - _RIGHT
    plot_h = HEIGHT - _TOP - _BOTTOM
    group = plot_w / max(len(metrics), 1)
    bar = group * 0.8 / max(len(rows), 1)

    def y(value: float) -> float:
        return _TOP + plot_h * (1.0 - min(max(value, 0.0), 1.0))

    out = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img" '
        'aria-label="Mean score per pipeline and metric, with 95% confidence intervals">'
    ]
    for tick in range(6):
        value = tick / 5
        ty = y(value)
        out.append(f'<line class="grid" x1="{_LEFT}" y1="{ty:.1f}" x2="{WIDTH - _RIGHT}" y2="{ty:.1f}"/>')
        out.append(
            f'<text class="tick" x="{_LEFT - 6}" y="{ty + 4:.1f}" text-anchor="end">{value:.1f}</text>'
        )
    for m, metric in enumerate(metrics):
        centre = _LEFT + group * (m + 0.5)
        out.append(
            f'<text class="tick" x="{centre:.1f}" y="{HEIGHT - _BOTTOM + 18}" text-anchor="middle">'
            f"{_esc(metric_short(metric))}</text>"
        )
        for j, row in enumerate(rows):
            pipeline = row.pipeline
            x = centre + (j - (len(rows) - 1) / 2) * bar
            mean = row.means.get(metric)
            estimate = row.estimates.get(metric)
            tip = f"{pipeline} · {metric_short(metric)}: " + ("n/a" if mean is None else f"{mean:.3f}")
            if estimate is not None and estimate.low is not None and estimate.high is not None:
                tip += f" (95% CI {estimate.low:.2f} to {estimate.high:.2f})"
            if mean is None:
                continue
            top = y(mean)
            out.append(
                f'<rect class="bar" x="{x - bar * 0.46:.1f}" y="{top:.1f}" width="{bar * 0.92:.1f}" '
                f'height="{_TOP + plot_h - top:.1f}" fill="{pipeline_colour(j)}">'
                f"<title>{_esc(tip)}</title></rect>"
            )
            if estimate is not None and estimate.low is not None and estimate.high is not None:
                lo, hi = y(estimate.low), y(estimate.high)
                cap = bar * 0.2
                out.append(
                    f'<path class="err" d="M{x:.1f} {lo:.1f}V{hi:.1f}M{x - cap:.1f} {lo:.1f}H{x + cap:.1f}'
                    f'M{x - cap:.1f} {hi:.1f}H{x + cap:.1f}"/>'
                )
    out.append(
        f'<line class="axis" x1="{_LEFT}" y1="{_TOP + plot_h}" x2="{WIDTH - _RIGHT}" y2="{_TOP + plot_h}"/>'
    )
    legend_y = HEIGHT - 18
    x = float(_LEFT)
    for j, pipeline in enumerate(row.pipeline for row in rows):
        out.append(
            f'<rect x="{x:.1f}" y="{legend_y - 10}" width="12" height="12" fill="{pipeline_colour(j)}"/>'
        )
        out.append(f'<text class="legend" x="{x + 16:.1f}" y="{legend_y}">{_esc(pipeline)}</text>')
        x += 30 + 7.5 * len(pipeline)
    out.append("</svg>")
    return "".join(out)
