"""CoinFlipExplorer: the warm-up, waiting for heads; the running average of the flips against
1/p."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import numpy as np

from ..coin import expected_flips, flips_until_heads
from ..plots._style import _PAINTER
from ..plots.charts import (
    plot_convergence,
)
from ..simulation import running_mean
from ._base import _Explorer, _FigureView
from .controls import FloatSlider


class CoinFlipExplorer(_Explorer):
    """The warm-up: flip until heads, many times; the running average against ``1/p``.

    Attributes
    ----------
    p : chutes_edu.widgets.controls.FloatSlider (a labelled native slider)
        The probability of heads.
    n : ipywidgets.BoundedIntText
        The number of trials (runs of flips until heads).
    seed : ipywidgets.IntText
        The random seed.
    readout, message : ipywidgets.HTML
    image : chutes_edu.widgets.controls.Picture (a PNG with its alt text)
        The running average with its 95% band and the line ``1/p``.
    """

    offline_summary = ("Waiting for heads: flip a coin until heads and watch the average "
                       "number of flips")

    def __init__(self, p: float = 0.5, n_trials: int = 1000, seed: int = 0) -> None:
        super().__init__()
        self.add_class("chutes-coin-explorer")
        wide = {"description_width": "initial"}
        self.p = FloatSlider(p, 0.01, 1.0, 0.01, decimals=2, description="P(heads), the chance "
                             "of heads p")
        self.p.add_class("chutes-p")
        self.n = widgets.BoundedIntText(value=n_trials, min=1, max=1_000_000, step=100,
                                        description="trials (waits)", style=wide,
                                        layout=widgets.Layout(width="220px"))
        self.seed = widgets.IntText(value=seed, description="random seed", style=wide,
                                    layout=widgets.Layout(width="200px"))
        self.readout = widgets.HTML("")
        self.readout.add_class("chutes-readout")
        self._painter: Any = None
        self.view = _FigureView((512, 320), dynamic=lambda: (self._painter.dynamic_artists()
                                                            if self._painter else []),
                                css="chutes-coin-image")
        self.image = self.view.image
        self._ax = self.view.figure.add_subplot()
        self.flips: np.ndarray = np.zeros(0, dtype=np.int64)
        for control in (self.p, self.n, self.seed):
            self._observe(control, self._refresh)
        self._refresh()
        self.children = [
            widgets.HTML("<b>Waiting for heads</b>: flip a coin until it shows heads; how many "
                         "flips does that take on average?"),
            self.p, widgets.HBox([self.n, self.seed]), self.readout, self.message, self.image,
            self.live]

    def _refresh(self) -> None:
        p = self.p.value
        self.flips = flips_until_heads(p, self.n.value, seed=self.seed.value)
        exact = expected_flips(p)
        mean, half = running_mean(self.flips)
        label = "1/p, the first-step answer"
        if self._painter is None:
            plot_convergence(self.flips, exact, ax=self._ax, unit="flips", what="trials",
                             exact_label=label, title="Waiting for heads", legend_values=False)
            self._painter = getattr(self._ax, _PAINTER)
        changed = self._painter.update(self.flips, exact, exact_label=label, sticky=True)
        self.view.render(full=changed, relayout=self._painter.relayout or None)
        self._clear_error()
        band = f" &plusmn; {half[-1]:.3f}" if np.isfinite(half[-1]) else ""
        self._announce(f"Average {mean[-1]:.2f} flips over {self.flips.size:,} trials; "
                       f"1/p = {exact:.2f} flips")
        self.readout.value = (f"average of {self.flips.size:,} trials: "
                              f"<b>{mean[-1]:.3f}</b>{band} flips (95%); "
                              f"first-step answer 1/p = <b>{exact:.4f}</b> flips")
