"""The judge dialog and its runs."""
