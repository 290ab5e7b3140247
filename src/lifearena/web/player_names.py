"""Players' display names: what a name may be, and the key that makes names unique.

A name is 2 to 20 characters of ASCII letters, digits, ``_`` and ``-``, starting with a
letter or digit and without two marks in a row (lichess's rule). Limiting names to ASCII
is what keeps one name from passing for another: no Cyrillic ``а`` for a Latin ``a``, no
zero-width joiner, no right-to-left override, no control character can be in a name. Names
are unique case-insensitively (:func:`name_key`): ``Alice`` and ``alice`` are one name. A
few names are kept for the site itself (the computer's players, ``anonymous``).

Pages show names through ``textContent`` (never as HTML), so even a name that passed would
be shown, not run; the rule here is the first wall.

>>> check_name("Alice_2")
'Alice_2'
>>> name_key("Alice_2")
'alice_2'
>>> check_name("аlice")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
lifearena.errors.BadParameterError: name 'аlice' has the character 'а' (U+0430); expected ...
"""

from __future__ import annotations

import re
import unicodedata

from lifearena.errors import BadParameterError

MIN_NAME, MAX_NAME = 2, 20
"""Shortest and longest display name, in characters."""
_ALLOWED = re.compile(r"[A-Za-z0-9_-]")
_SHAPE = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9]|[_-](?=[A-Za-z0-9]))*")
RESERVED = frozenset({"anonymous", "admin", "administrator", "lifearena", "system",
                      "moderator", "computer", "deleted", "api", "bot", "guest"})
"""Names nobody may take (the site's own words), compared by :func:`name_key`."""
RESERVED_PREFIXES = ("computer-", "deleted-", "anonymous-")
"""Beginnings of names kept for the site's own players."""


def name_key(name: str) -> str:
    """The form two names are compared in: lower case (names are ASCII).

    >>> name_key("BoB") == name_key("bob")
    True
    """
    return name.lower()


def check_name(text: str) -> str:
    """``text`` as a display name, or :class:`BadParameterError` (one line) saying what is
    wrong with it and what a name may be."""
    expected = (f"expected {MIN_NAME} to {MAX_NAME} letters (A-Z, a-z), digits, '_' or '-', "
                "starting with a letter or digit, no two of '_' and '-' in a row")
    shown = text[:40]
    for char in text:
        if not _ALLOWED.fullmatch(char):
            code = f"U+{ord(char):04X}"
            label = unicodedata.name(char, "") if char.isprintable() else "unprintable"
            what = repr(char) if char.isprintable() else label
            raise BadParameterError(f"name {shown!r} has the character {what} ({code}); "
                                    f"{expected}")
    if not MIN_NAME <= len(text) <= MAX_NAME:
        raise BadParameterError(f"name of {len(text)} characters; {expected}")
    if not _SHAPE.fullmatch(text):
        raise BadParameterError(f"name {shown!r}; {expected}")
    key = name_key(text)
    if key in RESERVED or key.startswith(RESERVED_PREFIXES):
        raise BadParameterError(f"the name {text!r} is kept for the site; choose another")
    return text
