"""What a paired comparison says, in a sentence a decision-maker can read, and why to read it
with care (issue #10): "Pipeline1 beats Pipeline2 on factual knowledge: +0.40, 95% CI [0.10,
0.70], p = 0.03 — 10 questions"."""

from __future__ import annotations

from goldenlens.core.stats.mcnemar import MIN_DISCORDANT_FOR_5_PERCENT
from goldenlens.core.view.metric_names import metric_label
from goldenlens.core.view.wording import interval_text, p_text, signed_text

#: Below this many paired questions the interval is called too wide to separate small
#: differences (a 0/1 metric's difference of means then moves in steps of 1/n > 0.03).
FEW_QUESTIONS = 30
#: The significance level McNemar's p is read against (the interval is at ``level``).
ALPHA = 0.05


def sentence_label(metric: str) -> str:
    """The metric's label inside a sentence: "factual knowledge", "F1", "exact match"."""
    label = metric_label(metric)
    if len(label) > 1 and (label[1].isupper() or label[1].isdigit()):
        return label  # F1, an acronym
    return label[:1].lower() + label[1:]


def _questions(n: int) -> str:
    return f"{n} question" + ("" if n == 1 else "s")


def verdict(
    metric: str,
    a: str,
    b: str,
    *,
    difference: float | None,
    low: float | None,
    high: float | None,
    n: int,
    p_value: float | None,
    level: float,
    interval: str = "CI",
) -> tuple[str | None, str]:
    """The better pipeline (``None``: the interval contains 0, McNemar's test — when given —
    does not reject at :data:`ALPHA`, or nothing to compare) and the verdict sentence for the
    difference ``a - b`` with its interval ``[low, high]`` (named ``interval``: "CI", or
    "simultaneous CI" for one that holds with every other pair's)."""
    name = sentence_label(metric)
    if difference is None or low is None or high is None or n == 0:
        return None, f"{a} and {b} have no question both scored on {name}: nothing to compare"
    winner: str | None
    if low > 0 or high < 0:
        ahead, loser, sign = (a, b, 1.0) if low > 0 else (b, a, -1.0)
        lo, hi = sorted((sign * low, sign * high))
        if p_value is not None and p_value >= ALPHA:
            # The interval excludes 0 but McNemar's exact test does not reject: a decision-maker
            # is not told "beats" on evidence one of the two tests does not give.
            ahead_by = signed_text(sign * difference)
            head = f"{ahead} may be ahead of {loser} on {name} (not confirmed): {ahead_by}"
            winner = None
        else:
            head = f"{ahead} beats {loser} on {name}: {signed_text(sign * difference)}"
            winner = ahead
    else:
        winner, lo, hi = None, low, high
        head = f"cannot tell {a} and {b} apart on {name}: {signed_text(difference)}"
    parts = [head, f"{round(level * 100):d}% {interval} {interval_text(lo, hi)}"]
    if p_value is not None:
        parts.append(p_text(p_value))
    text = ", ".join(parts) + f" — {_questions(n)}"
    return winner, text[:1].upper() + text[1:]


def caveat(
    *,
    n: int,
    low: float | None,
    high: float | None,
    p_value: float | None,
    a_only: int | None,
    b_only: int | None,
) -> str:
    """Why a verdict should be read with care ("" when nothing calls for it), the reasons
    joined with "; "."""
    if n == 0 or low is None or high is None:
        return ""
    reasons: list[str] = []
    if n < FEW_QUESTIONS:
        reasons.append(f"only {_questions(n)}: an interval this wide cannot separate small differences")
    if a_only is not None and b_only is not None:
        discordant = a_only + b_only
        if discordant < MIN_DISCORDANT_FOR_5_PERCENT:
            reasons.append(
                f"too few discordant questions ({discordant}) for McNemar's test to reach p < {ALPHA:g}"
            )
        elif p_value is not None and (low > 0 or high < 0) and p_value >= ALPHA:
            reasons.append(
                f"McNemar's test does not confirm the interval ({p_text(p_value)}): treat it as not shown"
            )
    return "; ".join(reasons)
