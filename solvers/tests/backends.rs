//! Every backend in this build: statuses, primal points, dual signs and (Clarabel) cones.

use mechsynth_solvers::{backend, BackendKind, LinearProgram, LpStatus, Sense, SolveOptions};

/// Interior-point points are accurate to about this much.
const POINT_TOLERANCE: f64 = 1e-6;

fn available() -> Vec<BackendKind> {
    [BackendKind::Clarabel, BackendKind::Highs]
        .into_iter()
        .filter(|k| k.is_available())
        .collect()
}

#[test]
fn duals_follow_the_documented_sign_convention() {
    // min 3x + y  s.t.  x + y >= 2,  x <= 10,  x, y >= 0  ->  x = 0, y = 2, dual of row 0 = 1.
    for kind in available() {
        let mut lp = LinearProgram::new();
        let x = lp.add_var(3.0, 0.0, f64::INFINITY);
        let y = lp.add_var(1.0, 0.0, f64::INFINITY);
        lp.add_constraint(vec![(x, 1.0), (y, 1.0)], Sense::Ge, 2.0);
        lp.add_constraint(vec![(x, 1.0)], Sense::Le, 10.0);
        // max-style row: -y >= -3 is slack at y = 2.
        lp.add_constraint(vec![(y, -1.0)], Sense::Ge, -3.0);
        let s = backend(kind)
            .unwrap()
            .solve(&lp, &SolveOptions::default())
            .unwrap();
        assert_eq!(s.status, LpStatus::Optimal, "{kind}");
        assert!((s.x[y] - 2.0).abs() < POINT_TOLERANCE, "{kind}: {:?}", s.x);
        assert_eq!(s.duals.len(), 3, "{kind}");
        assert!(
            (s.duals[0] - 1.0).abs() < POINT_TOLERANCE,
            "{kind}: {:?}",
            s.duals
        );
        assert!(s.duals[1].abs() < POINT_TOLERANCE, "{kind}: {:?}", s.duals);
        assert!(s.duals[2].abs() < POINT_TOLERANCE, "{kind}: {:?}", s.duals);
    }
}

#[test]
fn equality_and_upper_rows_have_duals_of_the_right_sign() {
    // max x + y (min -x - y)  s.t.  x + 2y <= 4,  x - y = 1  ->  x = 2, y = 1.
    // Stationarity: (-1, -1) = u (1, 2) + v (1, -1)  ->  u = -2/3, v = -1/3.
    for kind in available() {
        let mut lp = LinearProgram::new();
        let x = lp.add_var(-1.0, 0.0, f64::INFINITY);
        let y = lp.add_var(-1.0, 0.0, f64::INFINITY);
        lp.add_constraint(vec![(x, 1.0), (y, 2.0)], Sense::Le, 4.0);
        lp.add_constraint(vec![(x, 1.0), (y, -1.0)], Sense::Eq, 1.0);
        let s = backend(kind)
            .unwrap()
            .solve(&lp, &SolveOptions::default())
            .unwrap();
        assert_eq!(s.status, LpStatus::Optimal, "{kind}");
        assert!(
            (s.duals[0] + 2.0 / 3.0).abs() < POINT_TOLERANCE,
            "{kind}: {:?}",
            s.duals
        );
        assert!(
            (s.duals[1] + 1.0 / 3.0).abs() < POINT_TOLERANCE,
            "{kind}: {:?}",
            s.duals
        );
    }
}

#[test]
fn clarabel_solves_exponential_cones() {
    // max x  s.t.  (x, 1, 2) in K_exp, i.e. e^x <= 2  ->  x = ln 2.
    let mut lp = LinearProgram::new();
    let x = lp.add_var(-1.0, f64::NEG_INFINITY, f64::INFINITY);
    let one = lp.add_var(0.0, 1.0, 1.0);
    let two = lp.add_var(0.0, 2.0, 2.0);
    lp.add_exp_cone(x, one, two);
    let s = backend(BackendKind::Clarabel)
        .unwrap()
        .solve(&lp, &SolveOptions::default())
        .unwrap();
    assert_eq!(s.status, LpStatus::Optimal);
    assert!((s.x[x] - 2f64.ln()).abs() < POINT_TOLERANCE, "{:?}", s.x);
}

#[test]
fn infeasible_programs_report_infeasible_without_a_point() {
    for kind in available() {
        let mut lp = LinearProgram::new();
        let x = lp.add_var(1.0, 0.0, 1.0);
        lp.add_constraint(vec![(x, 1.0)], Sense::Ge, 2.0);
        let s = backend(kind)
            .unwrap()
            .solve(&lp, &SolveOptions::default())
            .unwrap();
        assert!(
            matches!(
                s.status,
                LpStatus::Infeasible | LpStatus::InfeasibleOrUnbounded
            ),
            "{kind}: {}",
            s.status
        );
        assert!(!s.status.has_point() && s.x.is_empty() && s.duals.is_empty());
    }
}

#[cfg(feature = "highs")]
#[test]
fn highs_refuses_exponential_cones_with_a_clear_error() {
    let mut lp = LinearProgram::new();
    let a = lp.add_var(0.0, 0.0, 1.0);
    lp.add_exp_cone(a, a, a);
    let e = backend(BackendKind::Highs)
        .unwrap()
        .solve(&lp, &SolveOptions::default())
        .unwrap_err();
    assert!(e.to_string().contains("exponential cones"), "{e}");
}

/// A growing program (tangent cuts of the unit disc, max x + 2y) solved through a session
/// agrees with solving each program from scratch; with HiGHS, appended cuts are re-optimized
/// from the previous basis, and a program that is not an extension starts over.
#[test]
fn sessions_agree_with_cold_solves_as_rows_are_appended() {
    use mechsynth_solvers::session;
    let cut_angles = [0.0, 1.5, 0.7, 1.2, 1.0, 1.1, 1.05];
    for kind in available() {
        let solver = backend(kind).unwrap();
        let mut sess = session(solver.as_ref());
        let mut lp = LinearProgram::new();
        let x = lp.add_var(-1.0, -2.0, 2.0);
        let y = lp.add_var(-2.0, -2.0, 2.0);
        for (k, &angle) in cut_angles.iter().enumerate() {
            let (c, s) = (f64::cos(angle), f64::sin(angle));
            lp.add_constraint(vec![(x, c), (y, s)], Sense::Le, 1.0);
            let options = SolveOptions::default();
            let warm = sess.solve(&lp, &options).unwrap();
            let cold = solver.solve(&lp, &options).unwrap();
            assert_eq!(warm.status, LpStatus::Optimal, "{kind}, cut {k}");
            assert!(
                (warm.objective - cold.objective).abs() < POINT_TOLERANCE,
                "{kind}, cut {k}: {} against {}",
                warm.objective,
                cold.objective
            );
            assert_eq!(warm.duals.len(), lp.num_constraints(), "{kind}");
            let expect_warm = kind == BackendKind::Highs && k > 0;
            assert_eq!(sess.last_was_warm(), expect_warm, "{kind}, cut {k}");
        }
        // The optimum of max x + 2y on the disc is sqrt(5); the cuts bound it from above.
        let last = sess.solve(&lp, &SolveOptions::default()).unwrap();
        assert!(-last.objective >= 5f64.sqrt() - POINT_TOLERANCE, "{kind}");
        // Not an extension: the first cut is moved. The session starts over and is right.
        let mut moved = LinearProgram::new();
        let x = moved.add_var(-1.0, -2.0, 2.0);
        let y = moved.add_var(-2.0, -2.0, 2.0);
        moved.add_constraint(vec![(x, 0.0), (y, 1.0)], Sense::Le, 0.5);
        let s = sess.solve(&moved, &SolveOptions::default()).unwrap();
        assert!(!sess.last_was_warm(), "{kind}");
        // y = 0.5, x = 2: objective -3.
        assert!(
            (s.objective + 3.0).abs() < POINT_TOLERANCE,
            "{kind}: {}",
            s.objective
        );
    }
}
