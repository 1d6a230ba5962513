"""``python -m panache``: see :mod:`panache.cli`."""

import sys

from panache.cli import main

if __name__ == "__main__":
    sys.exit(main())
