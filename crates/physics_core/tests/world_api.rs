//! The world's public API: refused calls change nothing, and each documented effect happens.

use physics_core::prelude::*;

const DT: f32 = 1.0 / 60.0;

fn world() -> World {
    World::new(WorldDef::default()).unwrap()
}

fn ground(world: &mut World) -> BodyId {
    let g = world
        .create_body(&BodyDef::fixed(Vec2::new(0.0, -1.0)))
        .unwrap();
    world
        .create_shape(
            g,
            &ShapeDef::default(),
            Polygon::new_box(50.0, 1.0).unwrap().into(),
        )
        .unwrap();
    g
}

fn unit_box(world: &mut World, position: Vec2) -> BodyId {
    unit_box_of(world, position, &ShapeDef::default())
}

/// A dynamic 1 m box at `position` whose shape has `def`'s material, filter and sensor flag.
fn unit_box_of(world: &mut World, position: Vec2, def: &ShapeDef) -> BodyId {
    let b = world.create_body(&BodyDef::dynamic(position)).unwrap();
    world
        .create_shape(b, def, Polygon::new_box(0.5, 0.5).unwrap().into())
        .unwrap();
    b
}

#[test]
fn stale_ids_are_errors_everywhere() {
    let mut w = world();
    let b = unit_box(&mut w, Vec2::ZERO);
    let s = w.body_shapes(b).unwrap()[0];
    w.destroy_body(b).unwrap();
    assert_eq!(w.destroy_body(b), Err(WorldError::StaleBody(b)));
    assert_eq!(w.body_position(b), Err(WorldError::StaleBody(b)));
    assert_eq!(
        w.set_linear_velocity(b, Vec2::X),
        Err(WorldError::StaleBody(b))
    );
    assert_eq!(w.apply_force(b, Vec2::X), Err(WorldError::StaleBody(b)));
    assert_eq!(w.shape(s).err(), Some(WorldError::StaleShape(s)));
    assert_eq!(w.destroy_shape(s), Err(WorldError::StaleShape(s)));
    assert_eq!(
        w.create_shape(
            b,
            &ShapeDef::default(),
            Circle::new(Vec2::ZERO, 1.0).unwrap().into()
        ),
        Err(WorldError::StaleBody(b))
    );
    // A new body reuses the slot with a new generation; the old id stays stale.
    let c = unit_box(&mut w, Vec2::ZERO);
    assert_eq!(c.index, b.index);
    assert!(w.body_exists(c) && !w.body_exists(b));
}

#[test]
fn non_finite_and_negative_inputs_change_nothing() {
    let mut w = world();
    let b = unit_box(&mut w, Vec2::new(1.0, 2.0));
    w.set_linear_velocity(b, Vec2::new(3.0, 0.0)).unwrap();
    let mass = w.body_mass_data(b).unwrap();

    assert!(matches!(
        w.set_linear_velocity(b, Vec2::NAN),
        Err(WorldError::NonFinite(_))
    ));
    assert!(matches!(
        w.set_angular_velocity(b, f32::INFINITY),
        Err(WorldError::NonFinite(_))
    ));
    assert!(matches!(
        w.set_transform(b, Vec2::new(f32::NAN, 0.0), Rot::IDENTITY),
        Err(WorldError::NonFinite(_))
    ));
    assert!(matches!(
        w.apply_linear_impulse(b, Vec2::INFINITY),
        Err(WorldError::NonFinite(_))
    ));
    assert!(matches!(
        w.apply_torque(b, f32::NAN),
        Err(WorldError::NonFinite(_))
    ));
    assert_eq!(w.linear_velocity(b).unwrap(), Vec2::new(3.0, 0.0));
    assert_eq!(w.body_position(b).unwrap(), Vec2::new(1.0, 2.0));

    let bodies = w.body_count();
    assert!(matches!(
        w.create_body(&BodyDef::dynamic(Vec2::new(0.0, f32::NAN))),
        Err(WorldError::NonFinite(_))
    ));
    assert_eq!(w.body_count(), bodies);

    let shapes = w.shape_count();
    let heavy = ShapeDef {
        density: -1.0,
        ..Default::default()
    };
    assert_eq!(
        w.create_shape(b, &heavy, Circle::new(Vec2::ZERO, 1.0).unwrap().into()),
        Err(WorldError::NegativeDensity(-1.0))
    );
    let bad_circle = Shape::Circle(Circle {
        center: Vec2::ZERO,
        radius: -2.0,
    });
    assert!(matches!(
        w.create_shape(b, &ShapeDef::default(), bad_circle),
        Err(WorldError::InvalidShape(ShapeError::InvalidRadius { .. }))
    ));
    assert_eq!(w.shape_count(), shapes);

    let negative = MassData { mass: -5.0, ..mass };
    assert_eq!(
        w.set_mass_data(b, Some(negative)),
        Err(WorldError::InvalidMass("mass"))
    );
    assert_eq!(w.body_mass_data(b).unwrap(), mass);

    assert!(matches!(
        w.step(f32::NAN),
        Err(WorldError::InvalidTimeStep(_))
    ));
    assert!(matches!(w.step(-1.0), Err(WorldError::InvalidTimeStep(_))));
    assert!(
        World::new(WorldDef {
            substep_count: 0,
            ..Default::default()
        })
        .is_err()
    );
}

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
    assert!((w.body_position(b).unwrap() - Vec2::new(3.0, 0.5)).length() < 0.01);
    assert!(w.body_exists(g));
}

#[test]
fn a_game_in_pixels_behaves_like_one_in_metres() {
    // The same drop onto the ground in metres and in pixels (100 per metre): every length,
    // speed and gravity times 100, and the length unit set to 100.
    let run = |unit: f32| {
        let mut w = World::new(WorldDef {
            gravity: Vec2::new(0.0, -10.0 * unit),
            length_units_per_meter: unit,
            ..Default::default()
        })
        .unwrap();
        let g = w
            .create_body(&BodyDef::fixed(Vec2::new(0.0, -unit)))
            .unwrap();
        w.create_shape(
            g,
            &ShapeDef::default(),
            Polygon::new_box(20.0 * unit, unit).unwrap().into(),
        )
        .unwrap();
        let mut bodies = Vec::new();
        for i in 0..3 {
            let b = w
                .create_body(
                    &BodyDef::dynamic(Vec2::new(0.1 * i as f32, 0.6 + 1.05 * i as f32) * unit)
                        .with_angle(0.05),
                )
                .unwrap();
            w.create_shape(
                b,
                &ShapeDef::default(),
                Polygon::new_box(0.5 * unit, 0.5 * unit).unwrap().into(),
            )
            .unwrap();
            bodies.push(b);
        }
        let ball = w
            .create_body(
                &BodyDef::dynamic(Vec2::new(3.0, 4.0) * unit)
                    .with_velocity(Vec2::new(2.0, 0.0) * unit),
            )
            .unwrap();
        let bouncy = ShapeDef {
            restitution: 0.5,
            ..Default::default()
        };
        w.create_shape(
            ball,
            &bouncy,
            Circle::new(Vec2::ZERO, 0.3 * unit).unwrap().into(),
        )
        .unwrap();
        bodies.push(ball);
        for _ in 0..180 {
            w.step(DT).unwrap();
        }
        bodies
            .iter()
            .map(|b| w.body_position(*b).unwrap() / unit)
            .collect::<Vec<_>>()
    };
    let metres = run(1.0);
    let pixels = run(100.0);
    for (m, p) in metres.iter().zip(&pixels) {
        // Same trajectories up to f32 rounding of the scaled numbers: within a millimetre.
        assert!(m.distance(*p) < 1e-3, "metres {m} vs pixels/100 {p}");
    }
}

#[test]
fn resting_bodies_do_not_touch_the_broadphase() {
    // Sleep off: awake resting bodies must already leave the trees alone.
    let mut w = World::new(WorldDef {
        enable_sleep: false,
        ..Default::default()
    })
    .unwrap();
    ground(&mut w);
    for i in 0..5 {
        unit_box(&mut w, Vec2::new(0.0, 0.5 + i as f32));
    }
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    for _ in 0..30 {
        w.step(DT).unwrap();
        assert_eq!(
            w.counters().proxies_queried,
            0,
            "a resting box re-queried the trees"
        );
        assert_eq!(w.counters().manifolds_updated, 5);
    }
}

#[test]
fn impulses_forces_and_torques_change_velocity_by_the_textbook_amounts() {
    let mut w = World::new(WorldDef {
        gravity: Vec2::ZERO,
        ..Default::default()
    })
    .unwrap();
    let b = unit_box(&mut w, Vec2::ZERO);
    let m = w.body_mass_data(b).unwrap();
    assert!((m.mass - 1.0).abs() < 1e-6);
    w.apply_linear_impulse(b, Vec2::new(2.0, 0.0)).unwrap();
    assert!((w.linear_velocity(b).unwrap().x - 2.0).abs() < 1e-6);
    // An impulse at a point off the centre also spins: dw = (r x J) / I.
    w.apply_linear_impulse_at_point(b, Vec2::new(0.0, 1.0), Vec2::new(0.5, 0.0))
        .unwrap();
    let expected_w = 0.5 / m.rotational_inertia;
    assert!((w.angular_velocity(b).unwrap() - expected_w).abs() < 1e-4);
    // A force acts over one step: dv = F dt / m.
    let v0 = w.linear_velocity(b).unwrap();
    w.apply_force(b, Vec2::new(0.0, 60.0)).unwrap();
    w.step(DT).unwrap();
    assert!((w.linear_velocity(b).unwrap().y - (v0.y + 1.0)).abs() < 1e-4);
    // Forces are cleared after the step.
    let v1 = w.linear_velocity(b).unwrap();
    w.step(DT).unwrap();
    assert!((w.linear_velocity(b).unwrap() - v1).length() < 1e-5);
    let w0 = w.angular_velocity(b).unwrap();
    w.apply_torque(b, m.rotational_inertia * 60.0).unwrap();
    w.step(DT).unwrap();
    assert!((w.angular_velocity(b).unwrap() - (w0 + 1.0)).abs() < 1e-3);
}

#[test]
fn gravity_scale_damping_and_fixed_rotation() {
    let mut w = world();
    let floating = unit_box(&mut w, Vec2::new(0.0, 10.0));
    w.set_gravity_scale(floating, 0.0).unwrap();
    let damped = unit_box(&mut w, Vec2::new(5.0, 10.0));
    w.set_gravity_scale(damped, 0.0).unwrap();
    w.set_damping(damped, 1.0, 0.0).unwrap();
    w.set_linear_velocity(damped, Vec2::new(1.0, 0.0)).unwrap();
    let fixed = unit_box(&mut w, Vec2::new(-5.0, 10.0));
    w.set_fixed_rotation(fixed, true).unwrap();
    w.apply_angular_impulse(fixed, 10.0).unwrap();
    for _ in 0..60 {
        w.step(DT).unwrap();
    }
    assert_eq!(w.body_position(floating).unwrap(), Vec2::new(0.0, 10.0));
    // v' = -c v integrates to exp(-1) after 1 s; the implicit update gives (1 + h)^-240.
    let expected = (1.0f32 + 1.0 / 240.0).powi(-240);
    assert!((w.linear_velocity(damped).unwrap().x - expected).abs() < 1e-4);
    assert_eq!(w.angular_velocity(fixed).unwrap(), 0.0);
    assert!(matches!(
        w.set_damping(damped, -1.0, 0.0),
        Err(WorldError::InvalidSetting(_))
    ));
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
fn filters_and_sensors_let_bodies_pass_and_kinematic_bodies_push() {
    let mut w = world();
    ground(&mut w);
    let no_ground = ShapeDef {
        filter: Filter {
            mask_bits: 0,
            ..Default::default()
        },
        ..Default::default()
    };
    let ghost = unit_box_of(&mut w, Vec2::new(-3.0, 0.5), &no_ground);
    let sensing = ShapeDef {
        is_sensor: true,
        ..Default::default()
    };
    let sensor = unit_box_of(&mut w, Vec2::new(3.0, 0.5), &sensing);
    let pusher = w
        .create_body(&BodyDef::kinematic(Vec2::new(-10.0, 0.6)))
        .unwrap();
    w.create_shape(
        pusher,
        &ShapeDef::default(),
        Polygon::new_box(0.5, 0.5).unwrap().into(),
    )
    .unwrap();
    w.set_linear_velocity(pusher, Vec2::new(2.0, 0.0)).unwrap();
    let pushed = unit_box(&mut w, Vec2::new(-7.0, 0.5));
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    assert!(
        w.body_position(ghost).unwrap().y < -3.0,
        "filtered box fell through"
    );
    assert!(
        w.body_position(sensor).unwrap().y < -3.0,
        "sensor box fell through"
    );
    // The kinematic box kept its velocity and pushed the dynamic one ahead of it.
    assert!((w.linear_velocity(pusher).unwrap().x - 2.0).abs() < 1e-6);
    let (kx, px) = (
        w.body_position(pusher).unwrap().x,
        w.body_position(pushed).unwrap().x,
    );
    assert!((kx - (-10.0 + 4.0)).abs() < 1e-3);
    assert!(px > kx + 0.95, "pushed box stays ahead: {px} vs {kx}");
}

/// Two boxes dropped one above the other in `filter`, at `x`; returns (lower, upper).
fn dropped_pair(w: &mut World, x: f32, filter: Filter) -> (BodyId, BodyId) {
    let def = ShapeDef {
        filter,
        ..Default::default()
    };
    (
        unit_box_of(w, Vec2::new(x, 0.6), &def),
        unit_box_of(w, Vec2::new(x, 2.0), &def),
    )
}

#[test]
fn masked_out_shapes_pass_through_each_other_and_a_positive_group_still_meets() {
    // Debris in category 2 masks out its own category: the upper box falls through the lower
    // one onto the ground (pair finding skips the pair in the tree). A team in the same
    // category and mask but a shared positive group collides anyway: its upper box rests on
    // the lower one. Halfway, the world goes through a snapshot's bytes into a fresh world,
    // whose broadphase gets the categories back from the shapes.
    let mut w = world();
    ground(&mut w);
    let debris = Filter {
        category_bits: 2,
        mask_bits: !2,
        group_index: 0,
    };
    let team = Filter {
        group_index: 7,
        ..debris
    };
    let (debris_low, debris_high) = dropped_pair(&mut w, -5.0, debris);
    let (team_low, team_high) = dropped_pair(&mut w, 5.0, team);
    for _ in 0..10 {
        w.step(DT).unwrap();
    }
    let bytes = w.snapshot().to_bytes();
    let mut w = world();
    w.restore(&WorldSnapshot::from_bytes(&bytes).unwrap())
        .unwrap();
    for _ in 0..110 {
        w.step(DT).unwrap();
    }
    let y = |b: BodyId| w.body_position(b).unwrap().y;
    // Resting on the ground (top at 0) within the 5 mm slop; on the teammate, a box higher.
    assert!((y(debris_low) - 0.5).abs() < 0.02, "{}", y(debris_low));
    assert!((y(debris_high) - 0.5).abs() < 0.02, "{}", y(debris_high));
    assert!((y(team_low) - 0.5).abs() < 0.02, "{}", y(team_low));
    assert!((y(team_high) - 1.5).abs() < 0.03, "{}", y(team_high));
}

#[test]
fn the_touching_count_follows_steps_destruction_and_restore() {
    // The count is kept where touching changes, not recounted: it must match the contacts
    // through every way a contact starts or stops touching. (Debug builds, as tests run,
    // also recount inside `touching_contact_count` and assert the two agree.)
    let mut w = world();
    ground(&mut w);
    let column: Vec<BodyId> = (0..4)
        .map(|k| unit_box(&mut w, Vec2::new(0.0, 0.5 + k as f32)))
        .collect();
    let sensing = ShapeDef {
        is_sensor: true,
        ..Default::default()
    };
    let sensor_body = unit_box_of(&mut w, Vec2::new(5.0, 0.3), &sensing);
    // It floats, sunk 0.2 m into the ground.
    w.set_gravity_scale(sensor_body, 0.0).unwrap();
    let mut began = 0;
    for _ in 0..30 {
        w.step(DT).unwrap();
        began += w.begin_contact_events().len() + w.sensor_begin_events().len();
    }
    // Ground and three box-on-box contacts, and the sensor box on the ground.
    assert_eq!(w.touching_contact_count(), 5);
    assert_eq!(began, 5, "each began once");
    let saved = w.snapshot();
    w.destroy_body(column[1]).unwrap();
    assert_eq!(w.touching_contact_count(), 3, "the box's two contacts went");
    w.restore(&saved).unwrap();
    assert_eq!(
        w.touching_contact_count(),
        5,
        "restored with the snapshot's contacts"
    );
    w.destroy_body(column[3]).unwrap();
    assert_eq!(w.touching_contact_count(), 4);
    // The rest stops touching as the boxes fall upwards, apart.
    for (k, &b) in column[..3].iter().enumerate() {
        w.set_gravity_scale(b, -1.0 - k as f32).unwrap();
    }
    for _ in 0..60 {
        w.step(DT).unwrap();
    }
    assert_eq!(
        w.touching_contact_count(),
        1,
        "only the floating sensor box"
    );
}

#[test]
fn the_awake_count_follows_sleep_waking_creation_destruction_settings_and_restore() {
    // The count is kept where a body's awake flag changes, not recounted: it must match the
    // bodies through every way a body falls asleep, wakes, comes or goes. (Debug builds, as
    // tests run, also recount inside `awake_body_count` and assert the two agree.)
    let mut w = world();
    ground(&mut w);
    let left = unit_box(&mut w, Vec2::new(-3.0, 0.5));
    let right = unit_box(&mut w, Vec2::new(3.0, 0.5));
    let carried = unit_box(&mut w, Vec2::new(3.0, 1.5));
    let spinning = w
        .create_body(&BodyDef {
            angular_velocity: 1.0,
            ..BodyDef::kinematic(Vec2::new(0.0, 5.0))
        })
        .unwrap();
    assert_eq!(
        w.awake_body_count(),
        4,
        "three boxes and the kinematic body"
    );
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    assert_eq!(
        w.awake_body_count(),
        1,
        "the boxes slept; the spinning body never rests"
    );
    assert!(!w.is_awake(left).unwrap() && w.is_awake(spinning).unwrap());
    w.set_awake(carried, true).unwrap();
    assert_eq!(
        w.awake_body_count(),
        3,
        "a box wakes with the box it stands on"
    );
    let saved = w.snapshot();
    w.destroy_body(carried).unwrap();
    assert_eq!(w.awake_body_count(), 2);
    w.set_awake(right, false).unwrap();
    assert_eq!(w.awake_body_count(), 1);
    w.restore(&saved).unwrap();
    assert_eq!(
        w.awake_body_count(),
        3,
        "restored with the snapshot's flags"
    );
    let sleeper = w
        .create_body(&BodyDef {
            awake: false,
            ..BodyDef::dynamic(Vec2::new(8.0, 0.5))
        })
        .unwrap();
    w.create_body(&BodyDef::dynamic(Vec2::new(-8.0, 0.5)))
        .unwrap();
    assert_eq!(
        w.awake_body_count(),
        4,
        "created awake counts, created asleep does not"
    );
    let mut no_sleep = *w.def();
    no_sleep.enable_sleep = false;
    w.set_def(no_sleep).unwrap();
    assert_eq!(
        w.awake_body_count(),
        6,
        "every moving body wakes when sleep is off"
    );
    assert!(w.is_awake(sleeper).unwrap() && w.is_awake(left).unwrap());
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
    let y = w.body_position(body).unwrap().y;
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
fn mixing_rules_decide_whether_a_box_slides() {
    // A box of friction 0.1 on a 30 degree ramp of friction 1.0: the geometric mean 0.32 is
    // below tan 30 = 0.58 so it slides; with the max rule (1.0) it holds.
    let slides = |rule: MixRule| {
        let mut w = World::new(WorldDef {
            friction_mixing: rule,
            ..Default::default()
        })
        .unwrap();
        let angle = std::f32::consts::PI / 6.0;
        let ramp = w
            .create_body(&BodyDef::fixed(Vec2::ZERO).with_angle(angle))
            .unwrap();
        let grippy = ShapeDef {
            friction: 1.0,
            ..Default::default()
        };
        w.create_shape(ramp, &grippy, Polygon::new_box(10.0, 0.25).unwrap().into())
            .unwrap();
        let normal = Rot::from_angle(angle).rotate(Vec2::Y);
        let b = w
            .create_body(&BodyDef::dynamic(0.75 * normal).with_angle(angle))
            .unwrap();
        let slippery = ShapeDef {
            friction: 0.1,
            ..Default::default()
        };
        w.create_shape(b, &slippery, Polygon::new_box(0.5, 0.5).unwrap().into())
            .unwrap();
        for _ in 0..60 {
            w.step(DT).unwrap();
        }
        w.body_position(b).unwrap().distance(0.75 * normal) > 0.5
    };
    assert!(slides(MixRule::GeometricMean));
    assert!(!slides(MixRule::Max));
    assert_eq!(MixRule::Average.mix(0.2, 0.6), 0.4);
    assert_eq!(MixRule::Min.mix(0.2, 0.6), 0.2);
}

#[test]
fn aabb_and_ray_queries_find_shapes_through_the_trees() {
    let mut w = world();
    let g = ground(&mut w);
    let boxes: Vec<BodyId> = (0..5)
        .map(|i| unit_box(&mut w, Vec2::new(3.0 * i as f32, 5.0)))
        .collect();
    let found = w.query_aabb(
        &Aabb::new(Vec2::new(2.0, 4.0), Vec2::new(7.0, 6.0)),
        &QueryFilter::default(),
    );
    let expected: Vec<ShapeId> = [boxes[1], boxes[2]]
        .iter()
        .map(|b| w.body_shapes(*b).unwrap()[0])
        .collect();
    assert_eq!(found, expected);
    // A ray down through box 2 stops at its top face, not at the ground below.
    let (shape, hit) = w
        .ray_cast_closest(
            Vec2::new(6.0, 10.0),
            Vec2::new(0.0, -20.0),
            &QueryFilter::default(),
        )
        .unwrap();
    assert_eq!(shape, expected[1]);
    assert!((hit.point.y - 5.5).abs() < 1e-5);
    // Between boxes it reaches the ground's top at y = 0.
    let (shape, hit) = w
        .ray_cast_closest(
            Vec2::new(1.5, 10.0),
            Vec2::new(0.0, -20.0),
            &QueryFilter::default(),
        )
        .unwrap();
    assert_eq!(shape, w.body_shapes(g).unwrap()[0]);
    assert!(hit.point.y.abs() < 1e-5);
}

/// Regression (with Box2D v3's limit): spin was clamped at a quarter turn per substep, four
/// times Box2D's quarter turn per step, so a capsule knocked to 82 rad/s in the spinner
/// turned 0.9 rad in one step and swept an end through the bowl. Now a body turns at most a
/// quarter turn per step unless it allows fast rotation (wheels).
#[test]
fn regression_spin_was_clamped_per_substep_not_per_step() {
    let dt = 1.0 / 60.0;
    let limit = 0.25 * std::f32::consts::PI / dt;
    for allow in [false, true] {
        let mut world = World::new(WorldDef {
            gravity: Vec2::ZERO,
            ..Default::default()
        })
        .unwrap();
        let body = world
            .create_body(&BodyDef {
                angular_velocity: 100.0,
                allow_fast_rotation: allow,
                ..BodyDef::dynamic(Vec2::ZERO)
            })
            .unwrap();
        world
            .create_shape(
                body,
                &ShapeDef::default(),
                Polygon::new_box(0.5, 0.1).unwrap().into(),
            )
            .unwrap();
        world.step(dt).unwrap();
        let w = world.angular_velocity(body).unwrap();
        let turned = world.body_rotation(body).unwrap().angle();
        // Each substep turns the rotation by atan(h w) (the normalised first-order update).
        let substeps = WorldDef::default().substep_count as f32;
        let expected = |w: f32| substeps * (w * dt / substeps).atan();
        let spin = if allow { 100.0 } else { limit };
        assert!((w - spin).abs() < 1e-3, "allow {allow}: {w} against {spin}");
        assert!(
            (turned - expected(spin)).abs() < 1e-4,
            "allow {allow}: {turned}"
        );
    }
    // It can be switched on a live body.
    let mut world = World::new(WorldDef::default()).unwrap();
    let b = world.create_body(&BodyDef::dynamic(Vec2::ZERO)).unwrap();
    assert!(world.set_allow_fast_rotation(b, true).is_ok());
}
