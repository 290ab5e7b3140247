"""Tests that need the optional ``[interop]`` or ``[rl]`` extra live in ``tests/interop``
alone.

The README's test command installs ``[test]``, not ``[interop]``: a test elsewhere that
imports OpenSpiel, PettingZoo or Gymnasium would fail for a new user (or skip unseen), and
CI, which runs ``tests/interop`` again with the extra installed, would not run it there.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).parent
INTEROP = {"pyspiel", "pettingzoo", "gymnasium", "open_spiel", "torch"}
ADAPTERS = ("lifearena.interop.gymnasium", "lifearena.interop.openspiel",
            "lifearena.interop.pettingzoo", "lifearena.interop.spaces",
            "lifearena.interop.vector", "lifearena.rl.envs", "lifearena.rl.network",
            "lifearena.rl.checkpoint", "lifearena.rl.ppo", "lifearena.rl.torch_agent")
"""The adapters that import the extras' packages (``lifearena.interop.games`` does not);
the ``[rl]`` extra's torch modules count as the ``[interop]`` extra's do (CI installs
both before it runs ``tests/interop``)."""


def needs_interop(tree: ast.AST) -> list[str]:
    """What in a test module's syntax needs the extra: imports of its packages (or of the
    adapters, which import them) and ``pytest.importorskip`` of them.

    >>> needs_interop(ast.parse("import gymnasium\\nimport numpy"))
    ['import gymnasium']
    >>> needs_interop(ast.parse("pytest.importorskip('pettingzoo')"))
    ["importorskip('pettingzoo')"]
    """
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        for name in names:
            if name.split(".")[0] in INTEROP or name.startswith(ADAPTERS):
                found.append(f"import {name}")
        if (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "importorskip"
                and node.args and isinstance(node.args[0], ast.Constant)
                and str(node.args[0].value).split(".")[0] in INTEROP):
            found.append(f"importorskip({node.args[0].value!r})")
    return found


def test_only_tests_interop_needs_the_interop_extra() -> None:
    offenders = {}
    for path in sorted(TESTS.rglob("*.py")):
        if TESTS / "interop" in path.parents:
            continue
        found = needs_interop(ast.parse(path.read_text(), str(path)))
        if found:
            offenders[str(path.relative_to(TESTS))] = found
    offenders.pop("test_extras_layout.py", None)  # its own doctests name them
    assert not offenders, f"move these tests to tests/interop: {offenders}"


def test_the_check_finds_an_import_of_the_extra() -> None:
    assert needs_interop(ast.parse("def f():\n    from gymnasium import spaces\n")) == \
        ["import gymnasium"]
    assert needs_interop(ast.parse("import lifearena.interop.gymnasium")) == \
        ["import lifearena.interop.gymnasium"]
    assert needs_interop(ast.parse("import numpy, pytest")) == []
    assert needs_interop(ast.parse("from lifearena.interop.games import new_state")) == []
