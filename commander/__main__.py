"""``python -m commander``: see :mod:`commander.cli`."""

import sys

from commander.cli import main

if __name__ == "__main__":
    sys.exit(main())
