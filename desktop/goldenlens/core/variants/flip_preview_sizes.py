"""How much of the flip preview is shown: snippet context and examples per variant.

Apart from :mod:`goldenlens.core.variants.flip_preview` because the command line shows the
default number of examples in its help: building the parser then costs no variant
generators.
"""

from __future__ import annotations

#: Characters of context each side of the match in a row's snippet.
SNIPPET_CONTEXT = 40
#: Responses of other questions shown as examples (all are counted).
ELSEWHERE_EXAMPLES = 5
