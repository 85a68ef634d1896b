"""One module per sub-command (advise, label, review, runs, variants, …)."""
