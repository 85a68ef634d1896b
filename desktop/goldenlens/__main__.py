"""``python -m goldenlens`` runs the command line."""

from goldenlens.cli.main import run

run()
