"""``python -m samarra``: see :mod:`samarra.cli`."""

import sys

from samarra.cli import main

if __name__ == "__main__":
    sys.exit(main())
