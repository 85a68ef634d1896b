"""Metrics computed from embedding vectors alone, without a judge: semantic similarity and
BERTScore."""
