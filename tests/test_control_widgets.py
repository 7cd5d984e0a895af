"""Headless tests of the policy widget and pictures (chutes_edu.widgets.policy_explorer, chutes_edu.plots.policy)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from chutes_edu import (  # noqa: E402
    AIMING_GAME_2021,
    Board,
    PolicyExplorer,
    control,
    draw_policy,
    plot_policy_profile,
)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_explorer_starts_on_seed_003():
    """The explorer computes and draws in the page (tests/test_policy_explorer_browser.py,
    tests/js/policy_math.test.mjs); Python holds the board and the settings, synced to the page,
    checks them and gives the library's numbers."""
    import anywidget

    from chutes_edu.board import board_to_json

    w = PolicyExplorer()
    assert isinstance(w, anywidget.AnyWidget)
    state = w.get_state()
    assert state["board_json"] == board_to_json(AIMING_GAME_2021)
    assert (state["aim_exact"], state["aim_lean"], state["discount_factor"]) == (0.5, 0.5, 0.9)
    assert w.accuracy == (0.25, 0.5, 0.25)
    assert w.problem == "" and w.last_error == ""
    assert w.result is not None and w.result.iterations == 35
    assert f"{w.best.expected_turns[0]:.3f}" == "10.607"


def test_explorer_follows_its_sliders():
    w = PolicyExplorer()
    assert (w.discount.min, w.discount.max, w.discount.step) == (0.1, 0.99, 0.01)
    w.discount.value = 0.5
    assert w.get_state()["discount_factor"] == 0.5
    expected = control.value_iteration(AIMING_GAME_2021, discount=0.5)
    assert w.result.iterations == expected.iterations
    np.testing.assert_array_equal(w.result.policy, expected.policy)
    w.exact.value = 1.0
    assert w.accuracy == (0.0, 1.0, 0.0) and w.get_state()["aim_exact"] == 1.0
    best = control.optimal_policy(AIMING_GAME_2021, (0, 1, 0)).expected_turns[0]
    assert w.best.expected_turns[0] == best


def test_explorer_shows_why_settings_fail_without_a_traceback():
    import traitlets

    w = PolicyExplorer()
    w.exact.value = 0.0
    w.lean.value = 1.0           # every move is 2 to 7 squares: square 99 can never finish
    assert "no way of aiming" in w.problem and w.result is None and w.best is None
    w.lean.value = 0.5           # back to a game that can be won
    assert w.problem == "" and w.result is not None
    # a value off a slider's range is refused in words, and the state kept
    with pytest.raises(traitlets.TraitError, match=r"discount must be from 0.1 to 0.99, not 1.5"):
        w.discount.value = 1.5
    assert w.discount.value == 0.9 and "discount" in w.last_error
    with pytest.raises(traitlets.TraitError, match="exact must be from 0 to 1, not nan"):
        w.exact.value = float("nan")
    w.lean.value = 0.25
    assert w.last_error == ""
    with pytest.raises(traitlets.TraitError, match="board is set when it is made"):
        w.board_json = {**w.board_json, "size": 50}


def test_explorer_on_another_board():
    w = PolicyExplorer(Board({3: 9, 8: 2}, size=12, die=3))
    assert w.result is not None and w.result.policy.size == 12
    with pytest.raises(ValueError, match="needs a Board"):
        PolicyExplorer("board")
    with pytest.raises(ValueError, match="do not handle traps"):
        PolicyExplorer(Board({1: 38}, traps=(5,)))


def test_draw_policy_writes_a_target_on_every_square_but_jump_feet():
    result = control.value_iteration(AIMING_GAME_2021)
    ax = draw_policy(AIMING_GAME_2021, result.policy, result.values)
    texts = [t for t in ax.texts if t.get_gid() == "policy targets"]
    assert len(texts) == 100 - len(AIMING_GAME_2021.jumps)
    assert {t.get_text() for t in texts} <= {str(k) for k in range(1, 7)}
    with pytest.raises(ValueError, match="one target for each square"):
        draw_policy(AIMING_GAME_2021, result.policy[:50])


def test_policy_profile_draws_both_policies():
    result = control.value_iteration(AIMING_GAME_2021)
    best = control.optimal_policy(AIMING_GAME_2021)
    top, bottom = plot_policy_profile(result.values, result.policy, best.policy)
    assert len(top.lines) == 1 and len(bottom.lines) == 2
    np.testing.assert_array_equal(bottom.lines[0].get_ydata(), result.policy)
