"""DesignExplorer, headless: set .value on controls, click the button, read what it shows."""

import matplotlib

matplotlib.use("Agg")

import ipywidgets as widgets  # noqa: E402
import pytest  # noqa: E402

from chutes_edu import MILTON_BRADLEY_1943, Board, expected_turns  # noqa: E402
from chutes_edu.design import ShortestGame, TargetLength, design_board  # noqa: E402
from chutes_edu.widgets import DesignExplorer  # noqa: E402

PNG = b"\x89PNG"
FUNNEL = Board({5: 3}, size=9, die=2)


@pytest.fixture
def small():
    return DesignExplorer(FUNNEL)


def test_defaults_show_the_board_and_no_design():
    ex = DesignExplorer()
    assert isinstance(ex, widgets.VBox)
    assert ex.design is None and ex.message.value == "" and ex.readout.value == ""
    assert (ex.goal.value, ex.parameter.value, ex.max_jumps.value, ex.method.value) == \
        ("target", 25.0, 2, "auto")
    assert bytes(ex.board_image.value).startswith(PNG)


def test_the_button_runs_the_library_search(small):
    small.goal.value = "short"
    assert small.parameter.disabled and small.tolerance.disabled
    small.method.value = "exhaustive"
    small.run.click()
    expected = design_board(FUNNEL, ShortestGame(), max_jumps=2, method="exhaustive")
    assert small.design is not None and small.design.added == expected.added
    assert "1->9, 2->9" in small.readout.value
    assert "proven optimal" in small.readout.value
    assert small.steps.value.count("<li>") == len(expected.steps)
    assert bytes(small.comparison_image.value).startswith(PNG)
    assert small.message.value == ""


def test_greedy_shows_its_steps_and_says_it_is_a_heuristic(small):
    small.goal.value = "short"
    small.method.value = "greedy"
    small.run.click()
    assert "add 4->9: expected turns 3.5000" in small.steps.value
    assert "add 1->9: expected turns 2.0000" in small.steps.value
    assert "heuristic" in small.readout.value


def test_goal_parameters_are_wired(small):
    small.goal.value = "spread"
    assert not small.tolerance.disabled
    assert small.parameter.value == pytest.approx(float(expected_turns(FUNNEL)[0]), abs=0.01)
    small.goal.value = "race"
    assert small.parameter.description == "seats" and small.parameter.value == 2
    small.max_jumps.value = 1
    small.run.click()
    assert small.design is not None and small.design.goal.seats == 2
    small.goal.value = "target"
    small.parameter.value = 3.0
    small.run.click()
    assert small.design.goal == TargetLength(3.0)


@pytest.mark.parametrize("goal, value, text", [
    ("target", -5.0, "-5"),
    ("race", 7.0, "7"),
    ("race", 2.5, "2.5"),
])
def test_invalid_input_is_a_one_line_message(small, goal, value, text):
    small.goal.value = "short"
    small.run.click()
    before = small.design
    small.goal.value = goal
    small.parameter.value = value
    small.run.click()
    assert text in small.message.value and "Traceback" not in small.message.value
    assert "\n" not in small.last_error
    assert small.design is before                       # the last design stays


def test_too_big_an_exhaustive_search_is_refused_in_the_message():
    ex = DesignExplorer(MILTON_BRADLEY_1943)
    ex.goal.value = "long"
    ex.max_jumps.value = 3                 # two added jumps on 100 squares take seconds: allowed
    ex.method.value = "exhaustive"
    ex.run.click()
    assert "greedy" in ex.message.value and "hour" in ex.message.value and ex.design is None


def test_both_pictures_say_what_they_show_before_and_after_a_design() -> None:
    explorer = DesignExplorer()
    for image in (explorer.board_image, explorer.comparison_image):
        assert image.value and image.alt        # never an empty picture without words
    before = explorer.comparison_image.alt
    explorer.run.click()
    assert explorer.comparison_image.alt and explorer.comparison_image.alt != before
