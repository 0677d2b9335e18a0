"""A sweep over epsilon on a Dask cluster: each task gets a pickled `Problem` and returns a
pickled `SolveResult`. The same code runs on a cluster by pointing `Client` at its scheduler.

Run from the root of the checkout after `pip install ./python "dask[distributed]"`:

    python examples/python/dask_sweep.py
"""

import os

import numpy as np
from distributed import Client, LocalCluster

import mechsynth as ms

POINTS = 8 if os.environ.get("MECHSYNTH_SMOKE") else 40


def main() -> None:
    base = ms.Problem(
        labels=["A", "B", "C", "D", "E"],
        prior=[0.4, 0.25, 0.15, 0.12, 0.08],
        privacy={"notion": "lip", "epsilon": 1.0},
        objective="mmse-histogram",
    )
    epsilons = np.linspace(0.1, 3.0, POINTS)
    problems = [base.with_epsilon(e) for e in epsilons]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True) as cluster, \
            Client(cluster) as client:
        results = client.gather(client.map(ms.solve, problems))
    print(f"{'epsilon':>8} {'status':>8} {'MMSE':>10}")
    for e, r in zip(epsilons, results):
        print(f"{e:8.3f} {r.status:>8} {r.objective:10.6f}")
    # The optimum can only improve as the privacy budget grows.
    values = [r.objective for r in results]
    assert all(b <= a + 1e-9 for a, b in zip(values, values[1:]))


if __name__ == "__main__":
    main()
