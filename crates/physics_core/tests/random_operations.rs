//! Hostile use: thousands of random API calls, valid and invalid, interleaved with steps. The
//! world must never panic, every refused call must leave it usable, and no NaN may appear.

mod support;

use physics_core::position::to_position;
use physics_core::prelude::*;
use support::Rng;

fn random_joint(rng: &mut Rng) -> JointKind {
    match rng.next_u64() % 9 {
        0 => JointKind::Revolute(RevoluteJoint {
            enable_limit: rng.next_u64().is_multiple_of(2),
            lower_angle: -0.5,
            upper_angle: 0.5,
            enable_motor: rng.next_u64().is_multiple_of(2),
            motor_speed: rng.range(-5.0, 5.0),
            max_motor_torque: 10.0,
            ..Default::default()
        }),
        1 => JointKind::Prismatic(PrismaticJoint {
            enable_limit: true,
            lower_translation: -1.0,
            upper_translation: 1.0,
            ..Default::default()
        }),
        2 => JointKind::Distance(DistanceJoint::spring(rng.range(0.5, 3.0), 3.0, 0.5)),
        3 => JointKind::Distance(DistanceJoint::rope(rng.range(0.5, 3.0))),
        4 => JointKind::Weld(WeldJoint::default()),
        5 => JointKind::Wheel(WheelJoint::default()),
        6 => JointKind::Angle(AngleJoint {
            ratio: rng.range(-2.0, 2.0),
            offset: None,
        }),
        7 => JointKind::Motor(MotorJoint {
            linear_offset: rng.vec(2.0),
            max_force: 50.0,
            max_torque: 50.0,
            ..Default::default()
        }),
        _ => JointKind::Mouse(MouseJoint {
            target: to_position(rng.vec(10.0)),
            hertz: 5.0,
            damping_ratio: 0.7,
            max_force: 100.0,
        }),
    }
}

#[test]
fn random_calls_never_panic_or_spread_nan() {
    for seed in 0..6u64 {
        let mut rng = Rng::new(0xf00d + seed);
        let mut w = World::new(WorldDef {
            enable_block_solver: !seed.is_multiple_of(2),
            ..Default::default()
        })
        .unwrap();
        let ground = w
            .create_body(&BodyDef::fixed(Vec2::new(0.0, -1.0)))
            .unwrap();
        w.create_shape(
            ground,
            &ShapeDef::default(),
            Polygon::new_box(30.0, 1.0).unwrap().into(),
        )
        .unwrap();
        let mut bodies: Vec<BodyId> = vec![ground];
        let mut shapes: Vec<ShapeId> = Vec::new();
        let mut joints: Vec<JointId> = Vec::new();
        let nan = Vec2::new(f32::NAN, 1.0);
        for op in 0..3000u32 {
            let pick = |rng: &mut Rng, n: usize| (rng.next_u64() % n.max(1) as u64) as usize;
            match rng.next_u64() % 16 {
                0..=2 => {
                    let kind = match rng.next_u64() % 3 {
                        0 => BodyType::Static,
                        1 => BodyType::Kinematic,
                        _ => BodyType::Dynamic,
                    };
                    let def = BodyDef {
                        body_type: kind,
                        position: to_position(rng.vec(15.0) + Vec2::new(0.0, 15.0)),
                        bullet: rng.next_u64().is_multiple_of(7),
                        ..Default::default()
                    };
                    bodies.push(w.create_body(&def).unwrap());
                }
                3..=5 => {
                    let b = bodies[pick(&mut rng, bodies.len())];
                    let def = ShapeDef {
                        is_sensor: rng.next_u64().is_multiple_of(9),
                        density: rng.range(0.0, 3.0),
                        enable_kinematic_contacts: rng.next_u64().is_multiple_of(3),
                        ..Default::default()
                    };
                    if let Ok(s) = w.create_shape(b, &def, rng.shape()) {
                        shapes.push(s);
                    }
                }
                6 => {
                    let (a, b) = (
                        bodies[pick(&mut rng, bodies.len())],
                        bodies[pick(&mut rng, bodies.len())],
                    );
                    let kind = random_joint(&mut rng);
                    if let Ok(j) =
                        w.create_joint(&JointDef::new(a, b, rng.vec(0.5), rng.vec(0.5), kind))
                    {
                        joints.push(j);
                    }
                }
                7 => {
                    // Destroy something, possibly already destroyed (stale ids must be refused).
                    match rng.next_u64() % 3 {
                        0 if bodies.len() > 1 => {
                            let b = bodies[1 + pick(&mut rng, bodies.len() - 1)];
                            let _ = w.destroy_body(b);
                        }
                        1 if !shapes.is_empty() => {
                            let _ = w.destroy_shape(shapes[pick(&mut rng, shapes.len())]);
                        }
                        _ if !joints.is_empty() => {
                            let _ = w.destroy_joint(joints[pick(&mut rng, joints.len())]);
                        }
                        _ => {}
                    }
                }
                8 => {
                    let b = bodies[pick(&mut rng, bodies.len())];
                    let _ = w.set_linear_velocity(b, rng.vec(30.0));
                    let _ = w.apply_linear_impulse_at_point(b, rng.vec(5.0), rng.vec(15.0));
                    let _ = w.apply_torque(b, rng.range(-50.0, 50.0));
                }
                9 => {
                    let b = bodies[pick(&mut rng, bodies.len())];
                    assert!(w.set_linear_velocity(b, nan).is_err());
                    assert!(w.apply_force(b, Vec2::INFINITY).is_err());
                    assert!(w.set_transform(b, nan, Rot::IDENTITY).is_err());
                }
                10 => {
                    let b = bodies[pick(&mut rng, bodies.len())];
                    let _ = w.set_transform(
                        b,
                        rng.vec(15.0) + Vec2::new(0.0, 10.0),
                        Rot::from_angle(rng.range(-3.0, 3.0)),
                    );
                    let _ = w.set_awake(b, rng.next_u64().is_multiple_of(2));
                }
                11 if !joints.is_empty() => {
                    let j = joints[pick(&mut rng, joints.len())];
                    let _ = w.set_joint_enabled(j, !rng.next_u64().is_multiple_of(3));
                    let _ = w.set_joint_kind(j, random_joint(&mut rng));
                }
                12 => {
                    let b = bodies[pick(&mut rng, bodies.len())];
                    let mass = MassData {
                        mass: rng.range(0.1, 5.0),
                        center: rng.vec(0.5),
                        rotational_inertia: rng.range(0.01, 2.0),
                    };
                    let _ = w.set_mass_data(b, Some(mass));
                    assert!(
                        w.set_mass_data(b, Some(MassData { mass: -1.0, ..mass }))
                            .is_err()
                    );
                }
                13 if !shapes.is_empty() => {
                    // Edit a shape in place, possibly a destroyed one (refused).
                    let s = shapes[pick(&mut rng, shapes.len())];
                    match rng.next_u64() % 4 {
                        0 => {
                            let _ = w.set_shape_geometry(s, rng.shape());
                        }
                        1 => {
                            let _ = w.set_shape_density(s, rng.range(0.0, 3.0));
                            assert!(w.set_shape_density(s, f32::NAN).is_err());
                        }
                        2 => {
                            let filter = Filter {
                                category_bits: 1 << (rng.next_u64() % 3),
                                mask_bits: rng.next_u64(),
                                group_index: (rng.next_u64() % 3) as i32 - 1,
                            };
                            let _ = w.set_shape_filter(s, filter);
                        }
                        _ => {
                            let _ =
                                w.set_shape_kinematic_contacts(s, rng.next_u64().is_multiple_of(2));
                        }
                    }
                }
                _ => {
                    w.step(1.0 / 60.0).unwrap();
                    let _ = w.ray_cast_all(rng.vec(20.0), rng.vec(40.0), &QueryFilter::default());
                }
            }
            if op.is_multiple_of(100) {
                for b in w.body_ids() {
                    let xf = w.body_transform(b).unwrap();
                    let v = w.linear_velocity(b).unwrap();
                    assert!(
                        xf.is_valid() && v.is_finite(),
                        "seed {seed} op {op}: {b:?} went non-finite"
                    );
                }
            }
        }
        assert!(w.body_count() > 10);
    }
}
