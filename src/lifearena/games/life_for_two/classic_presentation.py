"""How the 1978 program looks: its transcript, at a terminal and on a page.

The program has no board of its own to click: it prints, and a person types an answer after
its ``? ``. So the text of a position is the transcript printed so far (each answer echoed
after its ``? ``, as a terminal shows it), a page gets the same text to show as a terminal's
output (``{"text": ..., "terminal": true}``), and the board asks for a typed answer
(:attr:`~lifearena.core.InteractionKind.ANSWER`). Why an answer is refused is what the
program says to it: ``ILLEGAL COORDS. RETYPE``.

>>> from lifearena.games.life_for_two.classic import ClassicState
>>> state = ClassicState.from_answers(["1,1", "2,1"])
>>> shown = ClassicPresentation()
>>> shown.text(state).splitlines()[-6:]
['? 2,1', 'X,Y', 'XXXXXX', '$$$$$$', '&&&&&&', '? ']
>>> shown.explain_illegal(state, state.string_to_action("1,1"))
'ILLEGAL COORDS. RETYPE'
>>> shown.interaction(state, 0).kind, shown.interaction(state, 1).kind
(<InteractionKind.ANSWER: 'answer'>, <InteractionKind.WAIT: 'wait'>)
"""

from __future__ import annotations

from typing import Any, Protocol, cast

from lifearena.core import (
    Action,
    Interaction,
    InteractionKind,
    Look,
    Presentation,
    RulesCard,
    Side,
    State,
)
from lifearena.games.life_for_two.card import rules_card
from lifearena.games.life_for_two.classic_program import RETYPE


class _Transcribed(Protocol):
    """What this presentation reads of a :class:`~.classic.ClassicState` (named by its
    shape: the state's module imports this one, which imports nothing back)."""

    @property
    def transcript(self) -> str: ...


ANSWER_PROMPT = "answer the program with x,y below"
"""What a page asks of the player the program waits for."""


class ClassicPresentation(Presentation):
    """The 1978 program's transcript as the text and the page's picture, and a typed answer
    as the only input. Its look names the players as the program does, without symbols."""

    look = Look(sides=(Side("Player 1", "#23897e"), Side("Player 2", "#c8741f")))

    def text(self, state: State) -> str:
        """The transcript so far, each answer echoed after its ``? ``."""
        return _transcript(state)

    def display(self, state: State, player: int | None = None) -> dict[str, Any]:
        """The transcript for a page to show as a terminal's output (the same for everyone:
        the program hides nothing on its one screen)."""
        return {"text": _transcript(state), "terminal": True}

    def rules(self, state: State) -> RulesCard:
        """The 1978 program's rules on one card: its order of answers and its bug, the same
        Immigration generation, its endings (:mod:`lifearena.games.life_for_two.card`)."""
        return rules_card(state)

    def explain_illegal(self, state: State, action: Action, player: int | None = None) -> str:
        """What the program says to an answer it refuses (a cell that is not empty); the
        default's words when the game is over or another player is asked."""
        current = state.current_player()
        if current < 0 or (player is not None and player != current):
            return super().explain_illegal(state, action, player)
        return RETYPE

    def interaction(self, state: State, player: int) -> Interaction:
        """A typed answer from the player the program asks; nothing from the other."""
        if not self._to_act(state, player):
            return Interaction(InteractionKind.WAIT, "nothing to do now")
        return Interaction(InteractionKind.ANSWER, ANSWER_PROMPT)

    def choice_label(self, state: State, action: Action, player: int) -> str:
        return "answer"

    def move_prompt(self, state: State, player: int) -> str:
        return "your answer x,y to the program's ?"


def _transcript(state: State) -> str:
    return cast(_Transcribed, state).transcript
