import sys

from clients.reference_cli.cli import main

sys.exit(main())
