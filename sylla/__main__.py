"""``python -m sylla``: the same entry point as the ``sylla`` console script."""

import sys

from sylla.cli import main

if __name__ == "__main__":
    sys.exit(main())
