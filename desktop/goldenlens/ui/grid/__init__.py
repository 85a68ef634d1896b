"""The score grid: model, painting view, filters, colours."""
