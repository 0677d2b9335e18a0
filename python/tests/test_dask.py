"""A Dask cluster of two worker processes computes the same curve as a serial loop: each task
gets a pickled `Problem` and returns a pickled `SolveResult`."""

from pathlib import Path

import numpy as np
import pytest

import mechsynth as ms

distributed = pytest.importorskip("distributed")

PROBLEM = Path(__file__).resolve().parents[2] / "problems" / "ldp-hamming-5.toml"


def _solve(problem):
    return ms.solve(problem)


def test_a_local_cluster_gives_the_serial_curve():
    base = ms.Problem.from_file(PROBLEM)
    epsilons = np.linspace(0.25, 4.0, 16)
    problems = [base.with_epsilon(e) for e in epsilons]
    serial = [ms.solve(p) for p in problems]
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        futures = client.map(_solve, problems, pure=False)
        results = client.gather(futures)
    assert all(isinstance(r, ms.SolveResult) for r in results)
    assert [r.objective for r in results] == [r.objective for r in serial]
    assert [r.status for r in results] == ["optimal"] * len(epsilons)
    for r, s in zip(results, serial):
        assert np.array_equal(r.channel, s.channel)
    # The same values as the curve computed in one call.
    curve = ms.curve(base, epsilons=epsilons, registry=False)
    assert curve.series["optimum ldp"].tolist() == [r.objective for r in results]
