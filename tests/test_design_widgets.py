"""DesignExplorer, headless: the settings as synced traits, checked; the Design button; the
library's design for the last press (the page's search is tested in
tests/test_design_explorer_browser.py and tests/js/design_math.test.mjs)."""

import anywidget
import pytest
import traitlets

from chutes_edu import MILTON_BRADLEY_1943, Board, expected_turns
from chutes_edu.board import board_to_json
from chutes_edu.design import LongestGame, ShortestGame, TargetLength, design_board
from chutes_edu.widgets import DesignExplorer

FUNNEL = Board({5: 3}, size=9, die=2)


@pytest.fixture
def small():
    return DesignExplorer(FUNNEL)


def test_defaults_share_the_board_and_no_design():
    ex = DesignExplorer()
    assert isinstance(ex, anywidget.AnyWidget)
    assert ex.design is None and ex.message.value == "" and ex.readout.value == ""
    assert (ex.goal.value, ex.parameter.value, ex.max_jumps.value, ex.method.value) == \
        ("target", 25.0, 2, "local search")
    state = ex.get_state()
    assert state["board_json"] == board_to_json(MILTON_BRADLEY_1943) and state["runs"] == 0
    assert (ex.max_jumps.min, ex.max_jumps.max) == (1, 4)
    assert ex.method.options == ["greedy", "local search"]


def test_the_button_counts_and_python_reads_the_library_design(small):
    small.goal.value = "short"
    assert small.parameter.disabled and small.tolerance.disabled
    small.method.value = "local search"
    small.run.click()
    assert small.runs == 1
    expected = design_board(FUNNEL, ShortestGame(), max_jumps=2, method="local search")
    assert small.design is not None and small.design.added == expected.added == ((1, 9), (2, 9))
    assert "1->9, 2->9" in small.readout.value and "heuristic" in small.readout.value
    assert small.steps.value.count("<li>") == len(expected.steps)
    assert small.message.value == ""


def test_a_press_in_the_page_is_read_back_through_the_library(small):
    small.set_state({"goal_kind": "long", "most_jumps": 1, "search_method": "greedy", "runs": 3})
    expected = design_board(FUNNEL, LongestGame(), max_jumps=1, method="greedy")
    assert small.design is not None and small.design.added == expected.added


def test_greedy_shows_its_steps(small):
    small.goal.value = "short"
    small.method.value = "greedy"
    small.run.click()
    assert "add 4->9: expected turns 3.5000" in small.steps.value
    assert "add 1->9: expected turns 2.0000" in small.steps.value


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


@pytest.mark.parametrize("trait, value, words", [
    ("search_method", "exhaustive", "design_board runs the others"),
    ("most_jumps", 5, "1 to 4 jumps"),
    ("goal_kind", "fastest", "goal must be one of"),
    ("goal_parameter", float("nan"), "finite"),
])
def test_settings_the_page_cannot_take_are_refused(small, trait, value, words):
    with pytest.raises(traitlets.TraitError, match=words):
        setattr(small, trait, value)
    assert words in small.last_error


def test_the_board_is_fixed(small):
    with pytest.raises(traitlets.TraitError, match="set when it is made"):
        small.board_json = board_to_json(MILTON_BRADLEY_1943)
