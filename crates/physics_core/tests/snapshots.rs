//! World snapshots: restore + N steps gives the bits of N steps, damaged bytes are errors.

mod support;

use physics_core::position::offset;
use physics_core::position::to_vec2;
use physics_core::prelude::*;
use support::motion_bits;

const DT: f32 = 1.0 / 60.0;

fn add_box(w: &mut World, p: Vec2, hx: f32, hy: f32) -> BodyId {
    let b = w.create_body(&BodyDef::dynamic(p)).unwrap();
    let shape = Polygon::new_box(hx, hy).unwrap().into();
    w.create_shape(b, &ShapeDef::default(), shape).unwrap();
    b
}

/// A 12-row pyramid, a hinged chain with limits and a rain of balls: contacts with
/// warm-start impulses, joints, a sleeping-capable world.
fn scene() -> (World, Vec<BodyId>) {
    let mut w = World::new(WorldDef::default()).unwrap();
    let ground = w
        .create_body(&BodyDef::fixed(Vec2::new(0.0, -1.0)))
        .unwrap();
    let ground_shape = Polygon::new_box(40.0, 1.0).unwrap().into();
    w.create_shape(ground, &ShapeDef::default(), ground_shape)
        .unwrap();
    let mut bodies = Vec::new();
    for row in 0..12 {
        for i in 0..12 - row {
            let x = (i as f32 - (11 - row) as f32 * 0.5) * 1.05;
            bodies.push(add_box(&mut w, Vec2::new(x, 0.5 + row as f32), 0.5, 0.5));
        }
    }
    let mut previous = ground;
    for link in 0..8 {
        let p = Vec2::new(12.0 + link as f32, 10.0);
        let b = add_box(&mut w, p, 0.5, 0.125);
        let (la, lb) = w.local_anchors(previous, b, p - Vec2::X * 0.5).unwrap();
        let hinge = RevoluteJoint {
            lower_angle: -1.0,
            upper_angle: 1.0,
            enable_limit: true,
            ..RevoluteJoint::default()
        };
        let def = JointDef::new(previous, b, la, lb, JointKind::Revolute(hinge));
        w.create_joint(&def).unwrap();
        bodies.push(b);
        previous = b;
    }
    for k in 0..24 {
        let p = Vec2::new(-6.0 + 0.5 * k as f32, 16.0 + 0.7 * k as f32);
        let b = w.create_body(&BodyDef::dynamic(p)).unwrap();
        let ball = Circle::new(Vec2::ZERO, 0.3).unwrap().into();
        w.create_shape(b, &ShapeDef::default(), ball).unwrap();
        bodies.push(b);
    }
    (w, bodies)
}

fn step(w: &mut World, n: usize) {
    for _ in 0..n {
        w.step(DT).unwrap();
    }
}

#[test]
fn restore_then_steps_gives_the_bits_of_the_steps() {
    let (mut w, bodies) = scene();
    step(&mut w, 45);
    assert!(
        w.touching_contact_count() > 50,
        "the scene has settled contacts"
    );
    let bytes = w.snapshot().to_bytes();
    step(&mut w, 90);
    let expected = motion_bits(&w, &bodies);
    let events_after = w.step_count();

    // In place, from bytes.
    w.restore(&WorldSnapshot::from_bytes(&bytes).unwrap())
        .unwrap();
    step(&mut w, 90);
    assert!(
        motion_bits(&w, &bodies) == expected,
        "restored in place: different future"
    );
    assert_eq!(w.step_count(), events_after);

    // Into a new world with other settings: the snapshot brings its own.
    let mut fresh = World::new(WorldDef {
        substep_count: 1,
        ..WorldDef::default()
    })
    .unwrap();
    fresh
        .restore(&WorldSnapshot::from_bytes(&bytes).unwrap())
        .unwrap();
    assert_eq!(fresh.def().substep_count, WorldDef::default().substep_count);
    step(&mut fresh, 90);
    assert!(
        motion_bits(&fresh, &bodies) == expected,
        "restored fresh: different future"
    );

    let per_body = bytes.len() as f64 / w.body_count() as f64;
    eprintln!(
        "snapshot: {} bytes for {} bodies ({per_body:.0} bytes per body), {} contacts, {} joints",
        bytes.len(),
        w.body_count(),
        w.contact_count(),
        w.joint_count()
    );
}

#[test]
fn ids_created_after_the_snapshot_go_stale() {
    let (mut w, bodies) = scene();
    let saved = w.snapshot();
    let late = add_box(&mut w, Vec2::new(30.0, 5.0), 0.5, 0.5);
    w.destroy_body(bodies[0]).unwrap();
    w.restore(&saved).unwrap();
    assert_eq!(w.body_position(late), Err(WorldError::StaleBody(late)));
    assert!(w.body_position(bodies[0]).is_ok(), "destroyed after: back");
    assert_eq!(w.body_count(), bodies.len() + 1);
}

#[test]
fn damaged_bytes_are_errors_not_panics() {
    let (mut w, _) = scene();
    step(&mut w, 20);
    let bytes = w.snapshot().to_bytes();
    let bad = |b: &[u8]| {
        matches!(
            WorldSnapshot::from_bytes(b),
            Err(WorldError::InvalidSnapshot(_))
        )
    };
    assert!(bad(&[]));
    assert!(bad(b"P2DS"));
    assert!(bad(&bytes[..bytes.len() / 2]));
    let mut version = bytes.clone();
    version[4] ^= 0xff;
    assert!(bad(&version));
    let mut tag = bytes.clone();
    tag[0] = b'X';
    assert!(bad(&tag));
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(bad(&longer));
    // Random damage anywhere is caught by the checksum.
    let mut rng = support::Rng::new(7);
    for _ in 0..300 {
        let mut damaged = bytes.clone();
        for _ in 0..1 + rng.next_u64() % 4 {
            let at = 5 + (rng.next_u64() as usize) % (damaged.len() - 5);
            damaged[at] = rng.next_u64() as u8;
        }
        if damaged != bytes {
            assert!(bad(&damaged), "damage went unnoticed");
        }
    }
}

/// Found by the `scene_building` fuzz target: a world's own snapshot did not read back. A
/// polygon was saved as its vertices and rebuilt through `Polygon::from_points`, whose size
/// check then saw only the hull (8.5 mm across) instead of the input that had been accepted
/// (a point welded away made it 10.6 mm). Saved polygons now read back exactly as they were.
#[test]
fn regression_a_welded_polygon_did_not_read_back() {
    let points = [
        Vec2::new(0.0, 0.0),
        Vec2::new(0.006, 0.0),
        Vec2::new(0.0, 0.006),
        Vec2::new(0.0075, -0.0015),
    ];
    let polygon = Polygon::from_points(&points, 0.0).unwrap();
    let mut world = World::new(WorldDef::default()).unwrap();
    let body = world
        .create_body(&BodyDef::dynamic(Vec2::new(0.0, 1.0)))
        .unwrap();
    world
        .create_shape(body, &ShapeDef::default(), polygon.into())
        .unwrap();
    let bytes = world.snapshot().to_bytes();
    let read = WorldSnapshot::from_bytes(&bytes).expect("a world's own snapshot reads back");
    let mut restored = World::new(WorldDef::default()).unwrap();
    restored.restore(&read).unwrap();
    let shape = restored.body_shapes(body).unwrap()[0];
    assert_eq!(restored.shape(shape).unwrap(), &Shape::Polygon(polygon));
}

/// The aim for rollback: well under 200 bytes per body. A settled pyramid is the hard case
/// (three two-point contacts per box); it fits because a recycled contact is saved as its
/// cache and impulses, its manifold rebuilt from the bodies' collide poses.
#[test]
fn a_settled_pile_saves_in_under_200_bytes_per_body() {
    let (mut w, _) = scene();
    step(&mut w, 120);
    assert!(w.touching_contact_count() > 150, "a settled pile");
    let bytes = w.snapshot().to_bytes();
    let per_body = bytes.len() as f64 / w.body_count() as f64;
    assert!(per_body < 200.0, "{per_body:.0} bytes per body");
}

#[test]
fn reading_and_writing_again_gives_the_same_bytes() {
    let (mut w, _) = scene();
    step(&mut w, 60);
    let bytes = w.snapshot().to_bytes();
    let read = WorldSnapshot::from_bytes(&bytes).unwrap();
    assert!(read.to_bytes() == bytes, "the read snapshot encodes alike");
    let mut restored = World::new(WorldDef::default()).unwrap();
    restored.restore(&read).unwrap();
    // Debug prints each float so that it reads back to the same bits.
    assert!(
        format!("{:?}", restored.contact_data()) == format!("{:?}", w.contact_data()),
        "a manifold came back other than saved"
    );
    assert!(
        restored.snapshot().to_bytes() == bytes,
        "so does the restored world"
    );
}

/// A body teleported between a step and the snapshot no longer stands where its contacts'
/// manifolds were recycled; those contacts must be saved whole, not rebuilt at the new pose.
#[test]
fn contacts_of_a_body_moved_after_the_step_restore_exactly() {
    let (mut w, bodies) = scene();
    step(&mut w, 60);
    let moved = bodies[40];
    let xf = w.body_transform(moved).unwrap();
    w.set_transform(moved, offset(xf.p, Vec2::new(0.01, 0.0)), xf.q)
        .unwrap();
    let bytes = w.snapshot().to_bytes();
    let contacts = format!("{:?}", w.contact_data());
    step(&mut w, 60);
    let expected = motion_bits(&w, &bodies);
    w.restore(&WorldSnapshot::from_bytes(&bytes).unwrap())
        .unwrap();
    // Debug prints each float so that it reads back to the same bits.
    assert!(
        format!("{:?}", w.contact_data()) == contacts,
        "a manifold came back other than saved"
    );
    step(&mut w, 60);
    assert!(
        motion_bits(&w, &bodies) == expected,
        "different future after the move"
    );
}

/// Pair finding reads the shapes' filters from an index built when shapes are created; a
/// world restored from a snapshot rebuilds it, so a box whose filter ignores the ground still
/// falls through and a plain box still lands, in a world that never created either shape.
#[test]
fn restored_world_keeps_shape_filters_for_pair_finding() {
    let mut w = World::new(WorldDef::default()).unwrap();
    let ground = w
        .create_body(&BodyDef::fixed(Vec2::new(0.0, -1.0)))
        .unwrap();
    let ground_shape = Polygon::new_box(20.0, 1.0).unwrap().into();
    w.create_shape(ground, &ShapeDef::default(), ground_shape)
        .unwrap();
    let plain = add_box(&mut w, Vec2::new(-2.0, 1.0), 0.5, 0.5);
    let ghost = w
        .create_body(&BodyDef::dynamic(Vec2::new(2.0, 1.0)))
        .unwrap();
    let ignores_ground = ShapeDef {
        filter: Filter {
            mask_bits: 0,
            ..Default::default()
        },
        ..Default::default()
    };
    w.create_shape(
        ghost,
        &ignores_ground,
        Polygon::new_box(0.5, 0.5).unwrap().into(),
    )
    .unwrap();
    let snapshot = w.snapshot();

    let mut restored = World::new(WorldDef::default()).unwrap();
    restored.restore(&snapshot).unwrap();
    for _ in 0..120 {
        restored.step(DT).unwrap();
    }
    // Two seconds of free fall is 19.6 m; resting on the ground leaves the centre at 0.5 m
    // (minus the contact slop).
    let ghost_y = to_vec2(restored.body_position(ghost).unwrap()).y;
    let plain_y = to_vec2(restored.body_position(plain).unwrap()).y;
    assert!(ghost_y < -10.0, "the filtered box fell through: {ghost_y}");
    assert!(
        (plain_y - 0.5).abs() < 0.02,
        "the plain box rests: {plain_y}"
    );
}

/// With exact contact islands on, restoring still gives the bits of the steps, in place and
/// in a fresh world: the solve's active sets start each step from the warm-start impulses the
/// snapshot holds, never from what a solver kept of another step. A small pyramid (one island
/// of 21 boxes) with balls raining onto it, saved while they land.
#[test]
fn restore_then_steps_gives_the_bits_of_the_steps_with_exact_contact_islands() {
    let mut w = World::new(WorldDef {
        exact_contact_island_bodies: 64,
        ..WorldDef::default()
    })
    .unwrap();
    let ground = w
        .create_body(&BodyDef::fixed(Vec2::new(0.0, -1.0)))
        .unwrap();
    let ground_shape = Polygon::new_box(40.0, 1.0).unwrap().into();
    w.create_shape(ground, &ShapeDef::default(), ground_shape)
        .unwrap();
    let mut bodies = Vec::new();
    for row in 0..6 {
        for i in 0..6 - row {
            let x = (i as f32 - (5 - row) as f32 * 0.5) * 1.02;
            bodies.push(add_box(&mut w, Vec2::new(x, 0.5 + row as f32), 0.5, 0.5));
        }
    }
    for k in 0..10 {
        let p = Vec2::new(-2.0 + 0.45 * k as f32, 7.0 + 0.4 * k as f32);
        let b = w.create_body(&BodyDef::dynamic(p)).unwrap();
        let ball = Circle::new(Vec2::ZERO, 0.25).unwrap().into();
        w.create_shape(b, &ShapeDef::default(), ball).unwrap();
        bodies.push(b);
    }
    step(&mut w, 50);
    let bytes = w.snapshot().to_bytes();
    step(&mut w, 60);
    let expected = motion_bits(&w, &bodies);
    w.restore(&WorldSnapshot::from_bytes(&bytes).unwrap())
        .unwrap();
    step(&mut w, 60);
    assert!(
        motion_bits(&w, &bodies) == expected,
        "restored in place: different future"
    );
    let mut fresh = World::new(WorldDef::default()).unwrap();
    fresh
        .restore(&WorldSnapshot::from_bytes(&bytes).unwrap())
        .unwrap();
    assert_eq!(fresh.def().exact_contact_island_bodies, 64);
    step(&mut fresh, 60);
    assert!(
        motion_bits(&fresh, &bodies) == expected,
        "restored fresh: different future"
    );
}

/// A keyframe, then two seconds of a falling rain and a new body: the delta against the
/// keyframe rebuilds the new snapshot's bytes exactly, and a world restored from it steps on
/// to the same bits as the original.
#[test]
fn a_delta_rebuilds_the_snapshot_bytes_and_the_steps_after_it() {
    let (mut w, bodies) = scene();
    step(&mut w, 60);
    let keyframe = w.snapshot().to_bytes();
    step(&mut w, 60);
    // A body created after the keyframe shifts every record behind it in the bytes.
    add_box(&mut w, Vec2::new(-20.0, 4.0), 0.4, 0.4);
    step(&mut w, 60);
    let now = w.snapshot();
    let delta = now.to_bytes_since(&keyframe).unwrap();
    assert_eq!(
        WorldSnapshot::bytes_since(&keyframe, &delta).unwrap(),
        now.to_bytes()
    );
    let mut restored = World::new(WorldDef::default()).unwrap();
    restored
        .restore(&WorldSnapshot::from_bytes_since(&keyframe, &delta).unwrap())
        .unwrap();
    step(&mut w, 60);
    step(&mut restored, 60);
    assert_eq!(motion_bits(&restored, &bodies), motion_bits(&w, &bodies));
    assert_eq!(restored.state_hash(), w.state_hash());
}

/// Nothing a sleeping body holds changes while it sleeps, so two seconds after a keyframe of
/// a world asleep the delta carries little more than the step count: under 5 % of the
/// keyframe (it measured 0.3 %; every record sent again would cost 100 %).
#[test]
fn a_world_asleep_since_the_keyframe_costs_a_small_delta() {
    // Rows of boxes and balls dropped on the ground, as a level's loose props.
    let mut w = World::new(WorldDef::default()).unwrap();
    let ground = w.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
    let floor = Polygon::new_box(30.0, 0.5).unwrap().into();
    w.create_shape(ground, &ShapeDef::default(), floor).unwrap();
    for k in 0..200 {
        let at = Vec2::new(1.2 * (k % 40) as f32 - 24.0, 1.2 + 1.1 * (k / 40) as f32);
        add_box(&mut w, at, 0.45, 0.45);
    }
    let mut steps = 0;
    while w.awake_body_count() > 0 {
        step(&mut w, 60);
        steps += 60;
        assert!(steps < 3_600, "the scene falls asleep within a minute");
    }
    let keyframe = w.snapshot().to_bytes();
    step(&mut w, 120);
    let delta = w.snapshot().to_bytes_since(&keyframe).unwrap();
    assert!(
        delta.len() * 20 < keyframe.len(),
        "delta {} bytes, keyframe {} bytes",
        delta.len(),
        keyframe.len()
    );
}

/// A delta applied to another keyframe than its own, or damaged, is an error and nothing else.
#[test]
fn a_delta_against_another_keyframe_or_damaged_is_refused() {
    let (mut w, _) = scene();
    step(&mut w, 30);
    let first = w.snapshot().to_bytes();
    step(&mut w, 30);
    let second = w.snapshot().to_bytes();
    step(&mut w, 30);
    let delta = w.snapshot().to_bytes_since(&second).unwrap();
    assert!(matches!(
        WorldSnapshot::from_bytes_since(&first, &delta),
        Err(WorldError::InvalidSnapshot(why)) if why.contains("another keyframe")
    ));
    for cut in [0, 4, 12, delta.len() / 2, delta.len() - 1] {
        assert!(WorldSnapshot::from_bytes_since(&second, &delta[..cut]).is_err());
    }
    let mut flipped = delta.clone();
    flipped[20] ^= 0x01;
    assert!(WorldSnapshot::bytes_since(&second, &flipped).is_err());
    // The base itself must be snapshot bytes.
    assert!(w.snapshot().to_bytes_since(&delta).is_err());
}
