"""FMEval's QuAC-protocol normalisation and lexical scores of ASCII text, in C (see
:mod:`goldenlens.core.normalise` and :mod:`goldenlens.core.lexical_batch`)."""

def normalised_words(text: str, /) -> tuple[str, frozenset[str]]:
    """:func:`goldenlens.core.normalise.python_normalised_words` of an ASCII ``text``
    (``ValueError`` for any other text)."""

def normalised(text: str, /) -> str:
    """:func:`goldenlens.core.normalise.normalise` of an ASCII ``text`` (``ValueError`` for any
    other text)."""

def row_values(
    response: str,
    targets: tuple[tuple[str, str, str], ...],
    lower_groups: tuple[tuple[str, ...], ...],
    normalised_groups: tuple[tuple[str, ...], ...],
    /,
) -> tuple[float, float, float, float, float, float, float]:
    """:meth:`goldenlens.core.lexical.LexicalScorer.values` of an ASCII ``response`` in set
    counting, given :meth:`~goldenlens.core.lexical.LexicalScorer.ascii_arguments` of its answer
    and fact (``ValueError`` for a response or target that is not ASCII)."""

def lower_contains_each(
    texts: list[str], words: tuple[str, ...], others: tuple[str, ...], /
) -> list[bool | None]:
    """For each text: ``None`` when it is not ASCII, else whether its lower-cased text contains
    a word of ``words`` and a word of ``others`` (a word that is not ASCII is in no ASCII text)."""

def distinct_words(text: str, /) -> str:
    """``" ".join(dict.fromkeys(text.split()))`` of an ASCII ``text`` (``ValueError`` for any
    other text)."""
