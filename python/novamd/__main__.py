"""``python -m novamd run CONFIG``: the ``novamd`` command line, from the package."""

import sys

from . import _core


def main():
    sys.stdout.flush()
    code = _core.cli_main(["novamd", *sys.argv[1:]])
    sys.exit(code)


if __name__ == "__main__":
    main()
