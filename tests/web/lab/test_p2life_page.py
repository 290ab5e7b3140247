"""The p2life study: mean-field curves, a results file's densities, the page in a browser."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lifearena.errors import BadParameterError
from lifearena.studies.p2life import mean_field
from lifearena.studies.p2life_density import Store, SweepSpec, summarise, sweep
from lifearena.web import Settings

from .conftest import make_app, serving, until


@pytest.fixture(scope="module")
def sweep_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("p2life") / "sweep.sqlite"
    spec = SweepSpec(rules=("p2life",), ps=(0.3, 0.6), sizes=((16, 16),),
                     boundaries=("torus", "bounded"), runs=3, max_generations=300)
    sweep(spec, path, workers=1)
    return path


@pytest.fixture
def study(tmp_path: Path, sweep_file: Path) -> Iterator[TestClient]:
    app = make_app(Settings(tmp_path / "games.sqlite", agent_workers="thread",
                              results=(sweep_file,)))
    with TestClient(app, base_url="http://localhost") as client:
        yield client


def test_the_mean_field_curve_is_the_studys_polynomial(study: TestClient) -> None:
    data = study.get("/api/lab/p2life/meanfield", params={"rule": "p2life"}).json()
    poly = mean_field("p2life")
    assert data["curve"]["polynomial"] == str(poly)
    assert data["curve"]["points"][100] == [0.5, round(float(poly(0.5)), 6)]
    assert data["curve"]["maximum"] == [round(float(v), 4) for v in poly.maximum()]
    assert data["life"]["rule"] == "life" and data["paper"]["asymptotic"] == 0.0362
    typed = study.get("/api/lab/p2life/meanfield", params={"rule": "B36/S23", "colours": 1})
    assert typed.json()["curve"]["rule"] == "B36/S23"
    bad = study.get("/api/lab/p2life/meanfield", params={"colours": 3})
    assert bad.status_code == 400
    assert "colours: Input should be less than or equal to 2" in bad.json()["error"]


def test_the_results_file_summaries_are_the_studys(study: TestClient, sweep_file: Path) -> None:
    assert study.get("/api/lab/p2life/results").json()["files"] == [
        {"id": "1", "name": "sweep.sqlite", "kind": "p2life"}]
    data = study.get("/api/lab/p2life/results/1").json()
    with Store(sweep_file) as store:
        want = summarise(store.rows())
    assert data["runs"] == 12
    assert [(q["boundary"], q["p"], q["runs"], q["density"]) for q in data["points"]] == [
        (s.boundary, s.p, s.runs, s.density) for s in want]
    missing = study.get("/api/lab/p2life/results/7")
    assert missing.status_code == 404 and "id '7'" in missing.json()["error"]


def test_a_claim_the_file_has_no_runs_for_is_not_measured(study: TestClient) -> None:
    # the file holds one lattice size (16x16) and p = 0.3, 0.6: nothing compares sizes, and
    # nothing was run at p = 1
    rows = {r["claim"]: r for r in
            study.get("/api/lab/p2life/results/1").json()["claims"]["rows"]}
    for claim in ("lattice size barely matters", "maximum at moderate p, flat to p = 1"):
        assert rows[claim]["ours"] == "no runs", rows[claim]
        assert rows[claim]["comment"].startswith("not measured: "), rows[claim]
    assert "one torus size only (16x16)" in rows["lattice size barely matters"]["comment"]
    assert "no p2life runs at p = 1" in rows["maximum at moderate p, flat to p = 1"]["comment"]


def test_a_foreign_or_missing_results_file_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("hello")
    for path, words in [(tmp_path / "nope.sqlite", "no such file"), (other, "not a SQLite")]:
        with pytest.raises(BadParameterError, match=words):
            make_app(Settings(tmp_path / "g.sqlite", results=(path,)))


def test_the_page_draws_both_charts(page: Any, tmp_path: Path, shots: Path,
                                    sweep_file: Path) -> None:
    settings = Settings(tmp_path / "games.sqlite", agent_workers="thread", results=(sweep_file,))
    with serving(settings) as url:
        page.goto(f"{url}/lab/p2life#rule=p2life&colours=2&file=1")
        page.wait_for_selector("body[data-ready='1']")
        assert page.get_attribute("#meanfield", "data-rule") == "p2life"
        assert page.locator("#meanfield .series").count() == 2
        # one series per boundary and lattice, each point with its error bar
        assert page.locator("#density .series").count() == 2
        assert page.locator("#density circle").count() == 4
        assert page.locator("#table-wrap tr").count() == 5
        # the report's table beside the charts: every claim, those without runs said so
        assert page.locator("#claims-table tr").count() == 1 + 8
        assert page.locator("#claims-table b.agrees").count() >= 1
        assert "not measured" in page.inner_text("#claims-table")
        # one lattice size and no run at p = 1: those claims are not measured, never "agrees"
        verdicts = dict(page.evaluate("""() => [...document.querySelectorAll(
            '#claims-table tr')].slice(1).map(tr => [tr.cells[0].textContent,
                                                     tr.cells[3].querySelector('b').className
                                                     + ' ' + tr.cells[3].querySelector('b')
                                                     .textContent])"""))
        for claim in ("lattice size barely matters", "maximum at moderate p, flat to p = 1",
                      "Life calibration"):
            assert verdicts[claim] == "unmeasured not measured", (claim, verdicts)
        page.screenshot(path=str(shots / "p2life-page.png"), full_page=True)
        page.select_option("#rule", "life")
        until(lambda: page.get_attribute("#meanfield", "data-rule") == "life", 120,
              "the curve of Life")


def test_the_claims_beside_the_paper_are_the_reports(tmp_path: Path) -> None:
    from lifearena.studies.p2life_report import ReportSpec, make_report

    results = tmp_path / "report.sqlite"
    spec = ReportSpec(runs=3, ps=(0.5, 1.0), sizes=((12, 12), (16, 16)),
                      max_generations=300)
    written = make_report(tmp_path / "out", spec, results=results, workers=1).read_text()
    table = written.split("## Our figures beside the paper's", 1)[1]
    rows = [[cell.strip().replace("\\|", "|") for cell in line.strip("|").split(" | ")]
            for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    assert rows[0] == ["claim", "paper", "ours", "comment"] and len(rows) == 1 + 8
    life = tmp_path / "report-life.sqlite"
    app = make_app(Settings(tmp_path / "games.sqlite", agent_workers="thread",
                              results=(results, life)))
    with TestClient(app, base_url="http://localhost") as client:
        claims = client.get("/api/lab/p2life/results/1").json()["claims"]
        alone = client.get("/api/lab/p2life/results/2").json()["claims"]
    assert claims["life_file"] == "2" and claims["runs"]["life"] == 3 * 2
    assert [[r["claim"], r["paper"], r["ours"], r["comment"]] for r in claims["rows"]] == \
        rows[1:]
    # the Life calibration's file alone holds no p2life runs to compare
    assert alone["rows"] == [] and "no p2life runs" in alone["note"]
