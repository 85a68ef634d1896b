"""The command line: argument parsing, the printed summary, exit codes."""
