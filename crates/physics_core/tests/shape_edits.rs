//! Editing a live shape in place (geometry, density, filter): contacts that still touch are
//! kept with their impulses and send no end or begin event; the body's mass follows.

use physics_core::prelude::*;

const DT: f32 = 1.0 / 60.0;

/// Static ground with its top at y = 0 and a unit box resting on it after 2 s.
fn box_on_ground() -> (World, ShapeId, BodyId, ShapeId) {
    let mut w = World::new(WorldDef::default()).unwrap();
    let ground = w
        .create_body(&BodyDef::fixed(Vec2::new(0.0, -0.5)))
        .unwrap();
    let ground_shape = w
        .create_shape(
            ground,
            &ShapeDef::default(),
            Polygon::new_box(20.0, 0.5).unwrap().into(),
        )
        .unwrap();
    let body = w
        .create_body(&BodyDef::dynamic(Vec2::new(0.0, 0.5)))
        .unwrap();
    let shape = w
        .create_shape(
            body,
            &ShapeDef::default(),
            Polygon::new_box(0.5, 0.5).unwrap().into(),
        )
        .unwrap();
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    (w, ground_shape, body, shape)
}

/// The total normal impulse of the touching contact between the two shapes.
fn pair_impulse(w: &World, a: ShapeId, b: ShapeId) -> Option<f32> {
    w.contact_data()
        .into_iter()
        .find(|d| (d.shape_a, d.shape_b) == (a, b) || (d.shape_a, d.shape_b) == (b, a))
        .map(|d| d.manifold.points().iter().map(|p| p.normal_impulse).sum())
}

fn events(w: &World) -> usize {
    w.begin_contact_events().len() + w.end_contact_events().len()
}

#[test]
fn a_resized_box_keeps_its_contact_and_impulses_and_stands_taller() {
    let (mut w, ground, body, shape) = box_on_ground();
    let before = pair_impulse(&w, ground, shape).unwrap();
    // A resting unit box (density 1, mass 1) carries m g h on its contact, h the substep
    // (the stored impulse is a substep's: 4 substeps by default).
    let weight = 1.0 * 10.0 * DT / 4.0;
    assert!((before - weight).abs() < 0.02 * weight, "impulse {before}");
    let mass_before = w.body_mass_data(body).unwrap().mass;
    // Twice as tall: 1 m wide, 2 m high, still on its base.
    let taller = Polygon::new_offset_box(0.5, 1.0, Vec2::new(0.0, 0.5), Rot::IDENTITY).unwrap();
    w.set_shape_geometry(shape, taller.into()).unwrap();
    assert!((w.body_mass_data(body).unwrap().mass - 2.0 * mass_before).abs() < 1e-4);
    // The contact is the same one, its impulses untouched until the next step uses them.
    assert_eq!(pair_impulse(&w, ground, shape), Some(before));
    w.step(DT).unwrap();
    assert_eq!(events(&w), 0, "the contact ended or began again");
    // The new manifold's points are the old ones by feature id, so they were warm started.
    let data = w.contact_data();
    let manifold = data
        .iter()
        .find(|d| d.shape_b == shape || d.shape_a == shape)
        .unwrap();
    assert_eq!(manifold.manifold.point_count, 2);
    assert!(manifold.manifold.points().iter().all(|p| p.persisted));
    for _ in 0..60 {
        w.step(DT).unwrap();
        assert_eq!(events(&w), 0);
    }
    let settled = pair_impulse(&w, ground, shape).unwrap();
    assert!(
        (settled - 2.0 * weight).abs() < 0.02 * weight,
        "impulse {settled}"
    );
    // The base stays on the ground: the body origin stays 0.5 m up within the soft
    // contact's sag (a few millimetres).
    assert!((w.body_position(body).unwrap().y - 0.5).abs() < 0.01);
}

#[test]
fn a_denser_shape_makes_a_heavier_body_without_touching_its_contacts() {
    let (mut w, ground, body, shape) = box_on_ground();
    w.set_shape_density(shape, 3.0).unwrap();
    assert!((w.body_mass_data(body).unwrap().mass - 3.0).abs() < 1e-4);
    for _ in 0..60 {
        w.step(DT).unwrap();
        assert_eq!(events(&w), 0);
    }
    let weight = 3.0 * 10.0 * DT / 4.0;
    let settled = pair_impulse(&w, ground, shape).unwrap();
    assert!(
        (settled - weight).abs() < 0.02 * weight,
        "impulse {settled}"
    );
    assert!(w.set_shape_density(shape, -1.0).is_err());
    assert!(w.set_shape_density(shape, f32::NAN).is_err());
    assert!((w.body_mass_data(body).unwrap().mass - 3.0).abs() < 1e-4);
}

#[test]
fn a_new_filter_ends_the_contacts_it_refuses_and_finds_those_it_accepts() {
    let (mut w, ground, body, shape) = box_on_ground();
    // The same filter again changes nothing.
    w.set_shape_filter(shape, Filter::default()).unwrap();
    w.step(DT).unwrap();
    assert_eq!(events(&w), 0);
    // A filter that leaves the ground's category out: the contact ends once and the box falls.
    let ghost = Filter {
        category_bits: 2,
        mask_bits: !1,
        group_index: 0,
    };
    w.set_shape_filter(shape, ghost).unwrap();
    w.step(DT).unwrap();
    assert_eq!(w.end_contact_events().len(), 1);
    assert!(pair_impulse(&w, ground, shape).is_none());
    for _ in 0..20 {
        w.step(DT).unwrap();
    }
    let y = w.body_position(body).unwrap().y;
    assert!(
        y < 0.0,
        "the box should fall through the ground, at y = {y}"
    );
    // Back to the default: the pair is found again and the ground pushes the box out.
    w.set_shape_filter(shape, Filter::default()).unwrap();
    let mut began = 0;
    for _ in 0..120 {
        w.step(DT).unwrap();
        began += w.begin_contact_events().len();
    }
    assert_eq!(began, 1);
    assert!(pair_impulse(&w, ground, shape).is_some());
}

#[test]
fn bad_geometry_or_a_stale_shape_is_refused_and_changes_nothing() {
    let (mut w, ground, body, shape) = box_on_ground();
    let before = w.state_hash();
    let nan = Shape::Circle(Circle {
        center: Vec2::NAN,
        radius: 1.0,
    });
    assert!(w.set_shape_geometry(shape, nan).is_err());
    assert_eq!(w.state_hash(), before);
    assert_eq!(
        *w.shape(shape).unwrap(),
        Polygon::new_box(0.5, 0.5).unwrap().into()
    );
    w.destroy_shape(ground).unwrap();
    assert!(w.set_shape_geometry(ground, nan).is_err());
    assert!(w.set_shape_density(ground, 2.0).is_err());
    assert!(w.set_shape_filter(ground, Filter::default()).is_err());
    assert!(w.body_exists(body));
}
