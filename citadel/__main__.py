"""``python -m citadel``: see :mod:`citadel.cli`."""

import sys

from citadel.cli import main

if __name__ == "__main__":
    sys.exit(main())
