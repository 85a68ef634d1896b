"""Metrics of the response (ragas, and aspect critiques): is it supported by the contexts,
correct against the golden answer, relevant to the question, a faithful summary, or true to
an aspect the analyst defines."""
