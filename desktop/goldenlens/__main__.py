"""``python -m goldenlens`` runs the command line."""

import sys

from goldenlens.cli.main import main

sys.exit(main())
