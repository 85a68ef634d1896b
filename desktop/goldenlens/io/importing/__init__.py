"""Golden sets, responses, labels and source documents into core values."""
