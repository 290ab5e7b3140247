"""The p2life report's table of claims: a claim the results file has no runs for is "not
measured", never "agrees"."""

from __future__ import annotations

import pytest

from lifearena.studies.p2life_density import RunRow
from lifearena.studies.p2life_report import NO_RUNS, NOT_MEASURED, claims, split_runs


def _runs(sizes: list[int], ps: list[float], boundaries: tuple[str, ...] = ("torus", "bounded"),
          n: int = 4) -> list[RunRow]:
    """Made-up finished p2life runs, every one ending near the paper's density 0.0362."""
    rows = []
    for side in sizes:
        for boundary in boundaries:
            for p in ps:
                for run in range(n):
                    live = round(0.0362 * side * side) + run % 2
                    rows.append(RunRow("p2life", boundary, side, side, p, run, run, 300, 40,
                                       "cycle", 1, live // 2, live - live // 2, 0.01))
    return rows


def _verdicts(rows: list[RunRow]) -> dict[str, tuple[str, str]]:
    runs, spec = split_runs(rows)
    assert spec is not None
    table = claims(runs, spec)
    # every claim has its row, measured or not (the asymptotic density once per boundary)
    assert len(table) == 8
    return {claim: (ours, comment) for claim, _, ours, comment in table}


@pytest.mark.parametrize(("rows", "unmeasured"), [
    # one lattice size: no second size to compare; no run at p = 1
    (_runs([16], [0.3, 0.6]), {"lattice size barely matters",
                               "maximum at moderate p, flat to p = 1",
                               "Life calibration", "runs with loser/winner ratio > 0.5"}),
    # runs at p = 1 only: nothing at a moderate p to compare it with
    (_runs([16, 24], [1.0], ("torus",)), {"maximum at moderate p, flat to p = 1",
                                          "asymptotic density approaches (bounded)",
                                          "periodic over cutoff", "Life calibration"}),
])
def test_a_claim_without_runs_that_test_it_is_not_measured(
        rows: list[RunRow], unmeasured: set[str]) -> None:
    verdicts = _verdicts(rows)
    said = {claim for claim, (_, comment) in verdicts.items()
            if comment.startswith(f"{NOT_MEASURED}: ")}
    assert said == unmeasured
    for claim in unmeasured:
        ours, comment = verdicts[claim]
        assert ours == NO_RUNS and not comment.startswith("agrees"), claim
    _, size_comment = verdicts["lattice size barely matters"]
    if "lattice size barely matters" in unmeasured:
        assert "one torus size only (16x16)" in size_comment


def test_claims_with_their_runs_are_compared() -> None:
    verdicts = _verdicts(_runs([16, 24], [0.25, 0.5, 0.75, 1.0]))
    for claim in ("lattice size barely matters", "maximum at moderate p, flat to p = 1",
                  "asymptotic density approaches (torus)", "runs with loser/winner ratio > 0.5"):
        ours, comment = verdicts[claim]
        assert ours != NO_RUNS and comment.startswith(("agrees", "differs")), (claim, comment)
    assert verdicts["Life calibration"][1].startswith(NOT_MEASURED)
