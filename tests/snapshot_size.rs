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

/// What a keyframe costs a lightyear client at scale (measured by hand, ignored by default):
///
/// ```sh
/// cargo test --test snapshot_size keyframe -- --ignored --nocapture
/// ```
///
/// Worlds of 100, 1,000 and 10,000 boxes and balls dropped in a grid on a ground: mid-fall
/// (in motion), settled with sleeping off (at rest) and settled asleep. Prints the bytes of
/// one keyframe (`WorldSnapshot::to_bytes`) and the bytes per second per client when the
/// server sends one every 2 s, then the same for the next keyframe sent as a delta against
/// it (`WorldSnapshot::to_bytes_since`), against a budget of 64 kB/s per client.
#[test]
#[ignore = "a measurement: run by hand, see the notes"]
fn keyframe_bytes_per_client_at_scale() {
    const BUDGET: f64 = 64_000.0;
    eprintln!(
        "| bodies | state | keyframe bytes | bytes per body | kB/s per client (every 2 s) | next keyframe, whole | next keyframe, delta | kB/s per client, the smaller sent | within 64 kB/s: whole, smaller |"
    );
    eprintln!("|---|---|---|---|---|---|---|---|---|");
    for count in [100usize, 1_000, 10_000] {
        for (state, steps, sleep) in [
            ("in motion", 30, false),
            ("at rest", 600, false),
            ("asleep", 600, true),
        ] {
            let mut w = World::new(WorldDef {
                enable_sleep: sleep,
                ..WorldDef::default()
            })
            .unwrap();
            let columns = (count as f32).sqrt().ceil() as usize;
            let ground = w
                .create_body(&BodyDef::fixed(Vec2::new(0.0, -0.5)))
                .unwrap();
            let half = 0.6 * columns as f32 + 2.0;
            let floor = Polygon::new_box(half, 0.5).unwrap().into();
            w.create_shape(ground, &ShapeDef::default(), floor).unwrap();
            for k in 0..count {
                let (i, j) = (k % columns, k / columns);
                let at = Vec2::new(1.2 * i as f32 - 0.6 * columns as f32, 0.6 + 1.1 * j as f32);
                let b = w.create_body(&BodyDef::dynamic(at)).unwrap();
                let shape = if k % 2 == 0 {
                    Polygon::new_box(0.5, 0.5).unwrap().into()
                } else {
                    Circle::new(Vec2::ZERO, 0.5).unwrap().into()
                };
                w.create_shape(b, &ShapeDef::default(), shape).unwrap();
            }
            for _ in 0..steps {
                w.step(1.0 / 60.0).unwrap();
            }
            // Asleep means asleep: a big pile takes longer than 600 steps to come to rest.
            let mut extra = 0;
            while sleep && w.awake_body_count() > 0 && extra < 6_000 {
                w.step(1.0 / 60.0).unwrap();
                extra += 1;
            }
            let keyframe = w.snapshot().to_bytes();
            // The next keyframe, 2 s on, as a change to this one (what a client that
            // acknowledged this one receives).
            for _ in 0..120 {
                w.step(1.0 / 60.0).unwrap();
            }
            let next = w.snapshot();
            let delta = next.to_bytes_since(&keyframe).unwrap();
            assert_eq!(
                WorldSnapshot::bytes_since(&keyframe, &delta).unwrap(),
                next.to_bytes()
            );
            let next_whole = next.to_bytes().len();
            let bytes = keyframe.len() as f64;
            let per_second = bytes / 2.0;
            // The server sends whichever is smaller.
            let sent_per_second = delta.len().min(next_whole) as f64 / 2.0;
            let fits = |rate: f64| if rate <= BUDGET { "yes" } else { "no" };
            eprintln!(
                "| {count} | {state}{} | {bytes:.0} | {:.0} | {:.1} | {next_whole} | {} | {:.1} | {}, {} |",
                if sleep {
                    format!(" ({} steps, {} awake)", steps + extra, w.awake_body_count())
                } else {
                    String::new()
                },
                bytes / w.body_count() as f64,
                per_second / 1000.0,
                delta.len(),
                sent_per_second / 1000.0,
                fits(per_second),
                fits(sent_per_second),
            );
        }
    }
}
