//! Fuzz check: snapshot bytes altered by someone who knows the format (the checksum is made
//! to match) are either refused or restore a world that steps without panics or NaN.

use crate::scene_building::assert_sane;
use arbitrary::Unstructured;
use physics_core::prelude::*;

/// A small world with every kind of link: a stack on a ground (contacts, static and moving
/// trees), a pendulum (a joint), a sleeping-capable ball; 20 steps in.
fn build_saved_world() -> Vec<u8> {
    let mut w = World::new(WorldDef::default()).expect("default settings");
    let ground = w
        .create_body(&BodyDef::fixed(Vec2::new(0.0, -0.5)))
        .expect("valid");
    let slab = Polygon::new_box(10.0, 0.5).expect("valid").into();
    w.create_shape(ground, &ShapeDef::default(), slab)
        .expect("valid");
    for i in 0..3 {
        let b = w
            .create_body(&BodyDef::dynamic(Vec2::new(0.1 * i as f32, 0.5 + i as f32)))
            .expect("valid");
        let shape = Polygon::new_box(0.5, 0.5).expect("valid").into();
        w.create_shape(b, &ShapeDef::default(), shape)
            .expect("valid");
    }
    let bob = w
        .create_body(&BodyDef::dynamic(Vec2::new(4.0, 3.0)))
        .expect("valid");
    let ball = Circle::new(Vec2::ZERO, 0.3).expect("valid").into();
    w.create_shape(bob, &ShapeDef::default(), ball)
        .expect("valid");
    let (la, lb) = w
        .local_anchors(ground, bob, Vec2::new(3.0, 4.0))
        .expect("valid");
    let hinge = JointKind::Revolute(RevoluteJoint::default());
    w.create_joint(&JointDef::new(ground, bob, la, lb, hinge))
        .expect("valid");
    for _ in 0..20 {
        w.step(1.0 / 60.0).expect("valid step");
    }
    w.snapshot().to_bytes()
}

/// The saved world's snapshot bytes and their inflated state, made once per process: every
/// input alters the same world (the corpus replay checks thousands of inputs).
fn saved_world() -> &'static (Vec<u8>, Vec<u8>) {
    static SAVED: std::sync::OnceLock<(Vec<u8>, Vec<u8>)> = std::sync::OnceLock::new();
    SAVED.get_or_init(|| {
        let saved = build_saved_world();
        let state = crate::framed::content(&saved);
        (saved, state)
    })
}

/// Changes up to 8 bytes of a saved world's encoded state (positions and values from `data`),
/// deflates it again and fixes the checksum, as `WorldSnapshot::to_bytes` would, so only
/// `WorldSnapshot::validate` stands between the bytes and the world, and decodes. Refused is
/// fine; accepted must restore and step 30 times with every body finite. Returns whether the
/// altered bytes were accepted.
pub fn check_snapshot_bytes(data: &[u8]) -> bool {
    let mut u = Unstructured::new(data);
    let (saved, state) = saved_world();
    let bytes = crate::framed::altered(saved, state, &mut u);
    let Ok(snapshot) = WorldSnapshot::from_bytes(&bytes) else {
        return false;
    };
    let mut world = World::new(WorldDef::default()).expect("default settings");
    world
        .restore(&snapshot)
        .expect("a validated snapshot restores");
    for step in 1..=30 {
        world.step(1.0 / 60.0).expect("a step of 1/60 s is valid");
        assert_sane(&world, step);
    }
    true
}
