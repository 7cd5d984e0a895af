"""The coin-flip warm-up: waiting for heads."""

import numpy as np
import pytest

from chutes_edu import expected_flips, flips_until_heads, running_mean


def test_expected_flips_is_one_over_p():
    assert expected_flips(0.5) == 2.0
    assert expected_flips(1.0) == 1.0
    assert expected_flips(0.2) == pytest.approx(5.0)
    # the first-step equation E = 1 + (1 - p) E holds
    for p in (0.01, 0.3, 0.77):
        e = expected_flips(p)
        assert e == pytest.approx(1 + (1 - p) * e)


@pytest.mark.parametrize("bad", [0, 0.0, -0.1, 1.5, float("nan"), "0.5", None, True])
def test_bad_probability_is_refused(bad):
    with pytest.raises(ValueError, match="p must"):
        expected_flips(bad)
    with pytest.raises(ValueError, match="p must"):
        flips_until_heads(bad, 10)


def test_flips_are_whole_numbers_of_at_least_one():
    flips = flips_until_heads(0.3, 5000, seed=1)
    assert flips.dtype == np.int64 and flips.shape == (5000,)
    assert flips.min() >= 1
    assert flips_until_heads(1.0, 100, seed=0).tolist() == [1] * 100


def test_same_seed_same_flips():
    a = flips_until_heads(0.4, 1000, seed=7)
    b = flips_until_heads(0.4, 1000, seed=np.random.default_rng(7))
    assert np.array_equal(a, b)
    assert not np.array_equal(a, flips_until_heads(0.4, 1000, seed=8))


def test_mean_converges_to_one_over_p():
    p = 0.25
    flips = flips_until_heads(p, 200_000, seed=3)
    mean, half = running_mean(flips)
    assert abs(mean[-1] - expected_flips(p)) < 3 * half[-1] / 1.96
    # geometric: P(F = 1) = p
    assert np.mean(flips == 1) == pytest.approx(p, abs=0.01)


def test_trial_count_checked():
    assert flips_until_heads(0.5, 0).shape == (0,)
    with pytest.raises(ValueError, match="n_trials"):
        flips_until_heads(0.5, -1)
    with pytest.raises(ValueError, match="n_trials"):
        flips_until_heads(0.5, 2.5)
