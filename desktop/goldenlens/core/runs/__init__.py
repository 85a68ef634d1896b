"""What a run is: its kind, its inputs' fingerprint, and how two runs compare."""
