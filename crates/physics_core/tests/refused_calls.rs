//! Refused calls change nothing: stale ids are errors everywhere, and non-finite or negative
//! inputs are refused with the world left as it was.

mod support;

use physics_core::position::to_vec2;
use physics_core::prelude::*;
use support::{unit_box, world};

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
    assert_eq!(to_vec2(w.body_position(b).unwrap()), Vec2::new(1.0, 2.0));

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
