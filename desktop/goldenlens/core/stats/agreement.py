"""How often two raters agree: raw agreement and Cohen's kappa.

Used for the judge against the reviewer on the golden-set review, so the analyst knows how
far to trust the judge. Cohen's kappa corrects the raw agreement for the agreement that two
raters with these label frequencies would reach by chance::

    kappa = (p_o - p_e) / (1 - p_e)
    p_o = agreed / n,   p_e = sum over labels l of (n_a(l) / n) * (n_b(l) / n)

It is undefined when ``p_e == 1`` (both raters gave one and the same label to every item:
nothing to correct for) and when there are no pairs; then it is ``None``, never a made-up
1.0 or 0.0 (scikit-learn's ``cohen_kappa_score`` returns NaN there).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Agreement:
    """Agreement of two raters over ``n`` items: ``agreed`` of them got the same label."""

    n: int
    agreed: int
    kappa: float | None

    @property
    def rate(self) -> float | None:
        """The share of items both raters labelled the same; ``None`` without items."""
        return self.agreed / self.n if self.n else None

    def as_dict(self) -> dict[str, float | int | None]:
        return {"n": self.n, "agreed": self.agreed, "rate": self.rate, "kappa": self.kappa}


def cohen_kappa(first: Sequence[Hashable], second: Sequence[Hashable]) -> float | None:
    """Cohen's kappa of two raters' labels for the same items (``first[i]`` and
    ``second[i]`` label item ``i``); ``None`` when undefined (see the module docstring)."""
    return agreement(first, second).kappa


def agreement(first: Sequence[Hashable], second: Sequence[Hashable]) -> Agreement:
    """Raw agreement and Cohen's kappa of two raters' labels for the same items."""
    if len(first) != len(second):
        raise ValueError(f"two raters must label the same items: {len(first)} labels against {len(second)}")
    n = len(first)
    if n == 0:
        return Agreement(0, 0, None)
    agreed = sum(1 for a, b in zip(first, second, strict=True) if a == b)
    counts_a, counts_b = Counter(first), Counter(second)
    # Integer arithmetic up to the last division: p_e == 1 is then tested exactly.
    chance = sum(counts_a[label] * counts_b[label] for label in counts_a)
    if chance == n * n:
        return Agreement(n, agreed, None)
    kappa = (agreed * n - chance) / (n * n - chance)
    return Agreement(n, agreed, kappa)
