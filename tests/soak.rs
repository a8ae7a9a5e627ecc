//! Soak test, run by hand (ignored by default; about 13 minutes at the test profile's
//! optimisation on two busy cores):
//!
//! ```sh
//! cargo test --test soak -- --ignored --nocapture
//! ```
//!
//! The rain scene for a million steps, with the rain kept falling: every 500 steps the 20
//! dynamic bodies next in turn are destroyed and created again at the top, so slots, contacts
//! and broadphase proxies churn all the way through. Checked throughout: no NaN, no body
//! outside the walled box, and the process's resident memory flat after warm-up.

use physics2d_demos::physics_core::prelude::*;
use physics2d_demos::scene;

const STEPS: u64 = 1_000_000;
const WARM_UP: u64 = 50_000;
const CHURN_EVERY: u64 = 500;
const CHURN_COUNT: usize = 20;

/// Resident set size in bytes (Linux), or None elsewhere.
fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

#[test]
#[ignore = "a million steps: run by hand, see the file's notes"]
fn rain_for_a_million_steps_stays_finite_bounded_and_flat_in_memory() {
    let s = scene("shape_rain").unwrap();
    let mut built = s.build(WorldDef::default()).unwrap();
    let world = &mut built.world;
    let dynamic: Vec<usize> = (0..s.bodies.len())
        .filter(|&i| s.bodies[i].body_type == BodyType::Dynamic)
        .collect();
    let mut ids = built.bodies.clone();
    let mut next = 0;
    let mut warm_memory = None;
    let mut peak_after_warm_up = 0;
    let started = std::time::Instant::now();
    for step in 1..=STEPS {
        world.step(s.dt).unwrap();
        if step % CHURN_EVERY == 0 {
            for _ in 0..CHURN_COUNT {
                let index = dynamic[next % dynamic.len()];
                next += 1;
                world.destroy_body(ids[index]).unwrap();
                let desc = &s.bodies[index];
                let x = -21.75 + 1.5 * (next % 30) as f32;
                let body = world
                    .create_body(&BodyDef::dynamic(Vec2::new(x, 60.0)))
                    .unwrap();
                for shape in &desc.shapes {
                    world
                        .create_shape(body, &ShapeDef::default(), shape.shape)
                        .unwrap();
                }
                ids[index] = body;
            }
        }
        if step % 1000 == 0 {
            for &id in &ids {
                let xf = world.body_transform(id).unwrap();
                let v = world.linear_velocity(id).unwrap();
                assert!(
                    xf.is_valid() && v.is_finite(),
                    "step {step}: {id:?} at {xf:?} moving {v:?}"
                );
                assert!(
                    xf.p.x.abs() < 41.0 && xf.p.y > -2.0 && xf.p.y < 100.0,
                    "step {step}: {id:?} left the box: {:?}",
                    xf.p
                );
            }
            if let Some(rss) = resident_bytes() {
                if step == WARM_UP {
                    warm_memory = Some(rss);
                } else if step > WARM_UP {
                    peak_after_warm_up = peak_after_warm_up.max(rss);
                }
            }
        }
        if step % 100_000 == 0 {
            eprintln!(
                "step {step}: {:.0} s, {} bodies, {} contacts, resident {:?} MB",
                started.elapsed().as_secs_f32(),
                world.body_count(),
                world.contact_count(),
                resident_bytes().map(|b| b / (1 << 20))
            );
        }
    }
    assert_eq!(world.body_count(), s.bodies.len());
    if let Some(warm) = warm_memory {
        // The world's arrays reach their size during warm-up; allow 4 MB of allocator slack.
        assert!(
            peak_after_warm_up <= warm + (4 << 20),
            "resident memory grew from {warm} to {peak_after_warm_up} bytes after warm-up"
        );
    }
}
