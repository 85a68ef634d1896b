"""Pausing Python's cyclic garbage collector while a step builds many objects that all live on.

Reading 60,000 responses (or a grid's 10^5 row tuples) makes hundreds of thousands of strings,
tuples and records, and each counts towards the next collection: the collector then walks the
whole growing heap again and again while finding nothing to free (none of these objects is
part of a cycle). That was 0.35 s of a 1.2 s read, and a quarter of a full grid load's CPU.
Reference counting still frees everything as usual; only the search for cycles waits until the
step ends.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic collection inside the block (nested blocks are fine); the previous state after."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def settle_worker() -> None:
    """In a pool worker: the objects it inherited from its parent (a fork copies the whole heap)
    are never collected, so they are moved out of the collector's sight, and the worker runs
    without cyclic collection (scoring makes no cycles; each chunk's objects are freed by
    reference counting when the chunk is sent back)."""
    gc.freeze()
    gc.disable()
