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
    w = PolicyExplorer()
    assert w.accuracy == (0.25, 0.5, 0.25)
    assert "<b>35</b> sweeps" in w.readout.value
    assert w.message.value == ""
    assert w.image.value[:8] == b"\x89PNG\r\n\x1a\n"
    assert w.result is not None and w.result.iterations == 35


def test_explorer_follows_its_sliders():
    w = PolicyExplorer()
    before = w.image.value
    w.discount.value = 0.5
    expected = control.value_iteration(AIMING_GAME_2021, discount=0.5)
    assert f"<b>{expected.iterations}</b> sweeps" in w.readout.value
    assert w.image.value != before
    w.exact.value = 1.0
    assert w.accuracy == (0.0, 1.0, 0.0)
    best = control.optimal_policy(AIMING_GAME_2021, (0, 1, 0)).expected_turns[0]
    assert f"the fewest possible is <b>{best:.3f}</b>" in w.readout.value


def test_explorer_shows_why_settings_fail_without_a_traceback():
    w = PolicyExplorer()
    w.exact.value = 0.0
    w.lean.value = 1.0           # every move is 2 to 7 squares: square 99 can never finish
    assert "no way of aiming" in w.message.value
    assert "Traceback" not in w.message.value
    assert w.readout.value == ""
    w.lean.value = 0.5           # back to a game that can be won
    assert w.message.value == "" and "sweeps" in w.readout.value


def test_explorer_on_another_board():
    w = PolicyExplorer(Board({3: 9, 8: 2}, size=12, die=3))
    assert "sweeps" in w.readout.value
    with pytest.raises(ValueError, match="needs a Board"):
        PolicyExplorer("board")


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
