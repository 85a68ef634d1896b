"""GoldenLens: review question-answering and RAG pipelines against a golden set, offline."""

__version__ = "0.1.0"
