"""Fact variants: spellings of numbers, dates, words; what they flip."""
