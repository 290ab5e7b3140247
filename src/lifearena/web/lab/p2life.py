"""The p2life study page: mean-field curves and a results file's asymptotic densities.

* ``GET /lab/p2life``: the page (SVG drawn from the JSON below).
* ``GET /api/lab/p2life/meanfield?rule=&colours=``: the exact one-step density polynomial of
  a rule (:func:`lifearena.studies.p2life.mean_field`), sampled at 201 points, with its
  maximum and fixed points; Life's one-colour curve comes along for comparison, as in the
  paper's figure.
* ``GET /api/lab/p2life/results``: the p2life results files; ``GET
  /api/lab/p2life/results/{id}``: their per-point summaries
  (:func:`lifearena.studies.p2life_density.summarise`: mean density and standard error).
* The paper's figures (:data:`PAPER`) are sent with them, for the page to draw beside ours,
  and the report's table of claims (:func:`claims_of`): for each claim of the paper, its
  figure, ours from the file and the verdict, computed by
  :func:`lifearena.studies.p2life_report.claims` exactly as ``lifearena p2life report``
  writes it.

The curves and the summaries are computed by :func:`meanfield_json` and
:func:`summaries_json` in the app's slow-work pool, never on the event loop.

>>> curve("life", 1)["maximum"]
[0.364, 0.3704]
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, Response

from lifearena.errors import BadParameterError
from lifearena.studies.p2life import mean_field
from lifearena.studies.p2life_density import summarise
from lifearena.studies.p2life_report import claims, split_runs
from lifearena.web.lab.common import STATIC_LAB, slow
from lifearena.web.lab.models import MAX_RULE
from lifearena.web.lab.results import ResultsFile, ResultsFiles, p2life_rows
from lifearena.web.lab.sandbox import parse_rule

POINTS = 200
PAPER = {
    "source": "Levene and Roussos, Int. J. Mod. Phys. C 14(2), 2003 (arXiv cond-mat/0207679)",
    "asymptotic": 0.0362, "life": 0.0287, "ratio_above_half": 0.69,
    "claims": [
        "the asymptotic density approaches 0.0362",
        "it is non-zero for every non-zero initial density p (unlike Life)",
        "it peaks at a moderate p and stays flat up to p = 1",
        "periodic boundaries give about 5% more than cutoff ones",
        "lattice size barely matters",
        "one-player Life calibrates at about 0.0287",
        "over 69% of runs end with loser/winner ratio above 0.5",
    ],
}


def curve(rule: str, colours: int) -> dict[str, Any]:
    """The mean-field polynomial of ``rule`` under a colour model, sampled for drawing."""
    if colours not in (1, 2):
        raise BadParameterError(f"colours={colours}; expected 1 (one-colour soup) or 2")
    parsed = parse_rule(rule)
    poly = mean_field(parsed, colours=colours)
    p_max, rho_max = poly.maximum()
    return {"rule": parsed.name, "colours": colours, "polynomial": str(poly),
            "points": [[i / POINTS, round(float(poly(i / POINTS)), 6)]
                       for i in range(POINTS + 1)],
            "maximum": [round(float(p_max), 4), round(float(rho_max), 4)],
            "fixed_points": [round(float(x), 4) for x in poly.fixed_points()],
            "at_one": round(float(poly(1.0)), 6)}


def life_file(results: ResultsFiles | Iterable[ResultsFile], chosen: ResultsFile
              ) -> ResultsFile | None:
    """The Life calibration's file of a report's results file, when the server was given it
    too: ``lifearena p2life report`` keeps those runs beside its results file, named like it
    with ``-life`` added (``p2life-results-life.sqlite``)."""
    name = f"{chosen.path.stem}-life{chosen.path.suffix}"
    files = results.files.values() if isinstance(results, ResultsFiles) else results
    return next((f for f in files
                 if f.kind == "p2life" and f.path.name == name and f.id != chosen.id), None)


def claims_of(results: ResultsFiles | Iterable[ResultsFile], chosen: ResultsFile
              ) -> dict[str, Any]:
    """The report's comparison with the paper for the runs of ``chosen`` (and of its Life
    calibration file, when given): rows of claim, paper, ours and comment."""
    rows = p2life_rows(chosen)
    life = life_file(results, chosen)
    runs, spec = split_runs(rows, p2life_rows(life) if life is not None else ())
    found = {name: len(found) for name, found in runs.items()}
    if spec is None:
        return {"rows": [], "runs": found, "life_file": life.id if life else None,
                "note": "no p2life runs in this file: the report compares p2life runs"}
    return {"rows": [{"claim": claim, "paper": paper, "ours": ours, "comment": comment}
                     for claim, paper, ours, comment in claims(runs, spec)],
            "runs": found, "life_file": life.id if life else None,
            "sizes": [f"{h}x{w}" for h, w in spec.sizes], "ps": list(spec.ps), "note": ""}


def _number(value: float | None) -> float | None:
    return None if value is None or math.isnan(value) else value


def meanfield_json(rule: str, colours: int) -> dict[str, Any]:
    """The page's curves: ``rule``'s under the colour model, and Life's one-colour curve."""
    return {"curve": curve(rule, colours), "life": curve("life", 1), "paper": PAPER}


def summaries_json(files: list[tuple[str, str, str]], file_id: str) -> dict[str, Any]:
    """The per-point summaries and the claims of the p2life file ``file_id`` among the
    server's ``files`` (id, path, kind): slow work, run in a worker."""
    known = [ResultsFile(i, Path(path), kind) for i, path, kind in files]
    chosen = next(f for f in known if f.id == file_id)
    rows = p2life_rows(chosen)
    return {"id": file_id, "runs": len(rows), "paper": PAPER,
            "claims": claims_of(known, chosen), "points": [
        {"rule": s.rule, "boundary": s.boundary, "size": f"{s.height}x{s.width}",
         "p": s.p, "runs": s.runs, "density": s.density, "se": _number(s.density_se),
         "capped": s.capped, "generations": s.generations,
         "ratio_above_half": s.ratio_above_half}
        for s in summarise(rows)]}


def router_for(results: ResultsFiles) -> APIRouter:
    """The page's routes over the server's results files."""
    router = APIRouter()

    @router.get("/lab/p2life", include_in_schema=False)
    async def page() -> Response:
        return FileResponse(STATIC_LAB / "p2life.html")

    @router.get("/api/lab/p2life/meanfield")
    async def meanfield(request: Request,
                        rule: Annotated[str, Query(max_length=MAX_RULE)] = "p2life",
                        colours: Annotated[int, Query(ge=1, le=2)] = 2) -> dict[str, Any]:
        return await slow(request, meanfield_json, rule, colours)

    @router.get("/api/lab/p2life/results")
    async def files() -> dict[str, Any]:
        return {"files": [f for f in results.describe() if f["kind"] == "p2life"]}

    @router.get("/api/lab/p2life/results/{file_id}")
    async def summaries(request: Request, file_id: str) -> dict[str, Any]:
        results.get(file_id, "p2life")  # an unknown id is a 404 before any work
        known = [(f.id, str(f.path), f.kind) for f in results.files.values()]
        return await slow(request, summaries_json, known, file_id)

    return router
