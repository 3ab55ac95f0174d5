"""``python -m fastxfen``: the same command line as the ``fastxfen`` script."""

import sys

from fastxfen.cli import main

if __name__ == "__main__":
    sys.exit(main())
