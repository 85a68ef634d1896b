"""Option help that names what a heavy module knows, filled in only when help is printed.

Every command line builds the whole parser, so a help text that listed, say, the judge
metrics or the advisor's thresholds while the parser is built would import their modules
for every command. The help says a placeholder instead, and :class:`LazyHelpFormatter`
replaces it when ``--help`` is printed (and only then).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from typing import ClassVar


class LazyHelpFormatter(argparse.HelpFormatter):
    """Replaces each placeholder of :attr:`fillers` found in an option's help by what its
    function returns, when help is printed."""

    #: Placeholder → the function that makes its text (it may import what it needs).
    fillers: ClassVar[Mapping[str, Callable[[], str]]] = {}

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = super()._get_help_string(action)
        if text is None:
            return None
        for placeholder, fill in self.fillers.items():
            if placeholder in text:
                text = text.replace(placeholder, fill())
        return text
