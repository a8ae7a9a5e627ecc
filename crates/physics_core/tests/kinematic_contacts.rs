//! Pairs of bodies that are not dynamic: a kinematic body crossing a static sensor, a kinematic
//! sensor over static ground, and, for shapes that ask, kinematic contacts reported as events
//! and contact data, never solved.

use physics_core::position::to_vec2;
use physics_core::prelude::*;

const DT: f32 = 1.0 / 60.0;

fn square(half: f32) -> Shape {
    Polygon::new_box(half, half).unwrap().into()
}

fn sensor_def() -> ShapeDef {
    ShapeDef {
        is_sensor: true,
        ..Default::default()
    }
}

fn reporting_def() -> ShapeDef {
    ShapeDef {
        enable_kinematic_contacts: true,
        ..Default::default()
    }
}

/// A kinematic box at x = -5 moving right at 3 m/s for 4 s (it ends at x = 7), with a
/// static 1 m wide zone at the origin made from `zone_def`. Returns the world, the moving
/// shape and the zone shape.
fn crossing(
    mover_def: ShapeDef,
    zone_def: ShapeDef,
    zone_kinematic: bool,
) -> (World, ShapeId, ShapeId) {
    let mut w = World::new(WorldDef::default()).unwrap();
    let zone_body = if zone_kinematic {
        BodyDef::kinematic(Vec2::ZERO)
    } else {
        BodyDef::fixed(Vec2::ZERO)
    };
    let zone_body = w.create_body(&zone_body).unwrap();
    let zone = w.create_shape(zone_body, &zone_def, square(0.5)).unwrap();
    let mover = w
        .create_body(&BodyDef::kinematic(Vec2::new(-5.0, 0.0)).with_velocity(Vec2::new(3.0, 0.0)))
        .unwrap();
    let moving = w.create_shape(mover, &mover_def, square(0.25)).unwrap();
    (w, moving, zone)
}

/// Steps `steps` times and counts (sensor begins, sensor ends, contact begins, contact ends)
/// naming both shapes.
fn count_events(w: &mut World, a: ShapeId, b: ShapeId, steps: usize) -> [usize; 4] {
    let names = |x: ShapeId, y: ShapeId| (x == a && y == b) || (x == b && y == a);
    let mut counts = [0; 4];
    for _ in 0..steps {
        w.step(DT).unwrap();
        counts[0] += w
            .sensor_begin_events()
            .iter()
            .filter(|e| names(e.sensor, e.visitor))
            .count();
        counts[1] += w
            .sensor_end_events()
            .iter()
            .filter(|e| names(e.sensor, e.visitor))
            .count();
        counts[2] += w
            .begin_contact_events()
            .iter()
            .filter(|e| names(e.shape_a, e.shape_b))
            .count();
        counts[3] += w
            .end_contact_events()
            .iter()
            .filter(|e| names(e.shape_a, e.shape_b))
            .count();
    }
    counts
}

#[test]
fn a_kinematic_body_crossing_a_static_sensor_enters_and_leaves_it_once() {
    let (mut w, moving, zone) = crossing(ShapeDef::default(), sensor_def(), false);
    let counts = count_events(&mut w, moving, zone, 240);
    assert_eq!(
        counts,
        [1, 1, 0, 0],
        "sensor begins, ends, contact begins, ends"
    );
}

#[test]
fn a_kinematic_sensor_sees_static_and_kinematic_shapes() {
    for zone_kinematic in [false, true] {
        let (mut w, moving, zone) = crossing(sensor_def(), ShapeDef::default(), zone_kinematic);
        let counts = count_events(&mut w, moving, zone, 240);
        assert_eq!(counts, [1, 1, 0, 0], "zone kinematic: {zone_kinematic}");
    }
}

#[test]
fn kinematic_contacts_are_reported_only_when_asked_and_never_solved() {
    for zone_kinematic in [false, true] {
        // Not asked: no contact at all, as in Box2D.
        let (mut w, moving, zone) =
            crossing(ShapeDef::default(), ShapeDef::default(), zone_kinematic);
        assert_eq!(count_events(&mut w, moving, zone, 240), [0; 4]);
        assert_eq!(w.contact_count(), 0);

        // Asked by either shape: one begin and one end, contact data while they overlap, and
        // the kinematic body keeps its course (nothing is solved between them).
        for (mover_def, zone_def) in [
            (reporting_def(), ShapeDef::default()),
            (ShapeDef::default(), reporting_def()),
        ] {
            let (mut w, moving, zone) = crossing(mover_def, zone_def, zone_kinematic);
            let mover = w.shape_body(moving).unwrap();
            let mut seen_data = 0;
            let mut counts = [0; 4];
            for step in 0..240 {
                let c = count_events(&mut w, moving, zone, 1);
                for (total, n) in counts.iter_mut().zip(c) {
                    *total += n;
                }
                let data = w.contact_data();
                seen_data += data
                    .iter()
                    .filter(|d| {
                        (d.shape_a == moving && d.shape_b == zone)
                            || (d.shape_a == zone && d.shape_b == moving)
                    })
                    .count();
                let x = to_vec2(w.body_position(mover).unwrap()).x;
                let expected = -5.0 + 3.0 * DT * (step + 1) as f32;
                assert!(
                    (x - expected).abs() < 1e-3,
                    "step {step}: x {x}, expected {expected}"
                );
            }
            assert_eq!(counts, [0, 0, 1, 1], "zone kinematic: {zone_kinematic}");
            // Overlapping from |x| < 0.75 m: 1.5 m at 3 m/s is 30 steps.
            assert!(
                (28..=31).contains(&seen_data),
                "contact data in {seen_data} steps"
            );
        }
    }
}

#[test]
fn two_static_bodies_never_pair_even_when_asked() {
    let mut w = World::new(WorldDef::default()).unwrap();
    for x in [0.0, 0.5] {
        let b = w.create_body(&BodyDef::fixed(Vec2::new(x, 0.0))).unwrap();
        w.create_shape(b, &reporting_def(), square(0.5)).unwrap();
        let s = w.create_body(&BodyDef::fixed(Vec2::new(x, 0.0))).unwrap();
        w.create_shape(s, &sensor_def(), square(0.5)).unwrap();
    }
    for _ in 0..10 {
        w.step(DT).unwrap();
    }
    assert_eq!(w.contact_count(), 0);
}

#[test]
fn a_kinematic_contact_links_no_islands_and_wakes_no_sleeper() {
    // A box on a kinematic platform at rest, and a kinematic paddle sweeping through the
    // platform, reported. The box and the platform make an island that falls asleep; the
    // paddle's contact with the platform must neither keep that island awake (joining the
    // always-moving paddle to it) nor wake it when it touches.
    let mut w = World::new(WorldDef::default()).unwrap();
    let platform = w
        .create_body(&BodyDef::kinematic(Vec2::new(0.0, -0.5)))
        .unwrap();
    let platform_shape = w
        .create_shape(
            platform,
            &reporting_def(),
            Polygon::new_box(20.0, 0.5).unwrap().into(),
        )
        .unwrap();
    let sleeper = w
        .create_body(&BodyDef::dynamic(Vec2::new(8.0, 0.5)))
        .unwrap();
    w.create_shape(sleeper, &ShapeDef::default(), square(0.5))
        .unwrap();
    let paddle = w
        .create_body(&BodyDef::kinematic(Vec2::new(-12.0, 0.0)).with_velocity(Vec2::new(4.0, 0.0)))
        .unwrap();
    let paddle_shape = w
        .create_shape(paddle, &ShapeDef::default(), square(0.25))
        .unwrap();
    let counts = count_events(&mut w, paddle_shape, platform_shape, 150);
    assert_eq!(counts[2], 1, "the paddle touches the platform");
    assert_eq!(w.is_awake(sleeper), Ok(false), "the box never fell asleep");
    // Still inside the platform (x = -2 after 2.5 s), the paddle touches it every step.
    assert!(to_vec2(w.body_position(paddle).unwrap()).x < 0.0);
    for _ in 0..30 {
        w.step(DT).unwrap();
        assert_eq!(
            w.is_awake(sleeper),
            Ok(false),
            "the paddle's contact woke the box"
        );
    }
}

/// Every contact and sensor event of a step, by shape ids, and the contact data.
fn step_record(w: &mut World) -> String {
    w.step(DT).unwrap();
    format!(
        "{:?} {:?} {:?} {:?} {:?}",
        w.begin_contact_events(),
        w.end_contact_events(),
        w.sensor_begin_events(),
        w.sensor_end_events(),
        w.contact_data()
    )
}

#[test]
fn a_restored_world_with_kinematic_contacts_steps_on_to_the_same_events() {
    let (mut w, _, _) = crossing(reporting_def(), sensor_def(), false);
    let extra = w
        .create_body(&BodyDef::kinematic(Vec2::new(0.3, 0.0)))
        .unwrap();
    w.create_shape(extra, &reporting_def(), square(0.5))
        .unwrap();
    for _ in 0..70 {
        w.step(DT).unwrap();
    }
    assert!(
        w.touching_contact_count() > 0,
        "the scene should be mid-crossing"
    );
    let saved = WorldSnapshot::from_bytes(&w.snapshot().to_bytes()).unwrap();
    let original: Vec<String> = (0..60).map(|_| step_record(&mut w)).collect();
    let mut restored = World::new(WorldDef::default()).unwrap();
    restored.restore(&saved).unwrap();
    let replayed: Vec<String> = (0..60).map(|_| step_record(&mut restored)).collect();
    assert_eq!(original, replayed);
    assert!(
        original.iter().any(|r| r.contains("shape_a")),
        "no event was compared"
    );
}
