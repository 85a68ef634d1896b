"""The errors a user can meet, under one base class that says how the command line ends.

Every error a front end reports to the user as one line — a project file that cannot be
opened, a report that cannot be written, a run that cannot go on, a judge engine that fails,
bad input — derives from :class:`GoldenLensError`. The command line catches that one class
(``except GoldenLensError``), prints the message and exits with the class's
:attr:`~GoldenLensError.exit_code`; the desktop app shows the message in a dialog. A new kind
of error only has to derive from it (and say its exit code when it is not bad input).

The classes of the other layers (the store's, the judge's, the jobs') derive from these;
this module imports nothing, so the command line can name the base class without loading
any of them.
"""

from __future__ import annotations

from typing import ClassVar, Final

#: The exit code of bad input or an unusable file: the command stopped, nothing half-done.
EXIT_BAD_INPUT: Final = 2


class GoldenLensError(Exception):
    """Base of every error a user can meet; its message is one line that names what went
    wrong (the file, sheet, row and column where known)."""

    #: How ``goldenlens`` exits when this error ends a command.
    exit_code: ClassVar[int] = EXIT_BAD_INPUT


class StoreError(GoldenLensError):
    """Anything that goes wrong with a project file. The message always names the file."""
