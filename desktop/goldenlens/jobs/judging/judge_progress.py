"""Progress of a judge run: rows done, tokens per second and the time left."""

from __future__ import annotations

import time

from goldenlens.jobs.progress import Progress, ProgressFn


def format_duration(seconds: float) -> str:
    """``65`` -> ``"1m05s"``; ``3725`` -> ``"1h02m"``; ``7`` -> ``"7s"``."""
    total = round(seconds)
    if total >= 3600:
        return f"{total // 3600}h{total % 3600 // 60:02d}m"
    if total >= 60:
        return f"{total // 60}m{total % 60:02d}s"
    return f"{total}s"


class JudgeMeter:
    """Rows done, tokens per second (of fresh judge calls) and the ETA, for progress."""

    def __init__(
        self, progress: ProgressFn, total: int, done: int, *, stage: str = "judge", unit: str = "rows"
    ) -> None:
        self._progress = progress
        self._stage = stage
        self._unit = unit
        self.total = total
        self.done = done
        self.rows_since_commit = 0
        self._started = time.monotonic()
        self._fresh_rows = 0
        self._tokens = 0
        self._reported = -1

    def row_done(self, *, fresh: bool, tokens: int) -> None:
        """One more row done; ``fresh`` when it called a model (not all from the cache)."""
        self.done += 1
        self.rows_since_commit += 1
        if fresh:
            self._fresh_rows += 1
            self._tokens += tokens

    def committed(self) -> None:
        self.rows_since_commit = 0

    def report(self, *, final: bool = False) -> None:
        if final and self._reported == self.done:
            return  # the last commit already reported every row
        self._reported = self.done
        elapsed = max(time.monotonic() - self._started, 1e-9)
        message = f"judged {self.done}/{self.total} {self._unit}"
        if self._tokens:
            message += f" · {self._tokens / elapsed:.1f} tok/s"
        remaining = self.total - self.done
        if self._fresh_rows and remaining and not final:
            message += f" · ETA {format_duration(elapsed / self._fresh_rows * remaining)}"
        self._progress(Progress(self._stage, self.done, self.total, message))
