"""Location privacy on a grid: the certified optimal d-private channel against planar Laplace
and the exponential mechanism, at the same epsilon, with a skewed prior.

Run from the root of the checkout after `pip install ./python`:

    python examples/python/location.py [OUTPUT_FOLDER]

With a folder, it also writes the optimal channel's heatmap (SVG).
"""

import os
import sys

import numpy as np

import mechsynth as ms

SIDE = 4 if os.environ.get("MECHSYNTH_SMOKE") else 7
EPSILON = 0.7  # per cell of distance

# Cells of a SIDE x SIDE grid; people cluster near one corner (a town centre).
rows, cols = np.divmod(np.arange(SIDE * SIDE), SIDE)
weights = np.exp(-0.5 * (rows + cols))
prior = weights / weights.sum()
distance = np.hypot(rows[:, None] - rows[None, :], cols[:, None] - cols[None, :])

problem = ms.Problem(
    name=f"{SIDE}x{SIDE} grid, euclidean d-privacy",
    grid=(SIDE, SIDE),
    prior=prior,
    privacy={"notion": "d-privacy", "epsilon": EPSILON, "metric": "euclidean"},
    objective={"kind": "expected-loss", "loss": "absolute"},
)
best = ms.solve(problem)
print(f"optimum: {best.status}, expected distance {best.objective:.4f} "
      f"(bound {best.bound:.4f}), d-privacy {best.leakage['d-privacy']:.4f}")

domain = {"grid": {"rows": SIDE, "cols": SIDE}, "prior": prior.tolist()}
for name in ["planar-laplace", "exponential"]:
    q = ms.baseline(name, epsilon=EPSILON, domain=domain)
    # A baseline's outputs are the grid's cells: its expected distance is prior . (Q * d).
    loss = float(prior @ (q * distance[:, : q.shape[1]]).sum(axis=1)) if q.shape[1] == SIDE * SIDE \
        else float("nan")
    leak = ms.leakage(q, "d-privacy", domain=domain)
    print(f"{name:>15}: expected distance {loss:.4f}, d-privacy {leak:.4f} "
          f"({loss / best.objective:.2f}x the optimum)")

if len(sys.argv) > 1:
    out = os.path.join(sys.argv[1], "location-optimum.svg")
    with open(out, "w") as f:
        f.write(best.svg())
    print(f"wrote {out}")
