"""Things that hold a file or a thread open: ``with thing:`` closes them however the block ends."""

from __future__ import annotations

from types import TracebackType
from typing import Self


class ClosedOnExit:
    """A mixin for a class with a ``close()``: used as a context manager, the ``with`` block
    gets the object itself and closes it at the end, also when the block raises."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
