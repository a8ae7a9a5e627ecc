//! The properties the fuzz targets in `fuzz/` check, as plain functions of a byte string.
//!
//! Each check turns the bytes into an input (points, a pair of shapes, a scene) with
//! [`arbitrary::Unstructured`], runs the engine on it and panics with a message when a property
//! fails: a panic inside the engine, a NaN, a normal that is not unit length, a polygon that is
//! not convex. libFuzzer reports such a panic as a crash; the stable test
//! `tests/corpus_replay.rs` replays the kept corpus and a batch of pseudo-random inputs through
//! the same functions, so CI checks them without a nightly toolchain.

mod framed;
mod input;
mod manifold_pairs;
pub mod plugin_operations;
mod polygon_points;
mod recording_bytes;
mod scene_building;
mod shapes;
mod snapshot_bytes;

pub use manifold_pairs::check_manifold_pair;
pub use plugin_operations::check_plugin_operations;
pub use polygon_points::check_polygon_from_points;
pub use recording_bytes::check_recording_bytes;
pub use scene_building::check_scene;
pub use snapshot_bytes::check_snapshot_bytes;

/// A check: panics when a property fails, and returns whether the input got past the
/// constructors' refusals into the checked work.
pub type Check = fn(&[u8]) -> bool;

/// The fuzz targets by name (as in `fuzz/fuzz_targets/`), with the check each runs.
pub const TARGETS: [(&str, Check); 6] = [
    ("polygon_from_points", check_polygon_from_points),
    ("manifold_pairs", check_manifold_pair),
    ("scene_building", check_scene),
    ("snapshot_bytes", check_snapshot_bytes),
    ("recording_bytes", check_recording_bytes),
    ("plugin_operations", check_plugin_operations),
];
