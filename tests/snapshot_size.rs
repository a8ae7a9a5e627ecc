//! Snapshot size per body, measured by hand (ignored by default):
//!
//! ```sh
//! cargo test --test snapshot_size -- --ignored --nocapture
//! ```
//!
//! Prints bytes per body of `WorldSnapshot::to_bytes` after 300 steps of scenes with joints,
//! contacts or both, with the time to write and to read them, and checks each reads back and
//! restores.

use physics2d_demos::physics_core::prelude::*;
use physics2d_demos::scene;

#[test]
#[ignore = "a measurement: run by hand, see the file's notes"]
fn snapshot_bytes_per_body() {
    eprintln!(
        "| scene | bodies | contacts | joints | bytes per body | to_bytes ms | from_bytes ms |"
    );
    eprintln!("|---|---|---|---|---|---|---|");
    for name in ["ragdoll", "joint_grid", "shape_rain", "large_pyramid"] {
        let s = scene(name).unwrap();
        let mut built = s.build(WorldDef::default()).unwrap();
        for _ in 0..300 {
            built.world.step(s.dt).unwrap();
        }
        let w = &built.world;
        let t = std::time::Instant::now();
        let bytes = w.snapshot().to_bytes();
        let write_ms = t.elapsed().as_secs_f64() * 1e3;
        let t = std::time::Instant::now();
        let read = WorldSnapshot::from_bytes(&bytes).expect("reads back");
        let read_ms = t.elapsed().as_secs_f64() * 1e3;
        let mut restored = World::new(WorldDef::default()).unwrap();
        restored.restore(&read).expect("restores");
        assert_eq!(restored.state_hash(), w.state_hash());
        eprintln!(
            "| {name} | {} | {} | {} | {:.0} | {write_ms:.1} | {read_ms:.1} |",
            w.body_count(),
            w.contact_count(),
            w.joint_count(),
            bytes.len() as f32 / w.body_count() as f32,
        );
    }
}
