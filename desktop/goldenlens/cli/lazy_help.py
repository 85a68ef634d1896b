"""Option help that names what a heavy module knows, filled in only when help is printed.

Every command line builds the whole parser, so a help text that listed, say, the judge
metrics or the advisor's thresholds while the parser is built would import their modules
for every command. The help says a placeholder instead, and a :class:`LazyHelpFormatter`
replaces it when ``--help`` is printed (and only then).
"""

from __future__ import annotations

import argparse
from typing import ClassVar


class LazyHelpFormatter(argparse.HelpFormatter):
    """Replaces :attr:`placeholder` in an option's help by :meth:`fill`, when help is printed."""

    #: What an option's help says where :meth:`fill`'s text goes.
    placeholder: ClassVar[str] = ""

    def fill(self) -> str:
        """The text that replaces the placeholder (it may import what it needs)."""
        raise NotImplementedError

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = super()._get_help_string(action)
        if text is None or not self.placeholder or self.placeholder not in text:
            return text
        return text.replace(self.placeholder, self.fill())
