"""Figure: the first pair (sin pos, cos pos) on the unit circle, and the shift by k drawn as the
rotation it is: clockwise, through k radians."""

from __future__ import annotations

import math
import os

import numpy as np

from numeric.plots.style import STYLE, save


def circle_figure(
    path: str | os.PathLike[str], *, k: int = 5, positions: tuple[int, ...] = (0, 3, 7)
) -> None:
    """Save the unit circle with the first pair (ω_0 = 1) at each pos (circles) and at pos + k
    (squares) to path; each arc turns clockwise through the angle k, as R(k) does.

    In the (sin, cos) plane a growing pos moves the point clockwise, so the arc from pos to
    pos + k runs clockwise through k radians (the long way round when k > π), each on its own
    radius so that the arcs do not overlap.
    """
    from matplotlib import rc_context
    from matplotlib.figure import Figure

    with rc_context(STYLE):
        fig = Figure(figsize=(3.4, 3.4), layout="constrained")
        ax = fig.add_subplot()
        t = np.linspace(0, 2 * math.pi, 400)
        ax.plot(np.sin(t), np.cos(t), color="0.75", lw=1)
        ax.axhline(0, color="0.9", lw=0.6, zorder=0)
        ax.axvline(0, color="0.9", lw=0.6, zorder=0)
        for j, pos in enumerate(positions):
            colour = f"C{j}"
            a, b = pos, pos + k
            radius = 0.45 + 0.15 * j
            arc = np.linspace(a, b, 200)
            ax.plot(radius * np.sin(arc), radius * np.cos(arc), color=colour, lw=0.9)
            for angle in (a, b):  # the arc's ends joined to its two points
                ray = np.array([radius, 1.0])
                ax.plot(ray * math.sin(angle), ray * math.cos(angle), ":", color=colour, lw=0.7)
            ax.annotate(
                "",
                xy=(radius * math.sin(b), radius * math.cos(b)),
                xytext=(radius * math.sin(b - 0.15), radius * math.cos(b - 0.15)),
                arrowprops={"arrowstyle": "-|>", "color": colour, "lw": 0.9},
            )
            ax.plot([math.sin(a)], [math.cos(a)], "o", color=colour, ms=5)
            ax.plot([math.sin(b)], [math.cos(b)], "s", color=colour, ms=5)
            for angle, text in ((a, f"{a}"), (b, f"{b}")):
                # Labels sit outside the circle, on the ray through their point.
                x, y = math.sin(angle), math.cos(angle)
                ax.text(1.2 * x, 1.2 * y, text, ha="center", va="center", fontsize=7, color=colour)
        ax.set_xlabel("sin(pos)")
        ax.set_ylabel("cos(pos)")
        ax.set_title(f"pos (circles) and pos + {k} (squares)", fontsize=8)
        ax.set_aspect("equal")
        ax.set_xlim(-1.45, 1.45)
        ax.set_ylim(-1.45, 1.45)
        save(fig, path)
