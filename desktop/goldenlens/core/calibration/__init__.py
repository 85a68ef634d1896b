"""Human-calibrated estimates (issue 21): what a reviewer would say of every response, estimated
from the automatic signals on all responses and a reviewer's verdicts on a sample GoldenLens draws.

- :mod:`.answers` — when two responses are the same answer (one verdict holds for both);
- :mod:`.labels` — reviewer verdicts and how they apply to responses (direct, same answer, stale);
- :mod:`.features` and :mod:`.logistic` — the predictor of the reviewer's verdict;
- :mod:`.sampling_plan` — which responses to label next (stratified, Neyman allocation);
- :mod:`.estimator` — per-pipeline estimates and paired differences with valid intervals;
- :mod:`.labels_needed` — how many labels a given interval width needs;
- :mod:`.diagnosis_check` — how often each advisor diagnosis held on labelled responses.
"""
