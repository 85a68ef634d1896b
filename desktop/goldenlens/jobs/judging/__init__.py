"""Judge runs, golden-set reviews, their resumable run driver."""
