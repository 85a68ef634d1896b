"""JSON and CSV reports; texts every format shares."""
