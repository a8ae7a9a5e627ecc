//! Bodies and their shapes: destroying a body destroys its shapes and contacts, several shapes
//! make one rigid body, a body that swaps its only shape lands on the one it kept, and the
//! motion getters agree, and prefetching a stale or unknown body changes nothing.

mod support;

use physics_core::position::to_position;
use physics_core::position::to_vec2;
use physics_core::prelude::*;
use support::{DT, ground, unit_box, world};

#[test]
fn destroying_a_body_destroys_its_shapes_and_contacts() {
    let mut w = world();
    let g = ground(&mut w);
    let a = unit_box(&mut w, Vec2::new(0.0, 0.5));
    let b = unit_box(&mut w, Vec2::new(3.0, 0.5));
    for _ in 0..10 {
        w.step(DT).unwrap();
    }
    assert_eq!(w.touching_contact_count(), 2);
    let shapes = w.shape_count();
    w.destroy_body(a).unwrap();
    assert_eq!(w.shape_count(), shapes - 1);
    assert_eq!(
        w.contact_count(),
        1,
        "only b's contact with the ground remains"
    );
    // The end of the touching contact is reported with the next step's events.
    w.step(DT).unwrap();
    assert_eq!(w.end_contact_events().len(), 1, "a touching contact ended");
    for _ in 0..60 {
        w.step(DT).unwrap();
    }
    // Nothing else was disturbed: b still rests on the ground.
    assert!((to_vec2(w.body_position(b).unwrap()) - Vec2::new(3.0, 0.5)).length() < 0.01);
    assert!(w.body_exists(g));
}

#[test]
fn several_shapes_make_one_rigid_body_with_combined_mass() {
    let mut w = world();
    let b = w.create_body(&BodyDef::dynamic(Vec2::ZERO)).unwrap();
    for x in [-1.0f32, 1.0] {
        let part = Polygon::new_offset_box(0.5, 0.5, Vec2::new(x, 0.0), Rot::IDENTITY).unwrap();
        w.create_shape(b, &ShapeDef::default(), part.into())
            .unwrap();
    }
    let m = w.body_mass_data(b).unwrap();
    assert!((m.mass - 2.0).abs() < 1e-5);
    assert!(m.center.length() < 1e-6);
    // Two unit boxes 1 m from the centre: 2 * (1/6 + 1) by the parallel axis theorem.
    assert!((m.rotational_inertia - 2.0 * (1.0 / 6.0 + 1.0)).abs() < 1e-4);
    let first = w.body_shapes(b).unwrap()[0];
    w.destroy_shape(first).unwrap();
    let m = w.body_mass_data(b).unwrap();
    assert!((m.mass - 1.0).abs() < 1e-5 && (m.center.x - 1.0).abs() < 1e-5);
}

#[test]
fn a_body_that_swaps_its_only_shape_lands_on_the_one_it_kept() {
    // The finalize of every step reaches a one-shape body's shape through a slot kept beside
    // the shape list: after shapes come and go, and after a restore, it must be the shape
    // the body has now, or the body's broadphase box stops following it and it falls through
    // the ground (or, pointing at a freed slot, the step panics).
    let mut w = world();
    ground(&mut w);
    let body = w
        .create_body(&BodyDef::dynamic(Vec2::new(0.0, 4.0)))
        .unwrap();
    let first = w
        .create_shape(
            body,
            &ShapeDef::default(),
            Polygon::new_box(0.5, 0.5).unwrap().into(),
        )
        .unwrap();
    let slab: Shape = Polygon::new_box(1.0, 0.25).unwrap().into();
    w.create_shape(body, &ShapeDef::default(), slab).unwrap();
    w.destroy_shape(first).unwrap();
    for _ in 0..30 {
        w.step(DT).unwrap();
    }
    let saved = w.snapshot();
    w.restore(&saved).unwrap();
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    let y = to_vec2(w.body_position(body).unwrap()).y;
    // Resting on the ground (top at y = 0) on the 0.25 m half-height slab, sunk at most the
    // contact slop (5 mm) and a little solver softness.
    assert!(
        (y - 0.25).abs() < 0.01,
        "the slab rests on the ground: y = {y}"
    );
}

#[test]
fn body_motion_reads_what_the_single_getters_read() {
    let mut w = world();
    ground(&mut w);
    let body = unit_box(&mut w, Vec2::new(0.2, 3.0));
    w.set_angular_velocity(body, 2.0).unwrap();
    for _ in 0..20 {
        w.step(DT).unwrap();
    }
    let motion = w.body_motion(body).unwrap();
    assert_eq!(motion.transform, w.body_transform(body).unwrap());
    assert_eq!(motion.linear_velocity, w.linear_velocity(body).unwrap());
    assert_eq!(motion.angular_velocity, w.angular_velocity(body).unwrap());
    assert_eq!(motion.awake, w.is_awake(body).unwrap());
    assert!(
        motion.linear_velocity.y < -1.0,
        "the box is falling: {motion:?}"
    );
    w.destroy_body(body).unwrap();
    assert!(w.body_motion(body).is_err(), "a stale id is an error");
}

#[test]
fn prefetching_a_stale_or_unknown_body_changes_nothing() {
    // Ids from a bigger world name slots this world never had; a destroyed body's id names
    // a free slot. Asking the cache for either is a hint only: no panic, no effect.
    let mut bigger = world();
    let far: Vec<BodyId> = (0..64)
        .map(|i| unit_box(&mut bigger, Vec2::new(i as f32 * 2.0, 3.0)))
        .collect();
    let mut w = world();
    ground(&mut w);
    let body = unit_box(&mut w, Vec2::new(0.2, 3.0));
    let gone = unit_box(&mut w, Vec2::new(5.0, 3.0));
    w.destroy_body(gone).unwrap();
    for _ in 0..10 {
        w.step(DT).unwrap();
    }
    let before = w.body_motion(body).unwrap();
    for &id in far.iter().chain([&gone, &body]) {
        w.prefetch_body_motion(id);
    }
    assert_eq!(w.body_motion(body).unwrap(), before);
    assert!(
        w.body_motion(gone).is_err(),
        "the destroyed body stays gone"
    );
    assert!(
        w.body_motion(far[63]).is_err(),
        "an id of another world names nothing here"
    );
}

#[test]
fn a_body_def_read_back_creates_the_body_again_as_it_is_now() {
    let mut w = world();
    ground(&mut w);
    let def = BodyDef {
        body_type: BodyType::Dynamic,
        position: to_position(Vec2::new(1.0, 4.0)),
        linear_velocity: Vec2::new(2.0, 0.0),
        angular_velocity: 1.5,
        gravity_scale: 0.5,
        linear_damping: 0.25,
        angular_damping: 0.75,
        bullet: true,
        lock_linear_x: true,
        sleep_threshold: Some(0.2),
        dominance: 3,
        ..BodyDef::default()
    };
    let id = w.create_body(&def).unwrap();
    for _ in 0..20 {
        w.step(DT).unwrap();
    }
    let now = w.body_def(id).unwrap();
    // The settings come back as given; the motion as the steps left it.
    assert_eq!(
        (now.gravity_scale, now.linear_damping, now.angular_damping),
        (0.5, 0.25, 0.75)
    );
    assert!(now.bullet && now.lock_linear_x && !now.lock_linear_y);
    assert_eq!((now.sleep_threshold, now.dominance), (Some(0.2), 3));
    assert_eq!(now.position, w.body_position(id).unwrap());
    assert!(now.position.y < 4.0, "it fell: {:?}", now.position);
    assert_eq!(now.linear_velocity, w.linear_velocity(id).unwrap());
    let copy = w.create_body(&now).unwrap();
    assert_eq!(w.body_def(copy).unwrap(), now);
    w.destroy_body(copy).unwrap();
    assert_eq!(w.body_def(copy).err(), Some(WorldError::StaleBody(copy)));
}
