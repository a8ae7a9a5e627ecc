//! World settings away from their defaults, and the events and rules the docs describe: the
//! hit threshold, the overlap push speed, the one-way platform's 45 degree rule, and the end
//! of a sensor overlap when the visitor is destroyed.

use physics_core::position::to_vec2;
use physics_core::prelude::*;
use physics_core::world::one_way_platforms;

const DT: f32 = 1.0 / 60.0;

fn world(def: WorldDef) -> World {
    World::new(WorldDef {
        enable_sleep: false,
        ..def
    })
    .unwrap()
}

fn weightless() -> WorldDef {
    WorldDef {
        gravity: Vec2::ZERO,
        ..Default::default()
    }
}

fn ball(w: &mut World, at: Vec2, velocity: Vec2, def: &ShapeDef) -> (BodyId, ShapeId) {
    let body = w
        .create_body(&BodyDef {
            linear_velocity: velocity,
            ..BodyDef::dynamic(at)
        })
        .unwrap();
    let shape = Circle::new(Vec2::ZERO, 0.2).unwrap().into();
    (body, w.create_shape(body, def, shape).unwrap())
}

fn slab(w: &mut World, at: Vec2, hx: f32, hy: f32, def: &ShapeDef) -> ShapeId {
    let body = w.create_body(&BodyDef::fixed(at)).unwrap();
    let shape = Polygon::new_box(hx, hy).unwrap().into();
    w.create_shape(body, def, shape).unwrap()
}

/// Two unit boxes side by side on the x axis, overlapping by `overlap`.
fn overlapping_boxes(w: &mut World, overlap: f32) -> [BodyId; 2] {
    [-0.5, 0.5].map(|side| {
        let at = Vec2::new(side * (1.0 - overlap), 0.0);
        let b = w.create_body(&BodyDef::dynamic(at)).unwrap();
        let shape = Polygon::new_box(0.5, 0.5).unwrap().into();
        w.create_shape(b, &ShapeDef::default(), shape).unwrap();
        b
    })
}

/// The gap between the two boxes of [`overlapping_boxes`] (negative: their overlap).
fn gap_between(w: &World, [a, b]: [BodyId; 2]) -> f32 {
    to_vec2(w.body_position(b).unwrap()).x - to_vec2(w.body_position(a).unwrap()).x - 1.0
}

/// With `hit_event_threshold` at 4 m/s, a ball meeting a wall at 3 m/s reports no hit and
/// one at 5 m/s reports one, with its approach speed (the threshold compares the normal
/// approach speed; zero gravity keeps it the launch speed).
#[test]
fn the_hit_threshold_reports_only_faster_impacts() {
    let mut w = world(WorldDef {
        hit_event_threshold: 4.0,
        ..weightless()
    });
    let hits = ShapeDef {
        enable_hit_events: true,
        ..Default::default()
    };
    slab(&mut w, Vec2::new(1.0, 0.0), 0.25, 5.0, &ShapeDef::default());
    let (_, slow) = ball(&mut w, Vec2::new(0.0, -2.0), Vec2::new(3.0, 0.0), &hits);
    let (_, fast) = ball(&mut w, Vec2::new(0.0, 2.0), Vec2::new(5.0, 0.0), &hits);
    let mut seen = Vec::new();
    for _ in 0..30 {
        w.step(DT).unwrap();
        seen.extend(w.hit_events().iter().copied());
    }
    let of = |shape: ShapeId| {
        seen.iter()
            .filter(move |h| h.shape_a == shape || h.shape_b == shape)
    };
    assert_eq!(
        of(slow).count(),
        0,
        "a 3 m/s impact under a 4 m/s threshold"
    );
    let fast_hits: Vec<_> = of(fast).collect();
    assert_eq!(fast_hits.len(), 1, "{fast_hits:?}");
    let speed = fast_hits[0].approach_speed;
    assert!((speed - 5.0).abs() < 0.05, "approach speed {speed}");
}

/// Two boxes overlapping by 0.3 m in zero gravity are pushed apart no faster than
/// `max_contact_push_speed` (their gap grows by at most that speed times the step), and a
/// higher limit separates them faster: the setting is what bounds the push.
#[test]
fn the_push_speed_limit_bounds_how_fast_overlaps_separate() {
    let fastest_opening = |push: f32| {
        let mut w = world(WorldDef {
            max_contact_push_speed: push,
            ..weightless()
        });
        let boxes = overlapping_boxes(&mut w, 0.3);
        let gap = |w: &World| gap_between(w, boxes);
        let mut fastest = 0.0f32;
        for _ in 0..60 {
            let before = gap(&w);
            w.step(DT).unwrap();
            fastest = fastest.max((gap(&w) - before) / DT);
        }
        assert!(gap(&w) > -0.01, "still overlapping by {} m", -gap(&w));
        fastest
    };
    let slow = fastest_opening(0.5);
    assert!(
        slow <= 0.5 * 1.001,
        "opened at {slow} m/s under a 0.5 m/s limit"
    );
    assert!(slow > 0.4, "opened at only {slow} m/s");
    let fast = fastest_opening(3.0);
    assert!(
        fast > 1.0 && fast <= 3.0 * 1.001,
        "opened at {fast} m/s under 3 m/s"
    );
}

/// A one-way platform keeps a contact only while the other shape is within 45 degrees of its
/// up side: a ball falling on it lands, a ball running into its side (normal 90 degrees from
/// up) passes through.
#[test]
fn a_one_way_platform_stops_what_comes_from_above_only() {
    let mut w = world(weightless());
    let platform = slab(&mut w, Vec2::ZERO, 2.0, 0.25, &ShapeDef::default());
    w.set_pre_solve(Some(one_way_platforms(vec![platform], Vec2::Y)));
    let (lander, _) = ball(
        &mut w,
        Vec2::new(0.0, 1.0),
        Vec2::new(0.0, -3.0),
        &ShapeDef::default(),
    );
    let (runner, _) = ball(
        &mut w,
        Vec2::new(-3.0, 0.0),
        Vec2::new(4.0, 0.0),
        &ShapeDef::default(),
    );
    for _ in 0..90 {
        w.step(DT).unwrap();
    }
    let landed = to_vec2(w.body_position(lander).unwrap()).y;
    assert!(landed > 0.25, "the falling ball went through to {landed}");
    let ran = to_vec2(w.body_position(runner).unwrap()).x;
    assert!(ran > 2.2, "the side-on ball stopped at {ran}");
}

/// A shape destroyed while inside a sensor ends its overlap: the next step reports the end
/// event, once.
#[test]
fn a_visitor_destroyed_inside_a_sensor_ends_its_overlap() {
    let mut w = world(weightless());
    let sensing = ShapeDef {
        is_sensor: true,
        ..Default::default()
    };
    let sensor = slab(&mut w, Vec2::ZERO, 1.0, 1.0, &sensing);
    let (visitor_body, visitor) = ball(&mut w, Vec2::ZERO, Vec2::ZERO, &ShapeDef::default());
    w.step(DT).unwrap();
    let began = w.sensor_begin_events();
    assert!(
        began
            .iter()
            .any(|e| e.sensor == sensor && e.visitor == visitor),
        "{began:?}"
    );
    w.destroy_body(visitor_body).unwrap();
    w.step(DT).unwrap();
    let ended: Vec<_> = w
        .sensor_end_events()
        .iter()
        .filter(|e| e.sensor == sensor && e.visitor == visitor)
        .collect();
    assert_eq!(ended.len(), 1, "{:?}", w.sensor_end_events());
    w.step(DT).unwrap();
    assert!(w.sensor_end_events().is_empty(), "reported again");
}

/// Seconds until two unit boxes overlapping by 0.1 m in zero gravity overlap by 0.03 m,
/// under `contact_hertz`.
fn overlap_closing_time(contact_hertz: f32) -> f32 {
    let mut w = world(WorldDef {
        contact_hertz,
        ..weightless()
    });
    let boxes = overlapping_boxes(&mut w, 0.1);
    for step in 1..=600 {
        w.step(DT).unwrap();
        if gap_between(&w, boxes) > -0.03 {
            return step as f32 * DT;
        }
    }
    f32::INFINITY
}

/// A softer `contact_hertz` pushes overlaps out more slowly, as the soft contact predicts.
/// Per substep (h = 1/240 s) the overlap C closes at the bias rate times the mass scale:
/// k = w / (2 z + h w) * h w (2 z + h w) / (1 + h w (2 z + h w)) with w = 2 pi f and the
/// damping ratio z = 10, so C falls as exp(-k t): k = 8.5 /s at Box2D's default 30 Hz and 1.1 /s
/// at 5 Hz, and closing from 0.1 to 0.03 m takes 7.5 times as long at 5 Hz. The bound allows
/// the steps' rounding of short times (the stiff case closes in about nine steps).
#[test]
fn a_softer_contact_hertz_closes_overlaps_as_much_more_slowly_as_predicted() {
    let rate = |hertz: f32| {
        let (h, z) = (1.0 / 240.0, 10.0);
        let w = 2.0 * std::f32::consts::PI * hertz;
        let hw = h * w;
        let mass_scale = hw * (2.0 * z + hw) / (1.0 + hw * (2.0 * z + hw));
        w / (2.0 * z + hw) * mass_scale
    };
    let predicted = rate(30.0) / rate(5.0);
    let (stiff, soft) = (overlap_closing_time(30.0), overlap_closing_time(5.0));
    let measured = soft / stiff;
    assert!(
        (measured - predicted).abs() < 0.25 * predicted,
        "closing took {soft} s at 5 Hz and {stiff} s at 30 Hz: {measured}x, predicted {predicted}x"
    );
}
