//! Recording a world and replaying it: a run with many random edits each frame, a pre-solve
//! hook, a contact filter and a contact modifier, replays to the same bits; the bytes survive
//! a round trip; damaged or cut bytes are an error and nothing else.

mod support;

use physics_core::position::to_vec2;
use physics_core::prelude::*;
use physics_core::world::{Replay, one_way_platforms};
use support::Rng;

const DT: f32 = 1.0 / 60.0;

/// A ground with a one-way platform over it, a few boxes, balls and a hanging chain.
fn scene() -> (World, Vec<BodyId>, ShapeId) {
    let mut w = World::new(WorldDef::default()).unwrap();
    let ground = w
        .create_body(&BodyDef::fixed(Vec2::new(0.0, -1.0)))
        .unwrap();
    let flat = Polygon::new_box(20.0, 1.0).unwrap().into();
    w.create_shape(ground, &ShapeDef::default(), flat).unwrap();
    let ledge = w.create_body(&BodyDef::fixed(Vec2::new(4.0, 3.0))).unwrap();
    let board = Polygon::new_box(2.0, 0.1).unwrap().into();
    let platform = w.create_shape(ledge, &ShapeDef::default(), board).unwrap();
    w.set_pre_solve(Some(one_way_platforms(vec![platform], Vec2::Y)));
    let mut bodies = Vec::new();
    for k in 0..12 {
        let at = Vec2::new(-6.0 + 1.1 * k as f32, 0.5 + (k % 3) as f32 * 1.2);
        let b = w.create_body(&BodyDef::dynamic(at)).unwrap();
        let shape = if k % 2 == 0 {
            Polygon::new_box(0.5, 0.5).unwrap().into()
        } else {
            Circle::new(Vec2::ZERO, 0.4).unwrap().into()
        };
        w.create_shape(b, &ShapeDef::default(), shape).unwrap();
        bodies.push(b);
    }
    let mut last = ground;
    for k in 0..6 {
        let at = Vec2::new(-10.0, 8.0 - 0.6 * k as f32);
        let link = w.create_body(&BodyDef::dynamic(at)).unwrap();
        let capsule = Capsule::new(Vec2::new(0.0, -0.25), Vec2::new(0.0, 0.25), 0.1).unwrap();
        w.create_shape(link, &ShapeDef::default(), capsule.into())
            .unwrap();
        let pin = at + Vec2::new(0.0, 0.3);
        let (la, lb) = w.local_anchors(last, link, pin).unwrap();
        let revolute = JointKind::Revolute(RevoluteJoint::default());
        w.create_joint(&JointDef::new(last, link, la, lb, revolute))
            .unwrap();
        bodies.push(link);
        last = link;
    }
    (w, bodies, platform)
}

/// One frame of a game's edits, chosen by `rng`: several calls, some of them refused (stale
/// ids, NaN values), then a step, or the four stages with a filter and a modifier.
fn frame(
    w: &mut World,
    rng: &mut Rng,
    bodies: &mut Vec<BodyId>,
    saved: &mut Option<WorldSnapshot>,
) {
    for _ in 0..1 + rng.next_u64() % 4 {
        let pick =
            |rng: &mut Rng, bodies: &[BodyId]| bodies[(rng.next_u64() as usize) % bodies.len()];
        match rng.next_u64() % 16 {
            0 => {
                let at = rng.vec(6.0) + Vec2::new(0.0, 8.0);
                let b = w.create_body(&BodyDef::dynamic(at)).unwrap();
                w.create_shape(b, &ShapeDef::default(), rng.shape())
                    .unwrap();
                bodies.push(b);
            }
            1 if bodies.len() > 4 => {
                let b = bodies.swap_remove((rng.next_u64() as usize) % bodies.len());
                w.destroy_body(b).unwrap();
                // Refused: already gone.
                assert!(w.destroy_body(b).is_err());
            }
            2 => {
                let b = pick(rng, bodies);
                let _ = w.set_linear_velocity(b, rng.vec(4.0));
            }
            3 => {
                let b = pick(rng, bodies);
                let _ = w.apply_linear_impulse_at_point(b, rng.vec(3.0), rng.vec(5.0));
            }
            4 => {
                let b = pick(rng, bodies);
                let _ =
                    w.set_transform(b, rng.vec(6.0) + Vec2::new(0.0, 6.0), Rot::from_angle(1.0));
            }
            5 => {
                let b = pick(rng, bodies);
                let _ = w.apply_force(b, rng.vec(50.0));
                let _ = w.apply_torque(b, rng.range(-5.0, 5.0));
            }
            6 => {
                // Refused: NaN.
                let b = pick(rng, bodies);
                assert!(w.set_linear_velocity(b, Vec2::NAN).is_err());
            }
            7 => {
                let _ = w.explode(rng.vec(5.0), 3.0, 2.0, &QueryFilter::default());
            }
            8 => {
                let b = pick(rng, bodies);
                if let Some(&s) = w.body_shapes(b).unwrap().first() {
                    let _ = w.set_shape_material(s, rng.range(0.0, 1.0), rng.range(0.0, 0.5));
                    let _ = w.set_shape_density(s, rng.range(0.5, 3.0));
                }
            }
            9 => {
                let b = pick(rng, bodies);
                if let Some(&s) = w.body_shapes(b).unwrap().first() {
                    let _ = w.set_shape_contact_hooks(s, rng.next_u64().is_multiple_of(2));
                }
            }
            10 => {
                let (a, b) = (pick(rng, bodies), pick(rng, bodies));
                if a != b {
                    let at = to_vec2(w.body_position(a).unwrap());
                    let (la, lb) = w.local_anchors(a, b, at).unwrap();
                    let length = at.distance(to_vec2(w.body_position(b).unwrap())).max(0.1);
                    let kind = JointKind::Distance(DistanceJoint::rigid(length));
                    let _ = w.create_joint(&JointDef::new(a, b, la, lb, kind));
                }
            }
            11 => {
                let b = pick(rng, bodies);
                let _ = w.set_gravity_scale(b, rng.range(-0.5, 2.0));
                let _ = w.set_awake(b, true);
            }
            12 => *saved = Some(w.snapshot()),
            13 => {
                if let Some(s) = saved.take() {
                    w.restore(&s).unwrap();
                    bodies.retain(|&b| w.body_position(b).is_ok());
                }
            }
            14 => {
                let b = pick(rng, bodies);
                let _ = w.set_mass_data(
                    b,
                    Some(MassData {
                        mass: rng.range(0.5, 4.0),
                        center: Vec2::ZERO,
                        rotational_inertia: rng.range(0.1, 1.0),
                    }),
                );
            }
            _ => {
                let def = WorldDef {
                    gravity: Vec2::new(rng.range(-2.0, 2.0), -10.0),
                    ..*w.def()
                };
                w.set_def(def).unwrap();
            }
        }
    }
    if rng.next_u64().is_multiple_of(4) {
        // The stages one by one, as a host with its own hooks runs them: the filter refuses
        // every pair whose first shape has an odd slot, the modifier makes every hooked
        // contact slippery and turns every third off.
        w.update_pairs_filtered(&mut |a, _| a.index % 2 == 0);
        w.collide_modified(&mut |edit| {
            edit.friction = 0.05;
            edit.tangent_speed = 0.5;
            edit.shape_b.index % 3 != 0
        });
        w.solve(DT).unwrap();
        w.finalize();
    } else {
        w.step(DT).unwrap();
    }
}

/// Runs 600 frames (10 s) from `seed`, recording from frame `start` on; returns the
/// recording and the state hash after each recorded frame.
fn recorded_run(seed: u64, start: usize) -> (Recording, Vec<u64>) {
    let (mut w, mut bodies, _) = scene();
    let mut rng = Rng::new(seed);
    let mut saved = None;
    let mut hashes = Vec::new();
    for k in 0..600 {
        if k == start {
            w.start_recording();
        }
        frame(&mut w, &mut rng, &mut bodies, &mut saved);
        if k >= start {
            hashes.push(w.state_hash());
        }
    }
    let recording = w.stop_recording().expect("recording");
    assert!(w.recording().is_none());
    (recording, hashes)
}

#[test]
fn ten_seconds_of_random_edits_replay_to_the_same_bits() {
    for (seed, start) in [(1, 0), (2, 0), (3, 170)] {
        let (recording, hashes) = recorded_run(seed, start);
        assert_eq!(recording.step_count(), hashes.len() as u64);
        let replayed = recording.replay().unwrap();
        assert_eq!(
            replayed.state_hash(),
            *hashes.last().unwrap(),
            "seed {seed}: the replay ended elsewhere"
        );
        // Stepping back: the state after any step is a shorter replay.
        for steps in [1, 77, 301, hashes.len() as u64 - 1] {
            let at = recording.replay_steps(steps).unwrap();
            assert_eq!(
                at.state_hash(),
                hashes[steps as usize - 1],
                "seed {seed}: step {steps}"
            );
        }
    }
}

/// The host's decisions matter to this run: without the recorded hook, filter and modifier
/// answers a replay would part from the run. (Guards the test above against a scene where
/// they change nothing.)
#[test]
fn the_hooks_decisions_change_the_run() {
    let (_, hashes) = recorded_run(1, 0);
    let (mut w, mut bodies, _) = scene();
    w.set_pre_solve(None);
    let mut rng = Rng::new(1);
    let mut saved = None;
    for _ in 0..600 {
        frame(&mut w, &mut rng, &mut bodies, &mut saved);
    }
    assert_ne!(w.state_hash(), *hashes.last().unwrap());
}

/// A viewer's way through a recording: forward a step at a time meets every recorded state,
/// and seeking back lands on the state of that step.
#[test]
fn a_replay_steps_forward_and_back_through_every_recorded_state() {
    let (recording, hashes) = recorded_run(7, 40);
    let mut replay = Replay::new(recording).unwrap();
    for (k, &hash) in hashes.iter().enumerate() {
        assert!(replay.step_forward(), "the recording ended at step {k}");
        assert_eq!(replay.world().state_hash(), hash, "step {}", k + 1);
    }
    assert!(!replay.step_forward());
    assert_eq!(replay.step(), hashes.len() as u64);
    for back in [300, 299, 1, 450] {
        replay.seek(back).unwrap();
        assert_eq!(
            replay.world().state_hash(),
            hashes[back as usize - 1],
            "seek {back}"
        );
    }
}

#[test]
fn a_recording_read_back_from_bytes_replays_alike() {
    let (recording, hashes) = recorded_run(4, 20);
    let bytes = recording.to_bytes();
    let read = Recording::from_bytes(&bytes).unwrap();
    assert_eq!(read.call_count(), recording.call_count());
    assert_eq!(read.replay().unwrap().state_hash(), *hashes.last().unwrap());
}

#[test]
fn damaged_or_cut_recordings_are_refused() {
    let (recording, _) = recorded_run(5, 300);
    let bytes = recording.to_bytes();
    let refused = |b: &[u8]| {
        matches!(
            Recording::from_bytes(b),
            Err(WorldError::InvalidRecording(_))
        )
    };
    // Cut anywhere: the tag, the version, the checksum, the body.
    for len in [0, 3, 4, 5, 12, 13, bytes.len() / 2, bytes.len() - 1] {
        assert!(refused(&bytes[..len]), "cut at {len}");
    }
    // One byte changed anywhere after the tag.
    let mut rng = Rng::new(9);
    for _ in 0..200 {
        let mut damaged = bytes.clone();
        let at = 4 + (rng.next_u64() as usize) % (bytes.len() - 4);
        damaged[at] ^= 1 + (rng.next_u64() % 255) as u8;
        assert!(
            Recording::from_bytes(&damaged).is_err(),
            "byte {at} changed and the recording was accepted"
        );
    }
    // A snapshot's bytes are not a recording.
    assert!(refused(&recording.start().to_bytes()));
}

/// Recording costs nothing it should not: a world that never records steps to the bits
/// of one that records.
#[test]
fn recording_changes_no_bits() {
    let run = |record: bool| {
        let (mut w, mut bodies, _) = scene();
        if record {
            w.start_recording();
        }
        let mut rng = Rng::new(6);
        let mut saved = None;
        for _ in 0..300 {
            frame(&mut w, &mut rng, &mut bodies, &mut saved);
        }
        w.state_hash()
    };
    assert_eq!(run(true), run(false));
}
