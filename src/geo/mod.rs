//! Location privacy: point sets read from CSV files of coordinates, great-circle distances,
//! and greedy t-spanners for the approximate d-privacy encoding of Bordenabe, Chatzikokolakis
//! and Palamidessi, "Optimal Geo-Indistinguishable Mechanisms for Location Privacy", ACM CCS
//! 2014.

pub mod lattice;
pub mod line;
pub mod points;
pub mod spanner;

pub use lattice::{is_full_lattice, lattice_cells, Lattice, LatticeCells};
pub use points::{Geometry, PointsSpec};
pub use spanner::{graph_distances, greedy_spanner, Spanner};

/// Mean Earth radius in km (IUGG mean radius R1 = 6371.0088 km).
pub const EARTH_RADIUS_KM: f64 = 6371.0088;

/// Great-circle distance in km between `(lon, lat)` points given in degrees, on a sphere of
/// radius [`EARTH_RADIUS_KM`], by the haversine formula
/// `d = 2 R asin( sqrt( sin^2(dphi/2) + cos phi1 cos phi2 sin^2(dlambda/2) ) )`
/// (phi = latitude, lambda = longitude, in radians).
pub fn haversine_km(a: [f64; 2], b: [f64; 2]) -> f64 {
    let (lambda1, phi1) = (a[0].to_radians(), a[1].to_radians());
    let (lambda2, phi2) = (b[0].to_radians(), b[1].to_radians());
    let h = ((phi2 - phi1) / 2.0).sin().powi(2)
        + phi1.cos() * phi2.cos() * ((lambda2 - lambda1) / 2.0).sin().powi(2);
    // Rounding can push h a hair above 1 for antipodal points; asin needs <= 1.
    2.0 * EARTH_RADIUS_KM * h.sqrt().min(1.0).asin()
}
