"""A scrolling list of cards that a view replaces as a whole when it shows another item: the
advisor's diagnoses and the golden review's verdicts (a column, top-aligned) and the detail
pane's responses (a row, side by side)."""

from __future__ import annotations

from typing import Generic, TypeVar

from PySide6.QtWidgets import QBoxLayout, QFrame, QHBoxLayout, QScrollArea, QVBoxLayout, QWidget

CardT = TypeVar("CardT", bound=QWidget)


class CardList(QScrollArea, Generic[CardT]):
    """Cards in a frameless scroll area. In a column (the default) a stretch below them keeps
    them at the top; in a ``row`` each card takes an equal share of the width. Cards are made
    with :attr:`host` as their parent and handed to :meth:`add`."""

    def __init__(self, parent: QWidget | None = None, *, row: bool = False) -> None:
        super().__init__(parent)
        self.host = QWidget()
        self._layout: QBoxLayout = QHBoxLayout(self.host) if row else QVBoxLayout(self.host)
        self._layout.setContentsMargins(*((0, 2, 0, 0) if row else (0, 0, 4, 0)))
        self._layout.setSpacing(6)
        self._row = row
        if not row:
            self._layout.addStretch(1)
        self._cards: list[CardT] = []
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidget(self.host)

    def add(self, card: CardT) -> None:
        """Show ``card`` after the others."""
        if self._row:
            self._layout.addWidget(card, 1)
        else:
            self._layout.insertWidget(self._layout.count() - 1, card)  # before the stretch
        self._cards.append(card)

    def clear(self) -> None:
        """Remove every card (deleted once Qt is back in its event loop)."""
        for card in self._cards:
            self._layout.removeWidget(card)
            card.hide()
            card.deleteLater()
        self._cards = []

    def cards(self) -> list[CardT]:
        """The cards, in order."""
        return list(self._cards)
