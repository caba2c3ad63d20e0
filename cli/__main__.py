"""``python -m fairdeal.cli``: the same as the ``fairdeal`` command."""

from fairdeal.cli.main import main

main()
