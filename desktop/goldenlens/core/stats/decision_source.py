"""Where the reports get a report's :class:`~goldenlens.core.stats.decision.Decision` from: one place,
so every renderer (workbook, HTML, the app) asks alike and shows "intervals not available"
when there is none."""

from __future__ import annotations

from typing import Any

from goldenlens.core.stats.decision import Decision


def decision_for(report: Any) -> Decision | None:
    """``report.decision()`` when the report can compute one, else ``None``.

    Any object is accepted (a :class:`~goldenlens.core.scored_rows.Report` that predates the
    statistics has no ``decision``); a result that is not a :class:`Decision` counts as none,
    so a renderer never draws an interval it cannot trust.
    """
    method = getattr(report, "decision", None)
    if method is None:
        return None
    found = method() if callable(method) else method
    return found if isinstance(found, Decision) else None
