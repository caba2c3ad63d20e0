"""``python -m fairdeal``: the same as the ``fairdeal`` command."""

from fairdeal.cli.main import main

main()
