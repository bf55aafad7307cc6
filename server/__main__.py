"""The `t24-server` entry point (a placeholder until the server issue lands)."""

import sys


def main(argv: list[str] | None = None) -> int:
    print("t24-server: not yet (the network server lands with the server issue)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
