"""The analysis of finished games: every position of a record judged by its game's
strongest search at a fixed budget (or exactly, where a solver exists), every played move
marked by what it lost. See ``docs/analysis.md``.

>>> from lifearena.core import Record
>>> analyse(Record("blocking_queen", {"k": 1}, "2,1", ["a", "b"], ["1,0"])).plies[0].eval
-1.0
"""

from lifearena.analysis.analyse import MAX_PLIES, analyse, analyse_position, judge
from lifearena.analysis.model import Analysis, PlyAnalysis, SideSummary
from lifearena.analysis.scale import BLUNDER, INACCURACY, MISTAKE, mark_of
from lifearena.analysis.verdict import SideVerdict, Verdict

__all__ = ["BLUNDER", "INACCURACY", "MAX_PLIES", "MISTAKE", "Analysis", "PlyAnalysis",
           "SideSummary", "SideVerdict", "Verdict", "analyse", "analyse_position", "judge",
           "mark_of"]
