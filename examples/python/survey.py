"""A survey question with four answers: design a randomizer under LIP and under LDP, privatize
the answers, estimate the distribution with intervals, and plan the number of respondents.

Run from the root of the checkout after `pip install ./python`:

    python examples/python/survey.py
"""

import os

import numpy as np

import mechsynth as ms

#: Respondents simulated (fewer in the test suite's smoke run).
USERS = 20_000 if os.environ.get("MECHSYNTH_SMOKE") else 200_000

labels = ["never", "monthly", "weekly", "daily"]
prior = np.array([0.55, 0.25, 0.15, 0.05])  # what earlier waves suggest

# The same question under two notions: LIP protects against an adversary who knows the
# prior; LDP against any adversary. Both designs minimize the MSE of the frequencies that
# the unbiased estimator will report (per respondent).
designs = {
    "lip": ms.Problem(labels=labels, prior=prior, objective="frequency-mse",
                      privacy={"notion": "lip", "epsilon": 1.0}),
    "ldp": ms.Problem(labels=labels, prior=prior, objective="frequency-mse",
                      privacy={"notion": "ldp", "epsilon": 1.0}),
}
results = {name: ms.solve(problem) for name, problem in designs.items()}
for name, r in results.items():
    print(f"{name}: {r.status}, frequency MSE x users {r.objective:.4f} (gap {r.gap:.1e}), "
          f"LDP {r.leakage['ldp']:.3f}, LIP {r.leakage['lip']:.3f}")

# Field the LDP design: each respondent's answer goes through the channel on their device.
rng = np.random.default_rng(2026)
truth = rng.choice(len(labels), size=USERS, p=prior)
channel = results["ldp"].channel
reports = ms.privatize(channel, truth)  # OS-seeded randomness: nobody can replay it

# Estimate the answers' distribution from the reports, with 95% intervals.
est = ms.estimate(channel, reports, prior=prior, level=0.95)
observed = np.bincount(truth, minlength=len(labels)) / USERS
print(f"\n{'answer':>8} {'true':>7} {'estimate':>9}  95% interval")
for i, label in enumerate(labels):
    print(f"{label:>8} {observed[i]:7.4f} {est.estimates[i]:9.4f}  "
          f"[{est.lower[i]:.4f}, {est.upper[i]:.4f}]")

# How many respondents for an RMSE of 0.01 on every frequency, with this channel and the
# baselines at the same epsilon?
plan = ms.plan(channel, rmse=0.01, prior=prior)
print()
for row in plan.rows:
    needed = row["users_needed"]
    shown = "cannot reach it" if needed is None else f"{needed} respondents"
    print(f"{row['mechanism']:>22} (LDP {row['ldp']:.2f}): {shown}")
