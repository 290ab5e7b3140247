"""``python -m lifearena`` runs the command line."""

from lifearena.cli import main

main()
