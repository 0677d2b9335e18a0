//! The vertex search of ratio cones at scale: the Euclidean 4 x 4 grid's 16,743,648 extreme
//! rays, kept as tree codes (tens of seconds on two cores). The smaller counts are in
//! `tests/library/polytrope.rs`; both build cones with `tests/support/references.rs`.

use crate::references::{cone_of, grid};
use mechsynth::rays::{CompactRays, RatioCone};

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
