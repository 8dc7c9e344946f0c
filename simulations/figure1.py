"""BCMNUW20 Figure 1 ("a representative domain for a finite class of halfspaces"), drawn from the workbench's own
Definition 2 (``algorithms.classes.cover.representative_domain``): for a finite class H~ of halfspaces in R^2, the
representative domain holds exactly one point in each cell of the line arrangement H~ induces (Section 2.1).

The domain X is a fine integer grid of the window [0, size)^2; H~ is ``lines`` halfspaces {x : <w, x> >= c} with
directions and offsets drawn from a seed (general position is checked: no two lines parallel, no three through one
point, every crossing inside the window and off the grid). :func:`figure1` computes X_H~ and the arrangement's cells
(one per distinct sign pattern over the grid), and counts the cells the arrangement has in the window:
1 + L + I for L lines crossing it with I crossings inside it. The drawing shades each cell and marks its
representative.

    python -m simulations.figure1 --out figure1.png [--lines 4] [--seed 1] [--size 200]

Bad input: one line on stderr, exit status 2, no file written.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np


@dataclass(frozen=True)
class Arrangement:
    """The figure's data: the grid points, the lines (w, c), the groups of X_H~ and the expected cell count."""
    points: np.ndarray          # (N, 2) integer grid points
    normals: np.ndarray         # (L, 2) integer w
    offsets: np.ndarray         # (L,) c + 1/2: no grid point lies on a line
    group_of: np.ndarray        # (N,) the cell (representative group) of every point
    representatives: np.ndarray  # point indices, one per cell
    expected_cells: int         # 1 + L + I (lines in general position crossing the window)


def _crossings(normals: np.ndarray, offsets: np.ndarray, size: int) -> tuple[int, bool]:
    """Crossings of the lines inside the open window, and whether they are in general position there."""
    L, inside, ok = len(normals), 0, True
    for i in range(L):
        for j in range(i + 1, L):
            det = normals[i, 0] * normals[j, 1] - normals[i, 1] * normals[j, 0]
            if det == 0:
                return 0, False
            x = np.linalg.solve(np.array([normals[i], normals[j]], float), [offsets[i], offsets[j]])
            if np.all((x > 1) & (x < size - 2)):
                inside += 1
            elif np.any((x > -1) & (x < size)) and not np.all((x > -1) & (x < size)):
                ok = False          # a crossing on the window's edge: the count 1 + L + I is not exact there
    return inside, ok


def figure1(lines: int = 4, seed: int = 1, size: int = 200) -> Arrangement:
    """The arrangement of ``lines`` random halfspaces on the grid [0, size)^2 and its representative domain."""
    from algorithms.classes import FiniteClass
    from algorithms.classes.cover import representative_domain

    if not (1 <= lines <= 8 and 20 <= size <= 400):
        raise ValueError(f"lines={lines!r} must be in [1, 8] and size={size!r} in [20, 400]")
    rng = np.random.default_rng(seed)
    xs, ys = np.meshgrid(np.arange(size), np.arange(size))
    pts = np.stack([xs.ravel(), ys.ravel()], axis=1)
    for _ in range(1000):
        normals = rng.integers(-20, 21, size=(lines, 2))
        if np.any(np.all(normals == 0, axis=1)):
            continue
        through = rng.uniform(0.2 * size, 0.8 * size, size=(lines, 2))   # each line through the window's middle
        offsets = np.floor(np.einsum("ij,ij->i", normals, through)) + 0.5  # never on a grid point
        cross, ok = _crossings(normals, offsets, size)
        if ok:
            break
    else:
        raise ValueError("no arrangement in general position found for this seed")
    matrix = (normals @ pts.T) >= offsets[:, None]
    dom = representative_domain(FiniteClass(matrix, point_coords=pts, name=f"halfspaces(L={lines})"))
    return Arrangement(points=pts, normals=normals, offsets=offsets, group_of=dom.group_of,
                       representatives=dom.representatives, expected_cells=1 + lines + cross)


def draw(arr: Arrangement, path: Path) -> None:
    """The figure: each cell shaded, the lines, one marked representative per cell."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    size = int(arr.points[:, 0].max()) + 1
    fig, ax = plt.subplots(figsize=(5, 5))
    ax.imshow(arr.group_of.reshape(size, size), origin="lower", cmap="tab20", alpha=0.35,
              extent=(-0.5, size - 0.5, -0.5, size - 0.5), interpolation="nearest")
    t = np.linspace(-size, 2 * size, 2)
    for (a, b), c in zip(arr.normals, arr.offsets):
        if b != 0:
            ax.plot(t, (c - a * t) / b, color="black", lw=1)
        else:
            ax.axvline(c / a, color="black", lw=1)
    rep = arr.points[arr.representatives]
    ax.scatter(rep[:, 0], rep[:, 1], s=18, color="crimson", zorder=3, label="representative (one per cell)")
    ax.set_xlim(-0.5, size - 0.5)
    ax.set_ylim(-0.5, size - 0.5)
    ax.set_title(f"BCMNUW20 Figure 1: {len(arr.normals)} halfspaces, {arr.representatives.size} cells, "
                 f"|X_H~| = {arr.representatives.size}", fontsize=9)
    ax.legend(loc="upper right", fontsize=7)
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m simulations.figure1", description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, required=True, help="the PNG to write")
    p.add_argument("--lines", type=int, default=4, help="halfspaces of H~ (1 to 8)")
    p.add_argument("--seed", type=int, default=1, help="seed of the lines")
    p.add_argument("--size", type=int, default=200, help="grid side of the window (20 to 400)")
    ns = p.parse_args(argv)
    try:
        if ns.out.suffix.lower() != ".png":
            raise ValueError(f"--out {ns.out}: a .png path")
        arr = figure1(ns.lines, ns.seed, ns.size)
        ns.out.parent.mkdir(parents=True, exist_ok=True)
        tmp = ns.out.with_name(ns.out.name + ".tmp.png")
        draw(arr, tmp)
        tmp.replace(ns.out)     # nothing half-written under the final name
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{ns.out}: {arr.representatives.size} representatives, one per cell of the arrangement "
          f"(1 + L + I = {arr.expected_cells} cells for L = {len(arr.normals)} lines in general position)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
