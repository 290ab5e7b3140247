"""Golly @RULE/@TABLE files both ways, held to Golly's own RuleLoader."""

from __future__ import annotations

import numpy as np
import pytest

from lifearena.errors import RuleError
from lifearena.life.golly_rules import read_golly_rule, to_golly_rule
from lifearena.life.lookup_rule import LookupRule, as_any_rule
from lifearena.life.rules import Rule
from lifearena.life.step import evolve

from .conftest import PATTERNS, bgolly_run, crop, needs_bgolly

LIFE_BY_VARIABLES = """@RULE LifeTable
@TABLE
n_states:2
neighborhood:Moore
symmetries:{symmetry}
var a={{0,1}}
var b={{a}}
var c={{0,1}}
var d={{0,1}}
var e={{0,1}}
var f={{0,1}}
var g={{0,1}}
var h={{0,1}}
var i={{0,1}}
0,1,1,1,0,0,0,0,0,1
1,1,1,0,0,0,0,0,0,1
1,1,1,1,0,0,0,0,0,1
1,b,c,d,e,f,g,h,i,0
"""


@pytest.mark.parametrize("symmetry", ["permute"])
def test_a_count_based_table_is_a_plain_rule(symmetry: str) -> None:
    rule = read_golly_rule(LIFE_BY_VARIABLES.format(symmetry=symmetry))
    assert isinstance(rule, Rule) and rule == Rule.named("life") and rule.name == "LifeTable"


def test_rotations_and_reflections_give_the_orbit_of_a_transition() -> None:
    base = "@RULE T\n@TABLE\nn_states:2\nneighborhood:Moore\nsymmetries:{}\n0,1,1,0,0,0,0,0,0,1\n"
    births = {}
    for symmetry in ("none", "rotate4", "rotate8", "reflect_horizontal", "rotate4reflect",
                     "rotate8reflect"):
        rule = read_golly_rule(base.format(symmetry))
        assert isinstance(rule, LookupRule)
        cells = np.zeros((3, 3), dtype=np.int8)
        born = 0
        for a, b in [((0, 1), (0, 2)), ((1, 2), (2, 2)), ((0, 1), (0, 0)), ((0, 0), (1, 0))]:
            cells[:] = 0
            cells[a] = cells[b] = 1
            born = born * 2 + int(evolve(cells, rule, 1)[1, 1])
        births[symmetry] = born
    # N+NE itself, E+SE (a quarter turn), N+NW (its mirror image, or an eighth turn back),
    # NW+W (three quarter turns)
    assert births == {"none": 0b1000, "rotate4": 0b1101, "rotate8": 0b1111,
                      "reflect_horizontal": 0b1010, "rotate4reflect": 0b1111,
                      "rotate8reflect": 0b1111}


@pytest.mark.parametrize("rule", ["immigration", "life", "B36/S23", "p2life-no-coin",
                                  "B2-a/S12"])
def test_written_tables_read_back_as_the_same_rule(rule: str) -> None:
    original = as_any_rule(rule)
    again = read_golly_rule(to_golly_rule(original))
    assert type(again) is type(original)
    assert again == original


def test_random_lookup_rules_round_trip() -> None:
    table = np.random.default_rng(3).integers(0, 3, 3 ** 9).astype(np.int8)
    rule = LookupRule("random", table)
    assert read_golly_rule(to_golly_rule(rule)) == rule


@pytest.mark.parametrize(("text", "message"), [
    ("@RULE A\n@TABLE\nn_states:3\nneighborhood:vonNeumann\nsymmetries:none\n",
     "neighborhood:vonNeumann at line 4 of rule file is not supported; expected Moore"),
    ("@RULE A\n@TABLE\nn_states:4\nneighborhood:Moore\nsymmetries:none\n",
     "n_states:4 at line 3 of rule file is not supported; expected 2 or 3 states"),
    ("@RULE A\n@TABLE\nn_states:2\nneighborhood:hexagonal\n", "neighborhood:hexagonal"),
    ("@RULE A\n@TREE\nnum_states=2\n", "holds a @TREE"),
    ("@RULE A\n@TABLE\nn_states:2\nneighborhood:Moore\nsymmetries:rotate6\n",
     "symmetries:rotate6 at line 5 of rule file is unknown"),
    ("@RULE A\n@TABLE\nn_states:2\nneighborhood:Moore\nsymmetries:none\n0,1,1\n",
     "bad transition '0,1,1' at line 6"),
    ("@RULE A\n@TABLE\nn_states:2\nneighborhood:Moore\nsymmetries:none\n0,1,1,1,0,0,0,0,0,z\n",
     "unknown variable 'z'"),
    ("@TABLE\nn_states:2\n", "no '@RULE NAME' line"),
])
def test_unsupported_tables_are_named_in_one_line(text: str, message: str) -> None:
    with pytest.raises(RuleError, match=message) as error:
        read_golly_rule(text)
    assert "\n" not in str(error.value)


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from lifearena.cli import main

    with pytest.raises(SystemExit) as stop:
        main(list(argv))
        raise SystemExit(0)
    out, err = capsys.readouterr()
    return int(stop.value.code or 0), out, err


def test_life_rules_golly_writes_a_rule_file_and_refuses_coins(tmp_path, capsys) -> None:
    code, _, err = _cli(capsys, "life", "rules", "--golly", "p2life")
    assert code == 2
    assert err.strip().count("\n") == 0 and "a coin is not a rule table" in err
    out = tmp_path / "Immigration.rule"
    code, _, err = _cli(capsys, "life", "rules", "--golly", "immigration", "-o", str(out))
    assert code == 0, err
    assert out.read_text().startswith("@RULE Immigration\n")
    assert read_golly_rule(out.read_text()) == Rule.named("immigration")
    code, _, err = _cli(capsys, "life", "rules", "--golly", "immigration", "-o",
                        str(tmp_path / "x.txt"))
    assert code == 2 and "expected a name ending in .rule" in err


@needs_bgolly
@pytest.mark.parametrize("rule", ["immigration", "B2-a/S12", "p2life-no-coin"])
def test_golly_runs_the_written_table_as_the_engine_does(rule: str, tmp_path) -> None:
    the_rule = as_any_rule(rule)
    text = to_golly_rule(the_rule)
    name = text.split("\n", 1)[0].removeprefix("@RULE ")
    (tmp_path / f"{name}.rule").write_text(text)
    cells = np.random.default_rng(7).integers(0, 3, (24, 24)).astype(np.int8)
    cells[np.random.default_rng(8).random(cells.shape) < 0.5] = 0
    from lifearena.life.patterns import write_rle

    path = tmp_path / "soup.rle"
    path.write_text(f"x = 24, y = 24, rule = {name}\n" + write_rle(cells).split("\n", 1)[1])
    generations = 12
    ours = evolve(np.pad(cells, generations + 1), the_rule, generations)
    assert np.array_equal(crop(ours), crop(bgolly_run(path, generations, tmp_path,
                                                      rule_dir=tmp_path)))


@needs_bgolly
def test_a_golly_moore_table_runs_as_golly_runs_it(tmp_path) -> None:
    source = PATTERNS.parent / "Rules" / "Banks-III.rule"
    rule = as_any_rule(str(source))
    assert isinstance(rule, LookupRule) and rule.name == "Banks-III"
    cells = (np.random.default_rng(1).random((20, 20)) < 0.5).astype(np.int8)
    from lifearena.life.patterns import write_rle

    path = tmp_path / "soup.rle"
    path.write_text(write_rle(cells, rule="Banks-III"))
    ours = evolve(np.pad(cells, 12), rule, 10)
    assert np.array_equal(crop(ours), crop(bgolly_run(path, 10, tmp_path,
                                                      rule_dir=source.parent)))


def test_a_golly_rule_file_is_a_rule_where_rules_are_read(tmp_path) -> None:
    path = tmp_path / "Immigration.rule"
    path.write_text(to_golly_rule(Rule.named("immigration"), "Immigration"))
    assert Rule.from_string(f"@{path}") == Rule.named("immigration")
    assert as_any_rule(str(path)) == Rule.named("immigration")
    lookup = tmp_path / "Hensel.rule"
    lookup.write_text(to_golly_rule(as_any_rule("B2-a/S12"), "Hensel"))
    with pytest.raises(RuleError, match="Golly rule Hensel in .* is not a function of "
                                        "neighbour counts"):
        Rule.from_string(f"@{lookup}")


@needs_bgolly
@pytest.mark.parametrize("symmetry", ["none", "rotate4", "rotate8", "reflect_horizontal",
                                      "rotate4reflect", "rotate8reflect", "permute"])
def test_symmetries_match_golly_s(symmetry: str, tmp_path) -> None:
    """A three-state table with a variable and a lopsided transition, run by Golly's
    RuleLoader and by the engine on every two-neighbour configuration of both colours."""
    name = f"Sym{symmetry.replace('_', '')}"
    (tmp_path / f"{name}.rule").write_text(
        f"@RULE {name}\n@TABLE\nn_states:3\nneighborhood:Moore\nsymmetries:{symmetry}\n"
        "var a={1,2}\n0,1,2,0,0,0,0,0,0,1\n0,a,0,a,0,0,0,0,0,2\n")
    rule = as_any_rule(str(tmp_path / f"{name}.rule"))
    spacing = 5
    pairs = [(i, j, ci, cj) for i in range(8) for j in range(8) if i != j
             for ci in (1, 2) for cj in (1, 2)]
    cells = np.zeros((spacing * 16, spacing * ((len(pairs) + 15) // 16)), dtype=np.int8)
    offsets = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
    for k, (i, j, ci, cj) in enumerate(pairs):
        cy, cx = (k % 16) * spacing + 2, (k // 16) * spacing + 2
        cells[cy + offsets[i][0], cx + offsets[i][1]] = ci
        cells[cy + offsets[j][0], cx + offsets[j][1]] = cj
    from lifearena.life.patterns import write_rle

    path = tmp_path / "pairs.rle"
    path.write_text(f"x = {cells.shape[1]}, y = {cells.shape[0]}, rule = {name}\n"
                    + write_rle(cells).split("\n", 1)[1])
    ours = evolve(np.pad(cells, 2), rule, 1)
    assert np.array_equal(crop(ours), crop(bgolly_run(path, 1, tmp_path, rule_dir=tmp_path)))
