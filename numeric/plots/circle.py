"""Figure: the pair (sin, cos) on the unit circle, and the shift by k drawn as a rotation."""

from __future__ import annotations

import math
import os

import numpy as np

from numeric.plots.style import STYLE, save


def circle_figure(
    path: str | os.PathLike[str], *, k: int = 5, positions: tuple[int, ...] = (0, 3, 7)
) -> None:
    """Save the unit circle with the pair at each pos (ω = 1) and its image at pos + k to path."""
    from matplotlib import rc_context
    from matplotlib.figure import Figure
    from matplotlib.patches import FancyArrowPatch

    with rc_context(STYLE):
        fig = Figure(figsize=(3.2, 3.2), layout="constrained")
        ax = fig.add_subplot()
        t = np.linspace(0, 2 * math.pi, 400)
        ax.plot(np.sin(t), np.cos(t), color="0.75", lw=1)
        for j, pos in enumerate(positions):
            colour = f"C{j}"
            a, b = pos, pos + k
            ax.plot([math.sin(a)], [math.cos(a)], "o", color=colour, ms=5)
            ax.plot([math.sin(b)], [math.cos(b)], "s", color=colour, ms=5)
            for angle, text in ((a, f"pos={a}"), (b, f"pos+k={b}")):
                # Labels sit outside the circle, pointing away from its centre.
                x, y = math.sin(angle), math.cos(angle)
                ax.annotate(
                    text,
                    (x, y),
                    textcoords="offset points",
                    xytext=(7 * x, 7 * y),
                    ha="left" if x >= 0 else "right",
                    va="bottom" if y >= 0 else "top",
                    fontsize=7,
                )
            # The rotation turns the point clockwise in the (sin, cos) plane by the angle k.
            ax.add_patch(
                FancyArrowPatch(
                    (0.8 * math.sin(a), 0.8 * math.cos(a)),
                    (0.8 * math.sin(b), 0.8 * math.cos(b)),
                    connectionstyle=f"arc3,rad={-0.55 if (k % (2 * math.pi)) < math.pi else 0.55}",
                    arrowstyle="->",
                    color=colour,
                    lw=0.9,
                    mutation_scale=8,
                )
            )
        ax.set_xlabel("sin(pos)")
        ax.set_ylabel("cos(pos)")
        ax.set_aspect("equal")
        ax.set_xlim(-1.6, 1.6)
        ax.set_ylim(-1.4, 1.4)
        save(fig, path)
