"""The names by which people call games, shared by the interfaces.

The command line and the web lab accept a game's registry name (``war-of-life``,
``blocking-queen``) and a few shorter aliases; :func:`game_name` resolves them the same way
for both, before the name reaches the registry.
"""

from __future__ import annotations

GAME_ALIASES: dict[str, str] = {"queen": "blocking-queen"}
"""Games also known by a shorter name (alias to registry name)."""


def game_name(text: str) -> str:
    """The game ``text`` names, aliases resolved (any other name is returned as given).

    >>> game_name("queen"), game_name(" Queen "), game_name("war-of-life")
    ('blocking-queen', 'blocking-queen', 'war-of-life')
    """
    return GAME_ALIASES.get(text.strip().lower(), text)
