"""Every game's rules card (``Presentation.rules``): its three sections, the rule of Life it
names (birth and survival where the game has them, p2life's coin), a picture whose births
and deaths are one generation of the engine, and words that follow the game's parameters."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from lifearena.core import RULES_TITLES, RulesCard, State, get_game, presentation_of
from lifearena.games._display import changed_cells
from lifearena.life.rules import Rule
from lifearena.life.step import step

GAMES = ("war_of_life", "life_for_two", "losat", "p2life", "blocking_queen")
LIFE_GAMES = ("war_of_life", "life_for_two", "losat", "p2life")


def card_of(game: str, **params: Any) -> RulesCard:
    state = get_game(game, **params).new_initial_state()
    return presentation_of(state).rules(state)


def start_of(game: str, **params: Any) -> State:
    return get_game(game, **params).new_initial_state()


@pytest.mark.parametrize(("game", "params"), [*((g, {}) for g in GAMES),
                                              ("life_for_two", {"rules": "classic"})])
def test_every_card_has_its_three_sections_a_picture_and_a_lesson(game: str,
                                                                  params: dict) -> None:
    card = card_of(game, **params)
    shown = card.to_dict()
    assert [s["title"] for s in shown["sections"]] == list(RULES_TITLES)
    assert all(len(s["text"]) > 40 and "\n" not in s["text"] for s in shown["sections"])
    assert shown["game"] == game and shown["lesson"] == f"/learn/{game}"
    assert shown["picture"] and shown["caption"] and "\n" not in shown["caption"]
    assert shown["name"] in card.to_text().splitlines()[0]


@pytest.mark.parametrize("game", LIFE_GAMES)
def test_the_life_rule_names_birth_and_survival(game: str) -> None:
    life = card_of(game).life
    assert "Birth" in life and "Survival" in life
    assert ("B3/S23" in life) == (game != "p2life")  # p2life's rule is its own


def test_the_queen_game_says_it_is_not_life_and_how_blocks_work() -> None:
    card = card_of("blocking_queen", k=4)
    assert "not Life" in card.life and "Wythoff" in card.life and "k = 4" in card.life
    assert "block up to 3" in card.move and "next move only" in card.move
    assert "no blocks" in card_of("blocking_queen", k=1).move


def test_p2life_names_survival_and_the_coin_and_its_parameters() -> None:
    card = card_of("p2life", seed=17)
    assert "survives" in card.life and "outnumber" in card.life
    assert "coin" in card.life and "3 of each" in card.life and "seed, 17" in card.life
    assert "wrap" in card.life and "every turn" in card.move
    variant = card_of("p2life", seed=17, torus=False, moves=3, max_generations=9)
    assert "permanently empty" in variant.life and "wrap" not in variant.life
    assert "every 3 turns" in variant.move and "After 9 generations" in variant.win
    assert variant.life != card.life and variant.move != card.move
    # the picture's example touches the top edge: a torus wraps a birth to the bottom row
    assert [5, 2] in card.picture["births"] and [5, 2] not in variant.picture["births"]
    assert "wrap" in card.caption and "off the board" in variant.caption


def test_losat_and_life_for_two_follow_their_parameters() -> None:
    plain, varied = card_of("losat"), card_of("losat", neighbours=4, own_colour_only=True,
                                               capture_or_more=True, captures_to_win=3,
                                               first="w", length=13, width=9)
    assert "8 surrounding points" in plain.move and "4 points beside it" in varied.move
    assert "either colour" in plain.move and "only stones of your own colour" in varied.move
    assert "exactly 3 neighbours of the other" in plain.move
    assert "3 or more neighbours of the other" in varied.move
    assert "5 captures" in plain.win and "3 captures" in varied.win
    assert "row 14 for Black, row 6 for White" in plain.win
    assert "White moves first" in varied.move and "seen before" in varied.move
    assert "no move limit" in card_of("life_for_two").win
    assert "After 12 turns an undecided game goes to the player with more pieces" in card_of(
        "life_for_two", max_turns=12, limit_result="population").win


def test_war_of_life_names_its_endings() -> None:
    win = card_of("war_of_life").win
    assert "no pieces left loses" in win and "draw" in win and "250 moves" in win
    assert "stalemate" in win


def generation(before: np.ndarray, game: str, state: State) -> np.ndarray:
    """One generation of ``before`` by the engine, under the rule and edges ``game`` runs."""
    if game == "p2life":
        return step(before, Rule.named("p2life"), torus=state.params["torus"],
                    seed=state.params["seed"], generation=0)
    return step(before, Rule.named("immigration"), torus=False)


@pytest.mark.parametrize(("game", "params"), [
    ("war_of_life", {}), ("life_for_two", {}), ("p2life", {}),
    ("p2life", {"torus": False, "seed": 5}), ("p2life", {"moves": 3})])
def test_the_picture_is_one_generation_of_the_engine(game: str, params: dict) -> None:
    state = start_of(game, **params)
    picture = presentation_of(state).rules(state).picture
    before = np.array(picture["before"], dtype=np.int8)
    after = generation(before, game, state)
    assert np.array_equal(after, np.array(picture["grid"]["cells"]))
    births, deaths = changed_cells(before, after)
    assert (picture["births"], picture["deaths"]) == (births, deaths)
    assert births and deaths  # the example shows both


@pytest.mark.parametrize("neighbours", [8, 4])
def test_losats_picture_is_one_change_that_lifes_generation_makes(neighbours: int) -> None:
    state = start_of("losat", neighbours=neighbours)
    picture = presentation_of(state).rules(state).picture
    before = np.array(picture["before"], dtype=np.int8)
    (row, col), = picture["births"]
    colour = picture["grid"]["cells"][row][col]
    assert before[row, col] == 0 and picture["deaths"] == []
    # the same point is born in a generation of Life on that colour's stones alone
    alone = step((before == colour).astype(np.int8), Rule.named("life"), torus=False)
    assert alone[row, col] == 1
