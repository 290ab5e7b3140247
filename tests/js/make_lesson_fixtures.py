"""Write tests/js/fixtures/lessons.json: what the lessons' API answers (a lesson, and a few
answers to moves), for the Learn pages' unit tests. Run it after a change to a lesson or to
what the API sends: ``python tests/js/make_lesson_fixtures.py``
(tests/web/test_lessons_api.py fails while the stored file differs)."""

from __future__ import annotations

import json
from pathlib import Path

from lifearena.web.lessons_routes import lesson_view, move_answer

OUT = Path(__file__).resolve().parent / "fixtures" / "lessons.json"


def render() -> str:
    """The fixture's text."""
    data = {
        "war_of_life": lesson_view("war_of_life"),
        "blocking_queen": lesson_view("blocking_queen"),
        "answers": {
            "born": move_answer("war_of_life", 1, ("[5,6,4,5]",)),
            "missed": move_answer("war_of_life", 1, ("[5,6,6,7]",)),
            "last": move_answer("war_of_life", 5, ("[5,7,6,6]",)),
            "queen_moved": move_answer("blocking_queen", 2, ("1,0",)),
            "collision": move_answer("life_for_two", 2, ("1,4",)),
        },
    }
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


if __name__ == "__main__":
    OUT.write_text(render())
    print(f"wrote {OUT}")
