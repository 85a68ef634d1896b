"""The single-file HTML report."""
