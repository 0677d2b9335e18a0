//! The vertex search of ratio cones at scale: the Euclidean 4 x 4 grid's 16,743,648 extreme
//! rays, kept as tree codes (tens of seconds on two cores). The smaller counts, and the helpers
//! `cone_of` and `grid` repeated here, are in `tests/library/polytrope.rs`.

use mechsynth::rays::{ColumnCone, CompactRays, RatioCone};

fn cone_of(points: &[(f64, f64)], epsilon: f64) -> ColumnCone {
    let n = points.len();
    let mut cone = ColumnCone::orthant(n);
    for a in 0..n {
        for b in 0..n {
            if a != b {
                let d = (points[a].0 - points[b].0).hypot(points[a].1 - points[b].1);
                cone.rows.push(ColumnCone::ratio_row(a, b, epsilon * d));
            }
        }
    }
    cone
}

fn grid(rows: usize, cols: usize) -> Vec<(f64, f64)> {
    (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r as f64, c as f64)))
        .collect()
}

/// The Euclidean 4 x 4 grid has 16,743,648 extreme rays: a count made independently by an exact
/// vertex search of its log polytope (in arithmetic over the grid's square roots), which agrees
/// with double description on the 3 x 3 grid and a line of 6 (above). The store is complete
/// only without ambiguous ties.
#[test]
fn the_four_by_four_grid_has_16743648_rays() {
    let cone = cone_of(&grid(4, 4), 0.5);
    let ratio = RatioCone::from_cone(&cone).expect("connected");
    let store = ratio.compact(usize::MAX, None).expect("complete");
    assert_eq!(store.len(), 16_743_648);
    assert_eq!(store.bytes(), 16_743_648 * CompactRays::bytes_per_ray(16));
    // A limit below the count gives no store.
    assert!(ratio.compact(1_000_000, None).is_none());
}
