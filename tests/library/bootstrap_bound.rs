//! The bootstrap's replicate count is bounded: above `MAX_BOOTSTRAP` the estimate is refused
//! naming `--bootstrap` before any replicate is stored (4e9 replicates used to abort on a
//! 96 GB allocation), in the library and through the built binary.

use mechsynth::collect::baseline::BaselineSpec;
use mechsynth::collect::estimate::{estimate, EstimateOptions, EstimatorSpec, MAX_BOOTSTRAP};
use mechsynth::collect::Model;
use mechsynth::domain::Domain;
use rand::SeedableRng;

#[test]
fn more_replicates_than_the_maximum_are_refused() {
    let model = Model::baseline(BaselineSpec::KRr, Domain::sized(3).unwrap(), 1.0).unwrap();
    let counts = vec![10u64; model.outputs()];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    for bootstrap in [MAX_BOOTSTRAP + 1, 4_000_000_000] {
        let options = EstimateOptions {
            estimators: vec![EstimatorSpec::Projected],
            bootstrap,
            ..EstimateOptions::default()
        };
        let e = estimate(&model, &counts, &options, &mut rng).unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("--bootstrap") && text.contains(&bootstrap.to_string()),
            "{text}"
        );
    }
}

#[test]
fn the_binary_refuses_four_billion_replicates() {
    let counts =
        std::env::temp_dir().join(format!("mechsynth-bootstrap-{}.csv", std::process::id()));
    std::fs::write(&counts, "0,10\n1,12\n2,9\n").unwrap();
    let o = crate::bin::command()
        .args([
            "estimate",
            "--baseline",
            "k-rr",
            "--epsilon",
            "1",
            "--size",
            "3",
        ])
        .args([
            "--estimator",
            "projected",
            "--bootstrap",
            "4000000000",
            "--counts",
        ])
        .arg(&counts)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&counts);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("invalid `--bootstrap` = 4000000000"), "{err}");
    assert!(err.contains(&format!("at most {MAX_BOOTSTRAP}")), "{err}");
}
