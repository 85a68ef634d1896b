"""FMEval's metrics: normalisation, Factual Knowledge, QA Accuracy, flags."""
