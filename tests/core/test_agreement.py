"""Cohen's kappa and raw agreement, against values worked by hand from confusion tables.

scikit-learn is not in the environment, so every expected value is computed in the test from
the textbook formula on the table's counts (kappa = (p_o - p_e) / (1 - p_e)), or taken from
the worked examples of the Wikipedia article "Cohen's kappa" (0.4, 0.1304, 0.2593).
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from goldenlens.core.stats.agreement import Agreement, agreement, cohen_kappa


def from_table(table: Mapping[tuple[str, str], int]) -> tuple[list[str], list[str]]:
    """Two raters' labels spelled out from a confusion table {(first, second): count}."""
    first: list[str] = []
    second: list[str] = []
    for (a, b), count in table.items():
        first += [a] * count
        second += [b] * count
    return first, second


def by_hand(table: Mapping[tuple[str, str], int]) -> float:
    """Kappa from the table's marginals, the formula written out independently."""
    n = sum(table.values())
    labels = {a for a, _ in table} | {b for _, b in table}
    p_o = sum(count for (a, b), count in table.items() if a == b) / n
    first = {label: sum(c for (a, _), c in table.items() if a == label) / n for label in labels}
    second = {label: sum(c for (_, b), c in table.items() if b == label) / n for label in labels}
    p_e = sum(first[label] * second[label] for label in labels)
    return (p_o - p_e) / (1 - p_e)


# Wikipedia's worked examples: 50 proposals read by two readers; 100 items, two tables.
WIKIPEDIA = [
    ({("y", "y"): 20, ("y", "n"): 5, ("n", "y"): 10, ("n", "n"): 15}, 0.4),
    ({("y", "y"): 45, ("y", "n"): 15, ("n", "y"): 25, ("n", "n"): 15}, 0.1304),
    ({("y", "y"): 25, ("y", "n"): 35, ("n", "y"): 5, ("n", "n"): 35}, 0.2593),
]


@pytest.mark.parametrize(("table", "expected"), WIKIPEDIA)
def test_kappa_matches_the_worked_examples(table: dict[tuple[str, str], int], expected: float) -> None:
    first, second = from_table(table)
    assert cohen_kappa(first, second) == pytest.approx(expected, abs=5e-5)
    assert cohen_kappa(first, second) == pytest.approx(by_hand(table), rel=1e-12)


def test_three_judge_labels_against_two_reviewer_labels() -> None:
    """The judge may say unsure, the reviewer never does: p_o = 10/16, p_e = (7*9 + 6*7)/256,
    kappa = (160 - 105) / (256 - 105) = 55/151."""
    table = {
        ("pass", "pass"): 6, ("pass", "fail"): 1,
        ("fail", "pass"): 2, ("fail", "fail"): 4,
        ("unsure", "pass"): 1, ("unsure", "fail"): 2,
    }  # fmt: skip
    first, second = from_table(table)
    result = agreement(first, second)
    assert (result.n, result.agreed) == (16, 10)
    assert result.rate == 10 / 16
    assert result.kappa == pytest.approx(55 / 151, rel=1e-12)
    assert result.kappa == pytest.approx(by_hand(table), rel=1e-12)


def test_the_order_of_the_items_does_not_matter_but_the_pairing_does() -> None:
    first, second = from_table({("p", "p"): 3, ("p", "f"): 1, ("f", "f"): 2})
    assert cohen_kappa(first[::-1], second[::-1]) == cohen_kappa(first, second)
    assert cohen_kappa(second, first) == cohen_kappa(first, second)  # symmetric in the raters


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        (["p", "f", "p", "f"], ["p", "f", "p", "f"], Agreement(4, 4, 1.0)),  # perfect
        (["p", "f", "p", "f"], ["f", "p", "f", "p"], Agreement(4, 0, -1.0)),  # p_o 0, p_e 1/2
        (["p", "p", "p"], ["p", "p", "p"], Agreement(3, 3, None)),  # p_e = 1: undefined, not 1.0
        ([], [], Agreement(0, 0, None)),
        # Agreement at chance level exactly: p_o = 1/2 = p_e.
        (["p", "p", "f", "f"], ["p", "f", "p", "f"], Agreement(4, 2, 0.0)),
    ],
)
def test_edge_cases(first: list[str], second: list[str], expected: Agreement) -> None:
    assert agreement(first, second) == expected


def test_rate_is_none_without_items_and_the_dict_names_every_figure() -> None:
    assert Agreement(0, 0, None).rate is None
    assert Agreement(4, 3, 0.5).as_dict() == {"n": 4, "agreed": 3, "rate": 0.75, "kappa": 0.5}


def test_raters_must_label_the_same_items() -> None:
    with pytest.raises(ValueError, match="3 labels against 2"):
        agreement(["p", "f", "p"], ["p", "f"])
