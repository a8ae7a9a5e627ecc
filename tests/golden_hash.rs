//! Golden hashes: the exact bits a few scenes reach, so any change to the simulation's
//! numbers is noticed. Scenes with hinged chains, ragdolls, a vehicle and stacks cover
//! contacts, joints (with limits, whose angles come from the engine's own `atan2`), motors
//! and sleeping.
//!
//! The hashes hold on every platform whose `f32` arithmetic is IEEE 754 (all that Rust
//! supports with SSE2 or NEON): the step uses no platform maths library and no fused
//! multiply-add. When a change is meant to alter the simulation, run
//! `cargo test --test golden_hash` and copy the hashes the failure prints into `GOLDEN`,
//! saying in the commit message why the numbers changed.

use physics2d_demos::physics_core::prelude::*;
use physics2d_demos::scene;

/// Steps per scene: four seconds at 60 Hz, long enough for contacts, limits and sleep.
const STEPS: usize = 240;

/// (scene, hash of every body's pose and velocity bits after `STEPS` steps).
const GOLDEN: &[(&str, u64)] = &[
    ("bridge", 0xeef076a08dc91f94),
    ("ragdoll", 0x6b02ae7ce72bf024),
    ("rope", 0x7f7fdd32f20cbbd9),
    ("car", 0x15099220a4062061),
    ("pyramid", 0x6118ef58b459d541),
    ("shape_rain", 0xb37be8e972bd5ce9),
];

/// FNV-1a over the bits of every body's position, rotation, velocity and spin.
fn state_hash(world: &World, bodies: &[BodyId]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for &b in bodies {
        let xf = world.body_transform(b).unwrap();
        let v = world.linear_velocity(b).unwrap();
        let w = world.angular_velocity(b).unwrap();
        for f in [xf.p.x, xf.p.y, xf.q.c, xf.q.s, v.x, v.y, w] {
            for byte in f.to_bits().to_le_bytes() {
                hash ^= byte as u64;
                hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
    }
    hash
}

fn run(name: &str) -> u64 {
    let s = scene(name).unwrap();
    let mut built = s.build(WorldDef::default()).unwrap();
    for _ in 0..STEPS {
        built.world.step(s.dt).unwrap();
    }
    state_hash(&built.world, &built.bodies)
}

#[test]
fn scenes_reach_their_golden_hashes() {
    let found: Vec<(&str, u64)> = GOLDEN.iter().map(|&(name, _)| (name, run(name))).collect();
    let table: String = found
        .iter()
        .map(|(name, hash)| format!("    (\"{name}\", {hash:#018x}),\n"))
        .collect();
    assert!(
        found.iter().zip(GOLDEN).all(|(f, g)| f.1 == g.1),
        "the simulation's numbers changed. If that is intended, replace GOLDEN in \
         tests/golden_hash.rs with:\n{table}and say why in the commit message."
    );
}

#[test]
fn the_hash_sees_a_one_ulp_change() {
    // The hash must notice the smallest possible difference in one body's state.
    let s = scene("pyramid").unwrap();
    let mut built = s.build(WorldDef::default()).unwrap();
    built.world.step(s.dt).unwrap();
    let before = state_hash(&built.world, &built.bodies);
    let body = built.bodies[built.bodies.len() / 2];
    let v = built.world.linear_velocity(body).unwrap();
    let nudged = Vec2::new(f32::from_bits(v.x.to_bits() ^ 1), v.y);
    built.world.set_linear_velocity(body, nudged).unwrap();
    assert_ne!(state_hash(&built.world, &built.bodies), before);
}
