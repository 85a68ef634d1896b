"""Metrics of the retrieved contexts (ragas): are they relevant to the question, do they
support the golden answer, are the useful ones ranked first."""
