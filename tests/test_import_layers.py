"""The package's import graph: no circles, and every import points down the layers.

The graph is read from the source with :mod:`ast` (nothing is imported), one node per module
of ``src/lifearena``. An edge ``a -> b`` is an ``import`` of ``b`` by ``a``, wherever it is:
at module level, inside a function, or under ``if TYPE_CHECKING:``.

* **No circles**, counting imports inside functions and imports for type checkers too: a
  circle is a reader going back and forth whether or not a lazy or a ``TYPE_CHECKING``
  import hides it from the interpreter (``losat`` and its heuristic, ``war_of_life`` and its
  compiled simulator, the web server and the modules of its routes used to be such).
* **Layers** (``../DESIGN.md``): ``errors`` (and ``caps``, the caps on numbers and sizes
  that the interfaces accept) < ``life`` < ``core`` (and ``testing``, the conformance check
  of the protocol, and ``killtest``, the kill-and-resume harness) < ``games`` < ``agents`` <
  ``arena`` < ``studies`` (and ``online``, the bot API's client; ``analysis`` and
  ``puzzles``) < the interfaces ``cli``,
  ``web``, ``interop``, ``rl`` < the entry points ``_entry`` and ``__main__``. Every import, at
  module level or inside a function, must point to the same layer or a lower one.
* **The rooms know no web framework**: :mod:`lifearena.web.rooms` (the match runner) and
  every module of the package it imports, directly or not, import neither FastAPI nor
  Starlette (:data:`NO_FRAMEWORK`).
* **Interfaces stand side by side**: no module of one interface (``cli``, ``web``,
  ``interop``, ``rl``) imports a module of another, at module level or inside a function;
  what two of them share lives below them (``lifearena.caps``,
  ``lifearena.arena.game_names``). Only the entry points, which are not interfaces, import
  the command line; ``rl`` is built on ``interop`` (:data:`BUILT_ON`).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = "lifearena"
SOURCE = Path(__file__).resolve().parents[1] / "src" / PACKAGE

LAYERS: dict[str, int] = {
    "errors": 0,
    "extras": 0,
    "caps": 0,  # the caps that the command line and the web lab both enforce
    "params": 0,  # typed parameter specs: what every game's parameters are, read by all
    "life": 1,
    "core": 2,
    "testing": 2,
    "killtest": 2,  # the kill-and-resume harness of the reliability tests and the soak
    "lessons": 2,  # lessons as data: steps on positions of a game, judged by its rules
    "games": 3,
    "agents": 4,
    "arena": 5,
    "studies": 6,
    "analysis": 6,  # a game's positions judged by its strongest search
    "puzzles": 6,  # positions mined from games where one move wins by force
    "online": 6,  # the bot API's client: agents and arena below, the command line above
    "cli": 7,
    "web": 7,
    "interop": 7,
    "rl": 7,  # reinforcement learning on the games, built on interop's environments
    "_entry": 8,  # the ``lifearena`` script's entry point, which loads the command line
    "__main__": 8,
}

INTERFACES = frozenset({"cli", "web", "interop", "rl"})
"""The packages that face users and other programs; none imports another, but for
:data:`BUILT_ON`."""

BUILT_ON: dict[str, str] = {
    # rl registers interop's environments under versioned ids, its trainer steps them and
    # its agents encode positions with interop's spaces: rl is a layer on top of interop,
    # never the other way round
    "rl": "interop",
}
"""Interfaces whose modules may import the one named anywhere (at module level too)."""


def module_name(path: Path) -> str:
    """``lifearena.games.losat`` for ``src/lifearena/games/losat.py`` (packages without
    ``.__init__``)."""
    parts = list(path.relative_to(SOURCE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(tree: ast.AST, module: str, is_package: bool, *, top_level_only: bool,
             modules: set[str] | frozenset[str] = frozenset(),
             package: str | None = PACKAGE) -> set[str]:
    """The ``lifearena`` modules ``module`` imports (``from x import y`` counts ``x.y`` when
    that is a module, else ``x``); every module it imports when ``package`` is ``None``."""
    found: set[str] = set()

    def visit(node: ast.AST, nested: bool) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            if top_level_only:
                return
            nested = True
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")
                anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, base] if base else anchor)
            submodules = {f"{base}.{alias.name}" for alias in node.names} & modules
            found.update(submodules or {base})
        for child in ast.iter_child_nodes(node):
            visit(child, nested)

    visit(tree, False)
    if package is None:
        return found
    return {name for name in found if name == package or name.startswith(package + ".")}


def import_graph(*, top_level_only: bool) -> dict[str, set[str]]:
    """Each module of the package and the package modules it imports."""
    paths = {module_name(p): p for p in SOURCE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        targets = _imports(tree, name, path.name == "__init__.py",
                           top_level_only=top_level_only, modules=set(paths))
        graph[name] = {t for t in targets if t in paths and t != name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of the graph as a list of modules (first repeated at the end), or None.

    >>> find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}})
    ['a', 'b', 'c', 'a']
    >>> find_cycle({"a": {"b"}, "b": set()}) is None
    True
    """
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)):
            return cycle
    return None


def layer_of(module: str) -> int | None:
    """The layer number of a package module; ``None`` for the package root, which re-exports
    only the errors.

    >>> layer_of("lifearena.games.losat"), layer_of("lifearena.life.kernels.bitwise")
    (3, 1)
    """
    parts = module.split(".")
    if len(parts) == 1:
        return None
    return LAYERS[parts[1]]


def test_the_graph_sees_the_package() -> None:
    graph = import_graph(top_level_only=True)
    assert "lifearena.games.losat" in graph and "lifearena.core" in graph
    assert "lifearena.core" in graph["lifearena.games.losat.rules"]


def test_a_circle_is_found_when_there_is_one() -> None:
    tree = ast.parse("from lifearena.games import b\nif TYPE_CHECKING:\n    import lifearena.c")
    assert _imports(tree, "lifearena.games.a", False, top_level_only=True) == {
        "lifearena.games", "lifearena.c"}  # an import for type checkers is an edge too
    assert _imports(tree, "lifearena.games.a", False, top_level_only=True,
                    modules={"lifearena.games.b"}) == {"lifearena.games.b", "lifearena.c"}
    graph = import_graph(top_level_only=True)
    graph["lifearena.core"] = {*graph["lifearena.core"], "lifearena.games.losat"}
    assert find_cycle(graph) is not None


@pytest.mark.parametrize("top_level_only", [True, False], ids=["module-level", "all"])
def test_no_import_circles(top_level_only: bool) -> None:
    cycle = find_cycle(import_graph(top_level_only=top_level_only))
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


def test_every_module_has_a_layer() -> None:
    unknown = {m.split(".")[1] for m in import_graph(top_level_only=False)
               if "." in m} - set(LAYERS)
    assert not unknown, f"add {sorted(unknown)} to LAYERS (and to DESIGN.md's layers)"


UPWARD_ALLOWED = {
    # ``make("module:callable")`` wraps an outside library's agent (an OpenSpiel bot, a
    # PettingZoo policy); the adapter lives with the other adapters and is imported inside
    # ``make`` only when such a name is used, so the agents layer never needs the extra.
    "lifearena.agents.registry -> lifearena.interop.agents",
    # ``policy:FILE.pt`` plays a torch checkpoint: its agent lives in the rl layer with the
    # network, and is imported inside the ``policy:`` factory only for such a file
    "lifearena.agents.policy -> lifearena.rl.torch_agent",
    # ``make("alphazero:FILE.pt")`` plays by the trainer's search and network (torch, the
    # compiled vector environment); imported inside the factory only when such a name is used.
    "lifearena.agents.alphazero -> lifearena.rl.alphazero",
}


@pytest.mark.parametrize("top_level_only", [True, False], ids=["module-level", "all"])
def test_imports_point_down_the_layers(top_level_only: bool) -> None:
    upward = set(
        f"{source} -> {target}"
        for source, targets in import_graph(top_level_only=top_level_only).items()
        for target in targets
        if layer_of(source) is not None and layer_of(target) is not None
        and layer_of(target) > layer_of(source)  # type: ignore[operator]
    ) - UPWARD_ALLOWED
    assert not upward, "imports pointing up the layers:\n" + "\n".join(sorted(upward))


CROSSINGS_ALLOWED: dict[str, str] = {
    # ``lifearena serve`` is the command that starts the web application: it imports the web
    # package inside the command's functions, when it runs, never at module level.
    "lifearena.cli.serve": "web",
    # ``lifearena puzzles generate --db`` mines the server's finished games: it reads the web
    # store inside that function, only when a database is given.
    "lifearena.cli.puzzles": "web",
    # ``lifearena rl`` presents the rl package's evaluation: imported when the command runs
    "lifearena.cli.rl": "rl",
    # ``lifearena deploy nginx`` prints the web package's proxy configuration
    # (lifearena.web.nginx, which the web tests run): imported when the command runs
    "lifearena.cli.deploy": "web",
}
"""Modules of an interface that may import another interface inside a function (the one
named), never at module level."""

def interface_of(module: str) -> str | None:
    """The interface package a module belongs to, or ``None`` for the layers below them and
    the entry points.

    >>> interface_of("lifearena.web.lab.child"), interface_of("lifearena.cli")
    ('web', 'cli')
    >>> interface_of("lifearena.arena.game_names"), interface_of("lifearena._entry")
    (None, None)
    """
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in INTERFACES else None


def crossings(graph: dict[str, set[str]],
              allowed: dict[str, str] | None = None) -> set[str]:
    """The edges of ``graph`` from a module of one interface to a module of another, less
    those ``allowed`` names (source module: the interface it may import).

    >>> graph = {"lifearena.web.lab.launcher": {"lifearena.cli.checks", "lifearena.web.catalog"},
    ...          "lifearena._entry": {"lifearena.cli"},
    ...          "lifearena.cli.life": {"lifearena.caps"},
    ...          "lifearena.cli.serve": {"lifearena.web.app", "lifearena.interop"}}
    >>> sorted(crossings(graph, {"lifearena.cli.serve": "web"}))  # doctest: +NORMALIZE_WHITESPACE
    ['lifearena.cli.serve -> lifearena.interop',
     'lifearena.web.lab.launcher -> lifearena.cli.checks']
    """
    allowed = allowed or {}
    return {f"{source} -> {target}" for source, targets in graph.items()
            for target in targets
            if interface_of(source) is not None and interface_of(target) is not None
            and interface_of(source) != interface_of(target)
            and allowed.get(source) != interface_of(target)
            and BUILT_ON.get(interface_of(source) or "") != interface_of(target)}


def test_interface_modules_are_told_apart() -> None:
    graph = import_graph(top_level_only=False)
    for interface in INTERFACES:
        assert any(interface_of(module) == interface for module in graph), interface
    assert set(CROSSINGS_ALLOWED) <= set(graph), "an allowed crossing names no module"
    graph["lifearena.web.lab.child"] = {*graph["lifearena.web.lab.child"], "lifearena.cli"}
    assert "lifearena.web.lab.child -> lifearena.cli" in crossings(graph, CROSSINGS_ALLOWED)
    graph["lifearena.interop.games"] = {*graph["lifearena.interop.games"],
                                        "lifearena.rl.versions"}
    assert "lifearena.interop.games -> lifearena.rl.versions" in crossings(graph)
    assert not {c for c in crossings(graph) if c.startswith("lifearena.rl.")}


@pytest.mark.parametrize("top_level_only", [True, False], ids=["module-level", "all"])
def test_interfaces_do_not_import_one_another(top_level_only: bool) -> None:
    # at module level nothing may cross: an allowed crossing is an import inside a function
    allowed = {} if top_level_only else CROSSINGS_ALLOWED
    crossing = crossings(import_graph(top_level_only=top_level_only), allowed)
    assert not crossing, ("an interface imports another (move what they share below them):\n"
                          + "\n".join(sorted(crossing)))


NO_FRAMEWORK = ("fastapi", "starlette")
"""The web frameworks the rooms (:mod:`lifearena.web.rooms`) must not import."""
ROOMS = "lifearena.web.rooms"


def reached_from(graph: dict[str, set[str]], start: str) -> set[str]:
    """``start`` and every module of the package it imports, directly or not.

    >>> sorted(reached_from({"a": {"b"}, "b": {"c"}, "c": set(), "d": {"a"}}, "a"))
    ['a', 'b', 'c']
    """
    seen, todo = {start}, [start]
    while todo:
        for nxt in graph.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def framework_imports(modules: set[str]) -> set[str]:
    """``module -> framework`` for each of ``modules`` that imports FastAPI or Starlette
    anywhere (inside functions and for type checkers too)."""
    paths = {module_name(p): p for p in SOURCE.rglob("*.py")}
    found = set()
    for module in sorted(modules):
        path = paths[module]
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for name in _imports(tree, module, path.name == "__init__.py", top_level_only=False,
                             package=None):
            if name.split(".")[0] in NO_FRAMEWORK:
                found.add(f"{module} -> {name}")
    return found


def test_the_rooms_import_no_web_framework() -> None:
    graph = import_graph(top_level_only=False)
    reached = reached_from(graph, ROOMS)
    assert {f"{ROOMS}.runner", "lifearena.web.store", "lifearena.web.live"} <= reached
    assert "lifearena.web.app" not in reached
    assert not framework_imports(reached), (
        "the rooms import a web framework through:\n"
        + "\n".join(sorted(framework_imports(reached))))
    # and the check sees one: the routes' module imports FastAPI
    assert any(found.endswith("-> fastapi") for found in framework_imports({"lifearena.web.app"}))
