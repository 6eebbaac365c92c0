"""`python -m kg2tool ...`: the same as the `kg2tool` command."""

import sys

from .cli import main

sys.exit(main())
