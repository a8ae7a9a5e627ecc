//! Hostile input: every bad value is refused (or, for legal extremes, simulated without
//! harm), the refusal names what was wrong, and the rest of the world steps on exactly as it
//! would have without the bad input.

use physics_core::position::position_bits;
use physics_core::position::to_vec2;
use physics_core::prelude::*;

const DT: f32 = 1.0 / 60.0;
const STEPS: usize = 90;

/// A small stack on a ground, a pendulum and a ball: contacts and a joint.
fn world() -> (World, Vec<BodyId>) {
    let mut w = World::new(WorldDef::default()).unwrap();
    let ground = w
        .create_body(&BodyDef::fixed(Vec2::new(0.0, -0.5)))
        .unwrap();
    let slab = Polygon::new_box(20.0, 0.5).unwrap().into();
    w.create_shape(ground, &ShapeDef::default(), slab).unwrap();
    let mut bodies = Vec::new();
    for i in 0..5 {
        let b = w
            .create_body(&BodyDef::dynamic(Vec2::new(0.0, 0.5 + i as f32)))
            .unwrap();
        let shape = Polygon::new_box(0.5, 0.5).unwrap().into();
        w.create_shape(b, &ShapeDef::default(), shape).unwrap();
        bodies.push(b);
    }
    let bob = w
        .create_body(&BodyDef::dynamic(Vec2::new(6.0, 5.0)))
        .unwrap();
    let ball = Circle::new(Vec2::ZERO, 0.25).unwrap().into();
    w.create_shape(bob, &ShapeDef::default(), ball).unwrap();
    let (la, lb) = w.local_anchors(ground, bob, Vec2::new(4.0, 5.0)).unwrap();
    let hinge = JointKind::Revolute(RevoluteJoint::default());
    w.create_joint(&JointDef::new(ground, bob, la, lb, hinge))
        .unwrap();
    bodies.push(bob);
    (w, bodies)
}

fn run(w: &mut World, bodies: &[BodyId]) -> Vec<u64> {
    for _ in 0..STEPS {
        w.step(DT).unwrap();
    }
    bodies
        .iter()
        .flat_map(|&b| {
            let xf = w.body_transform(b).unwrap();
            let v = w.linear_velocity(b).unwrap();
            let [px, py] = position_bits(xf.p);
            let [qc, qs, vx, vy] = [xf.q.c, xf.q.s, v.x, v.y].map(|x| x.to_bits().into());
            [px, py, qc, qs, vx, vy]
        })
        .collect()
}

/// One bad input: applies it to the world and returns the error it got (None if accepted).
type Attack = fn(&mut World, &[BodyId]) -> Option<WorldError>;

fn attacks() -> Vec<(&'static str, Attack)> {
    vec![
        ("NaN position", |w, b| {
            w.set_transform(b[0], Vec2::new(f32::NAN, 0.0), Rot::IDENTITY)
                .err()
        }),
        ("infinite position", |w, b| {
            w.set_transform(b[0], Vec2::new(0.0, f32::INFINITY), Rot::IDENTITY)
                .err()
        }),
        ("NaN velocity", |w, b| {
            w.set_linear_velocity(b[1], Vec2::new(f32::NAN, 1.0)).err()
        }),
        ("infinite spin", |w, b| {
            w.set_angular_velocity(b[1], f32::INFINITY).err()
        }),
        ("NaN force", |w, b| {
            w.apply_force(b[2], Vec2::new(0.0, f32::NAN)).err()
        }),
        ("infinite torque", |w, b| {
            w.apply_torque(b[2], f32::NEG_INFINITY).err()
        }),
        ("NaN impulse", |w, b| {
            w.apply_linear_impulse(b[3], Vec2::splat(f32::NAN)).err()
        }),
        ("NaN gravity", |w, _| {
            w.set_def(WorldDef {
                gravity: Vec2::new(0.0, f32::NAN),
                ..*w.def()
            })
            .err()
        }),
        ("NaN time step", |w, _| w.step(f32::NAN).err()),
        ("negative time step", |w, _| w.step(-DT).err()),
        ("negative density", |w, b| {
            let def = ShapeDef {
                density: -1.0,
                ..ShapeDef::default()
            };
            let shape = Circle::new(Vec2::ZERO, 0.1).unwrap().into();
            w.create_shape(b[4], &def, shape).err()
        }),
        ("NaN density", |w, b| {
            let def = ShapeDef {
                density: f32::NAN,
                ..ShapeDef::default()
            };
            let shape = Circle::new(Vec2::ZERO, 0.1).unwrap().into();
            w.create_shape(b[4], &def, shape).err()
        }),
        ("joint of a body to itself", |w, b| {
            let def = JointDef::new(
                b[0],
                b[0],
                Vec2::ZERO,
                Vec2::ZERO,
                JointKind::Revolute(RevoluteJoint::default()),
            );
            w.create_joint(&def).err()
        }),
        ("joint to a destroyed body", |w, b| {
            let gone = w
                .create_body(&BodyDef::dynamic(Vec2::new(50.0, 50.0)))
                .unwrap();
            w.destroy_body(gone).unwrap();
            let def = JointDef::new(
                b[0],
                gone,
                Vec2::ZERO,
                Vec2::ZERO,
                JointKind::Revolute(RevoluteJoint::default()),
            );
            w.create_joint(&def).err()
        }),
        ("NaN body def", |w, _| {
            w.create_body(&BodyDef::dynamic(Vec2::new(f32::NAN, 0.0)))
                .err()
        }),
    ]
}

/// What the refusal of `attack` must name: the last word of the attack's name (position,
/// velocity, gravity, density, step, ...), or the message's own words where it puts it
/// another way.
fn named_in_message(attack: &str) -> &str {
    match attack {
        "infinite spin" => "angular velocity",
        "joint of a body to itself" => "two different bodies",
        "NaN body def" => "body position",
        other => other.rsplit(' ').next().unwrap_or(other),
    }
}

#[test]
fn bad_values_are_refused_and_the_world_steps_on_unchanged() {
    for (name, attack) in attacks() {
        let (mut w, bodies) = world();
        w.step(DT).unwrap();
        let error = attack(&mut w, &bodies);
        let error = error.unwrap_or_else(|| panic!("{name}: accepted"));
        // The message names what was wrong.
        let message = error.to_string();
        let what = named_in_message(name);
        assert!(
            message.contains(what),
            "{name}: {message} (should name {what})"
        );
        // The refused call changed nothing: the remaining steps match the reference run.
        let (mut again, _) = world();
        again.step(DT).unwrap();
        let tail = |world: &mut World| {
            for _ in 1..STEPS {
                world.step(DT).unwrap();
            }
            run(world, &bodies)
        };
        assert!(
            tail(&mut w) == tail(&mut again),
            "{name}: the world changed"
        );
    }
}

#[test]
fn bad_shapes_are_refused_with_the_reason() {
    let collinear = [Vec2::ZERO, Vec2::X, Vec2::new(2.0, 0.0)];
    assert!(Polygon::from_points(&collinear, 0.0).is_err(), "zero area");
    let nine: Vec<Vec2> = (0..9)
        .map(|i| Rot::from_angle(i as f32 * 0.698).rotate(Vec2::X))
        .collect();
    assert!(Polygon::from_points(&nine, 0.0).is_err(), "nine points");
    assert!(Polygon::from_points(&[Vec2::NAN, Vec2::X, Vec2::Y], 0.0).is_err());
    assert!(Polygon::from_points(&[Vec2::ZERO, Vec2::X, Vec2::Y], -0.1).is_err());
    // A bow-tie (self-intersecting order) becomes its convex hull: a valid quad.
    let bow_tie = [
        Vec2::ZERO,
        Vec2::new(1.0, 1.0),
        Vec2::new(1.0, 0.0),
        Vec2::Y,
    ];
    let hull = Polygon::from_points(&bow_tie, 0.0).unwrap();
    assert_eq!(hull.count(), 4);
    assert!(
        Capsule::new(Vec2::ZERO, Vec2::ZERO, 0.5).is_err(),
        "zero length"
    );
    assert!(Circle::new(Vec2::ZERO, 0.0).is_err(), "zero radius");
    assert!(Circle::new(Vec2::ZERO, -1.0).is_err(), "negative radius");
    assert!(Circle::new(Vec2::ZERO, f32::NAN).is_err(), "NaN radius");
}

#[test]
fn a_body_at_a_billion_metres_harms_no_one() {
    let (mut reference, bodies) = world();
    let expected = run(&mut reference, &bodies);
    let (mut w, bodies) = world();
    let far = w
        .create_body(&BodyDef::dynamic(Vec2::new(1e9, -1e9)))
        .unwrap();
    let shape = Polygon::new_box(0.5, 0.5).unwrap().into();
    w.create_shape(far, &ShapeDef::default(), shape).unwrap();
    assert!(run(&mut w, &bodies) == expected, "the near bodies changed");
    let p = to_vec2(w.body_position(far).unwrap());
    assert!(p.x.is_finite() && p.y.is_finite(), "the far body went {p}");
}

/// Found by the `scene_building` fuzz target: a finite but enormous density (1e38) made a
/// shape's mass infinite, the body's centre inf/inf = NaN, and its velocity NaN before the
/// first step. Such a density is now refused, with the value, and nothing else changes.
#[test]
fn regression_huge_density_made_a_velocity_nan() {
    let (mut w, bodies) = world();
    let (mut untouched, _) = world();
    let body = bodies[0];
    let def = ShapeDef {
        density: 1.0e38,
        ..ShapeDef::default()
    };
    let shape = Polygon::new_box(0.5, 0.5).unwrap().into();
    let error = w.create_shape(body, &def, shape).unwrap_err();
    assert!(
        matches!(error, WorldError::ShapeMassTooLarge { density, .. } if density == 1.0e38),
        "{error:?}"
    );
    assert!(error.to_string().contains("1e38"), "{error}");
    assert!(w.linear_velocity(body).unwrap().is_finite());
    assert_eq!(run(&mut w, &bodies), run(&mut untouched, &bodies));
    // The largest allowed mass still simulates finitely.
    let heavy = ShapeDef {
        density: 1.0e19,
        ..ShapeDef::default()
    };
    let shape = Polygon::new_box(1.0, 1.0).unwrap().into();
    w.create_shape(body, &heavy, shape).unwrap();
    run(&mut w, &bodies);
    assert!(w.linear_velocity(body).unwrap().is_finite());
}

#[test]
fn bodies_beyond_the_limit_are_refused_and_the_rest_step_on() {
    let (mut w, bodies) = world();
    let (mut untouched, _) = world();
    let limit = w.body_count() as u32 + 10;
    w.set_def(WorldDef {
        max_bodies: limit,
        ..*w.def()
    })
    .unwrap();
    let mut created = 0;
    let mut refused = 0;
    for i in 0..100_000 {
        let def = BodyDef::dynamic(Vec2::new(100.0 + (i % 100) as f32, 50.0));
        match w.create_body(&def) {
            Ok(_) => created += 1,
            Err(WorldError::TooManyBodies { limit: l }) => {
                assert_eq!(l, limit);
                refused += 1;
            }
            Err(other) => panic!("{other}"),
        }
    }
    assert_eq!((created, refused), (10, 99_990));
    assert_eq!(w.body_count(), limit as usize);
    // The ten far-away bodies do not touch the stack or the pendulum.
    assert_eq!(run(&mut w, &bodies), run(&mut untouched, &bodies));
}

/// Found through the `scene_building` fuzz target once snapshots checked body state: a
/// subnormal density (1e-40) gave a body a mass of 2e-39 kg and an infinite inverse mass.
/// Such a mass now counts as none (1 kg, as a body without shapes).
#[test]
fn regression_subnormal_density_gave_an_infinite_inverse_mass() {
    let mut w = World::new(WorldDef::default()).unwrap();
    let body = w
        .create_body(&BodyDef::dynamic(Vec2::new(0.0, 2.0)))
        .unwrap();
    let def = ShapeDef {
        density: 1.0e-40,
        ..ShapeDef::default()
    };
    let shape = Polygon::new_box(0.5, 0.5).unwrap().into();
    w.create_shape(body, &def, shape).unwrap();
    let mass = w.body_mass_data(body).unwrap();
    assert_eq!(mass.mass, 1.0);
    w.apply_linear_impulse(body, Vec2::new(1.0, 0.0)).unwrap();
    w.step(DT).unwrap();
    let v = w.linear_velocity(body).unwrap();
    assert!((v.x - 1.0).abs() < 1e-6, "{v}");
    // And its snapshot passes the checks a decoded snapshot goes through.
    WorldSnapshot::from_bytes(&w.snapshot().to_bytes()).unwrap();
}

/// Found by the `snapshot_bytes` fuzz target: a polygon whose rounding radius was 3.7e19
/// passed every check, and squared distances of that size overflowed to a NaN normal. The
/// public constructors accepted such a radius too; the world now refuses shapes reaching
/// beyond `MAX_SHAPE_EXTENT`, and decoded snapshots go through the same check.
#[test]
fn regression_a_shape_of_1e19_made_a_normal_nan() {
    let (mut w, bodies) = world();
    let (mut untouched, _) = world();
    let huge = Polygon::new_box(0.5, 0.5)
        .unwrap()
        .with_radius(3.7e19)
        .unwrap();
    let error = w
        .create_shape(bodies[0], &ShapeDef::default(), huge.into())
        .unwrap_err();
    assert!(error.to_string().contains("3.7e19"), "{error}");
    let far = Circle::new(Vec2::new(2.0e6, 0.0), 1.0).unwrap();
    assert!(
        w.create_shape(bodies[0], &ShapeDef::default(), far.into())
            .is_err()
    );
    assert_eq!(run(&mut w, &bodies), run(&mut untouched, &bodies));
}

/// Places farther than `MAX_WORLD_COORDINATE` from the origin are refused, on creation and
/// on teleport, and the world is unchanged (products of two coordinates of 1e30 overflow);
/// at 1e8 m, inside the limit, touching boxes step without a NaN.
#[test]
fn places_beyond_the_world_limit_are_refused() {
    use physics_core::constants::MAX_WORLD_COORDINATE;
    let mut w = World::new(WorldDef::default()).unwrap();
    let far = Vec2::new(1.0e30, 0.0);
    let refused = w.create_body(&BodyDef::dynamic(far));
    assert!(
        matches!(refused, Err(WorldError::InvalidSetting(_))),
        "{refused:?}"
    );
    assert_eq!(w.body_count(), 0);
    let body = w.create_body(&BodyDef::dynamic(Vec2::ZERO)).unwrap();
    let refused = w.set_transform(body, far, Rot::IDENTITY);
    assert!(
        matches!(refused, Err(WorldError::InvalidSetting(_))),
        "{refused:?}"
    );
    assert_eq!(to_vec2(w.body_position(body).unwrap()), Vec2::ZERO);
    let edge = Vec2::new(MAX_WORLD_COORDINATE, 0.0);
    assert!(w.set_transform(body, edge, Rot::IDENTITY).is_ok());
    // Touching boxes far out, but inside the limit, step to finite states.
    let mut w = World::new(WorldDef::default()).unwrap();
    let base = Vec2::new(1.0e8, 1.0e8);
    let unit = || -> Shape { Polygon::new_box(0.5, 0.5).unwrap().into() };
    let ground = w.create_body(&BodyDef::fixed(base)).unwrap();
    w.create_shape(ground, &ShapeDef::default(), unit())
        .unwrap();
    let top = w
        .create_body(&BodyDef::dynamic(base + Vec2::new(0.0, 0.99)))
        .unwrap();
    w.create_shape(top, &ShapeDef::default(), unit()).unwrap();
    for _ in 0..60 {
        w.step(1.0 / 60.0).unwrap();
    }
    assert!(to_vec2(w.body_position(top).unwrap()).is_finite());
    assert!(w.linear_velocity(top).unwrap().is_finite());
}

/// Regression (found by the plugin operations fuzz check in `crates/fuzz_checks`, seed 7211
/// in its regressions): two shapes with a friction of 1e30 (finite, so accepted) mixed to an
/// infinite friction, whose bound on a point with no normal impulse was NaN, and the scalar
/// contact solve panicked in `clamp`. Mixed coefficients are now held finite, by every rule,
/// and ordinary ones mix to the same bits as before.
#[test]
fn regression_a_friction_of_1e30_mixed_to_infinity() {
    use physics_core::mix_rule::MixRule;
    let rules = [
        MixRule::GeometricMean,
        MixRule::Average,
        MixRule::Max,
        MixRule::Min,
        MixRule::Multiply,
    ];
    for rule in rules {
        let mixed = rule.mix(1.0e30, 1.0e30);
        assert!(mixed.is_finite() && mixed >= 1.0e30, "{rule:?}: {mixed}");
        assert_eq!(rule.mix(0.0, 1.0e30) * 0.0, 0.0, "{rule:?}: no NaN bound");
    }
    assert_eq!(MixRule::GeometricMean.mix(0.6, 0.3), (0.6f32 * 0.3).sqrt());
    assert_eq!(MixRule::Multiply.mix(0.6, 0.3), 0.6f32 * 0.3);
}
