"""The pure domain (no Qt, SQL or file formats); shared value types."""
