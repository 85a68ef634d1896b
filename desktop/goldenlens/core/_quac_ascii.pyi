"""FMEval's QuAC normalisation of ASCII text, in C (see :mod:`goldenlens.core.normalise`)."""

def normalised_words(text: str, /) -> tuple[str, frozenset[str]]:
    """:func:`goldenlens.core.normalise.python_normalised_words` of an ASCII ``text``
    (``ValueError`` for any other text)."""
