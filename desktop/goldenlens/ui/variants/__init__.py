"""The fact-variant dialog and its flip preview."""
