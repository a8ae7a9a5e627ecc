//! Fuzz check: recording bytes altered by someone who knows the format (the checksum is made
//! to match) are either refused or replay, step by step, without panics or NaN.

use crate::scene_building::assert_sane;
use arbitrary::Unstructured;
use physics_core::prelude::*;
use physics_core::world::{Replay, one_way_platforms};

/// A recording of a small world with every kind of call: bodies and shapes created, a joint,
/// impulses, a teleport, a refused call, a snapshot restored, steps under a pre-solve hook
/// and stages run one by one with a filter and a modifier.
fn build_recording() -> Vec<u8> {
    let mut w = World::new(WorldDef::default()).expect("default settings");
    let ground = w
        .create_body(&BodyDef::fixed(Vec2::new(0.0, -0.5)))
        .expect("valid");
    let slab = Polygon::new_box(10.0, 0.5).expect("valid").into();
    let floor = w
        .create_shape(ground, &ShapeDef::default(), slab)
        .expect("valid");
    w.set_pre_solve(Some(one_way_platforms(vec![floor], Vec2::Y)));
    w.start_recording();
    let mut bodies = Vec::new();
    for i in 0..3 {
        let b = w
            .create_body(&BodyDef::dynamic(Vec2::new(0.1 * i as f32, 0.5 + i as f32)))
            .expect("valid");
        let shape = Polygon::new_box(0.5, 0.5).expect("valid").into();
        w.create_shape(b, &ShapeDef::default(), shape)
            .expect("valid");
        bodies.push(b);
    }
    let (la, lb) = w
        .local_anchors(bodies[1], bodies[2], Vec2::new(0.0, 2.0))
        .expect("valid");
    let hinge = JointKind::Revolute(RevoluteJoint::default());
    w.create_joint(&JointDef::new(bodies[1], bodies[2], la, lb, hinge))
        .expect("valid");
    let saved = w.snapshot();
    for step in 0..20 {
        match step {
            3 => w
                .apply_linear_impulse(bodies[0], Vec2::new(1.0, 2.0))
                .expect("valid"),
            5 => {
                let _refused = w.set_linear_velocity(bodies[1], Vec2::NAN);
            }
            8 => w
                .set_transform(bodies[2], Vec2::new(2.0, 3.0), Rot::IDENTITY)
                .expect("valid"),
            12 => w.restore(&saved).expect("valid"),
            _ => {}
        }
        if step % 3 == 0 {
            w.update_pairs_filtered(&mut |a, _| a.index != 2);
            w.collide_modified(&mut |edit| {
                edit.friction = 0.1;
                true
            });
            w.solve(1.0 / 60.0).expect("valid step");
            w.finalize();
        } else {
            w.step(1.0 / 60.0).expect("valid step");
        }
    }
    w.stop_recording().expect("recording").to_bytes()
}

/// The recording's bytes and their inflated content, made once per process.
fn saved_recording() -> &'static (Vec<u8>, Vec<u8>) {
    static SAVED: std::sync::OnceLock<(Vec<u8>, Vec<u8>)> = std::sync::OnceLock::new();
    SAVED.get_or_init(|| {
        let saved = build_recording();
        let content = crate::framed::content(&saved);
        (saved, content)
    })
}

/// Changes up to 8 bytes of a recording's encoded content (positions and values from
/// `data`), deflates it again and fixes the checksum, so only decoding and the snapshots'
/// validation stand between the bytes and a replay. Refused is fine; accepted must replay
/// every step with every body finite. Returns whether the altered bytes were accepted.
pub fn check_recording_bytes(data: &[u8]) -> bool {
    let mut u = Unstructured::new(data);
    let (saved, content) = saved_recording();
    let bytes = crate::framed::altered(saved, content, &mut u);
    let Ok(recording) = Recording::from_bytes(&bytes) else {
        return false;
    };
    let Ok(mut replay) = Replay::new(recording) else {
        return false;
    };
    let mut step = 0;
    while replay.step_forward() {
        step += 1;
        assert_sane(replay.world(), step);
    }
    true
}
