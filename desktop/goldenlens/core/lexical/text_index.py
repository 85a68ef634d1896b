"""Which of a fixed list of texts contain a string: Factual Knowledge's inclusion test, answered
for many texts at once. Two ways, for two kinds of use, with the same answers (property tests
check both against plain ``in``):

* :class:`ScannedTexts` joins the texts into one string (separated by ``\\x00``, which no fact
  part contains) and looks each string up with ``str.find``, skipping from one hit to the next
  text. Nothing to build beyond the join: for a few look-ups over many texts (the flip preview
  asks about a handful of variants over every response of a project).
* :class:`IndexedTexts` indexes the texts' runs of letters and digits once (a pass over every
  text, about 20 times a join) and narrows each look-up to the texts holding a matching run,
  then tests those by plain inclusion: for thousands of look-ups (the advisor asks about every
  fact of the golden set, over every response and every golden answer).

Neither changes case: the caller gives texts and strings alike lower-cased (or normalised).
"""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from collections.abc import Sequence

_SEPARATOR = "\x00"
#: A run of letters and digits; the index splits texts and looked-up strings alike.
_RUN = re.compile(r"[^\W_]+")


class ScannedTexts:
    """Texts joined with a separator, and where each starts."""

    def __init__(self, texts: Sequence[str]) -> None:
        self.texts = list(texts)
        self.starts: list[int] = []
        position = 0
        for text in self.texts:
            self.starts.append(position)
            position += len(text) + len(_SEPARATOR)
        self.joined = _SEPARATOR.join(self.texts)

    def containing(self, needle: str) -> set[int]:
        """Indices of the texts that contain ``needle``."""
        if _SEPARATOR in needle or not needle:
            return {i for i, text in enumerate(self.texts) if needle in text}
        found: set[int] = set()
        at = self.joined.find(needle)
        while at >= 0:
            index = bisect.bisect_right(self.starts, at) - 1
            found.add(index)
            if index + 1 >= len(self.starts):
                break
            at = self.joined.find(needle, self.starts[index + 1])
        return found


class IndexedTexts:
    """Texts with an index of their letter-and-digit runs; each look-up's answer is kept."""

    def __init__(self, texts: Sequence[str]) -> None:
        self.texts = tuple(texts)
        # letter-and-digit runs -> the texts holding them
        postings: dict[str, set[int]] = defaultdict(set)
        for n, text in enumerate(self.texts):
            for run in _RUN.findall(text):
                postings[run].add(n)
        self._postings = postings
        self._vocabulary = sorted(postings)
        self._vocabulary_text = "\n".join(self._vocabulary)
        self._starts: list[int] = []
        at = 0
        for token in self._vocabulary:
            self._starts.append(at)
            at += len(token) + 1
        self._found: dict[str, frozenset[int]] = {}

    def _tokens_with(self, run: str, *, suffix: bool) -> list[str]:
        """Vocabulary runs that end with ``run`` (``suffix``) or contain it: one search of
        the joined vocabulary, not a test per run."""
        found: list[str] = []
        text, starts = self._vocabulary_text, self._starts
        at = text.find(run)
        while at >= 0:
            n = bisect.bisect_right(starts, at) - 1
            token = self._vocabulary[n]
            if not suffix or at + len(run) == starts[n] + len(token):
                found.append(token)
                at = starts[n] + len(token) + 1  # the next run: one hit per run is enough
            else:
                at += 1
            at = text.find(run, at)
        return found

    def _with_run(self, run: str, *, left: bool, right: bool) -> set[int]:
        """Texts with a letter-and-digit run that is ``run`` (closed on both sides), starts
        with it (``left`` only), ends with it (``right`` only) or contains it."""
        if left and right:
            return set(self._postings.get(run, ()))
        if left:
            vocabulary = self._vocabulary
            at = bisect.bisect_left(vocabulary, run)
            tokens = []
            while at < len(vocabulary) and vocabulary[at].startswith(run):
                tokens.append(vocabulary[at])
                at += 1
        else:
            tokens = self._tokens_with(run, suffix=right)
        found: set[int] = set()
        for token in tokens:
            found |= self._postings[token]
        return found

    def containing(self, needle: str) -> frozenset[int]:
        """Indices of the texts that contain ``needle``.

        A letter-and-digit run of ``needle`` that has a non-run character on a side must meet
        a run boundary of the text on that side too, so the index narrows the candidates to
        texts with a matching run (exact, else prefix, else suffix or inner — the narrowest
        kind the needle has); each candidate is then tested by plain inclusion.
        """
        cached = self._found.get(needle)
        if cached is not None:
            return cached
        runs = [(m.group(), m.start() > 0, m.end() < len(needle)) for m in _RUN.finditer(needle)]
        if runs:
            # exact runs first, then prefixes, then the rest; longer runs first within a kind
            run, left, right = min(runs, key=lambda r: (-(r[1] and r[2]), -r[1], -len(r[0])))
            candidates: set[int] | range = self._with_run(run, left=left, right=right)
        else:
            candidates = range(len(self.texts))
        result = frozenset(n for n in candidates if needle in self.texts[n])
        self._found[needle] = result
        return result
