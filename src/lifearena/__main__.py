"""``python -m lifearena`` runs the command line."""

from lifearena._entry import main

main()
