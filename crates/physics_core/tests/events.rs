//! Events and hooks: sensors, touches, contact data, hits, one-way platforms and collision
//! groups, and a body destroyed inside a sleeping island, each showing nothing else in the
//! world is disturbed.

use physics_core::position::to_vec2;
use physics_core::prelude::*;
use physics_core::world::one_way_platforms;

const DT: f32 = 1.0 / 60.0;

fn world_with_ground() -> (World, ShapeId) {
    let mut w = World::new(WorldDef::default()).unwrap();
    let g = w
        .create_body(&BodyDef::fixed(Vec2::new(0.0, -1.0)))
        .unwrap();
    let s = w
        .create_shape(
            g,
            &ShapeDef::default(),
            Polygon::new_box(20.0, 1.0).unwrap().into(),
        )
        .unwrap();
    (w, s)
}

fn dynamic(w: &mut World, p: Vec2, def: ShapeDef, shape: Shape) -> (BodyId, ShapeId) {
    let b = w.create_body(&BodyDef::dynamic(p)).unwrap();
    let s = w.create_shape(b, &def, shape).unwrap();
    (b, s)
}

fn ball(r: f32) -> Shape {
    Shape::Circle(Circle::new(Vec2::ZERO, r).unwrap())
}

#[test]
fn static_sensor_reports_a_ball_passing_through_without_touching_it() {
    let (mut w, _) = world_with_ground();
    let zone = w.create_body(&BodyDef::fixed(Vec2::new(0.0, 5.0))).unwrap();
    let sensing = ShapeDef {
        is_sensor: true,
        ..Default::default()
    };
    let sensor = w
        .create_shape(zone, &sensing, Polygon::new_box(2.0, 1.0).unwrap().into())
        .unwrap();
    let (b, s) = dynamic(
        &mut w,
        Vec2::new(0.0, 10.0),
        ShapeDef::default(),
        ball(0.25),
    );
    let (mut began, mut ended) = (None, None);
    for step in 0..90 {
        w.step(DT).unwrap();
        if w.sensor_begin_events()
            .iter()
            .any(|e| e.sensor == sensor && e.visitor == s)
        {
            began = Some(step);
        }
        if w.sensor_end_events()
            .iter()
            .any(|e| e.sensor == sensor && e.visitor == s)
        {
            ended = Some(step);
        }
    }
    let (began, ended) = (began.expect("no begin event"), ended.expect("no end event"));
    assert!(began < ended);
    // Free fall from 10 m: the bottom (y - 0.25) crosses y = 6 at t = sqrt(2 * 3.75 / 10).
    let t_enter = (2.0f32 * 3.75 / 10.0).sqrt();
    assert!(
        ((began + 1) as f32 * DT - t_enter).abs() < 2.0 * DT,
        "entered at step {began}"
    );
    // The sensor pushed nothing: the ball's fall is undisturbed until it reaches the ground.
    assert!(
        w.contact_data()
            .iter()
            .all(|c| c.shape_a != sensor && c.shape_b != sensor)
    );
    assert!(
        (to_vec2(w.body_position(b).unwrap()).y - 0.25).abs() < 0.01,
        "ball rests on the ground"
    );
}

#[test]
fn a_body_with_only_sensor_shapes_falls_through_and_reports_overlaps() {
    let (mut w, ground) = world_with_ground();
    let (resting, _) = dynamic(
        &mut w,
        Vec2::new(3.0, 0.5),
        ShapeDef::default(),
        Polygon::new_box(0.5, 0.5).unwrap().into(),
    );
    let ghost_def = ShapeDef {
        is_sensor: true,
        ..Default::default()
    };
    let (ghost, ghost_shape) = dynamic(&mut w, Vec2::new(0.0, 2.0), ghost_def, ball(0.5));
    let mut saw_ground = false;
    for _ in 0..120 {
        w.step(DT).unwrap();
        saw_ground |= w
            .sensor_begin_events()
            .iter()
            .any(|e| e.sensor == ghost_shape && e.visitor == ground);
    }
    assert!(saw_ground, "the ghost never reported the ground");
    assert!(
        to_vec2(w.body_position(ghost).unwrap()).y < -3.0,
        "the ghost did not fall through"
    );
    assert!((to_vec2(w.body_position(resting).unwrap()) - Vec2::new(3.0, 0.5)).length() < 0.01);
}

#[test]
fn touch_events_and_contact_impulses_carry_the_weight() {
    let (mut w, ground) = world_with_ground();
    let (b, s) = dynamic(
        &mut w,
        Vec2::new(0.0, 2.0),
        ShapeDef::default(),
        Polygon::new_box(0.5, 0.5).unwrap().into(),
    );
    let mut began = false;
    for _ in 0..120 {
        w.step(DT).unwrap();
        began |= w.begin_contact_events().iter().any(|e| {
            (e.shape_a, e.shape_b) == (ground, s) || (e.shape_a, e.shape_b) == (s, ground)
        });
    }
    assert!(began);
    let data = w.contact_data();
    assert_eq!(data.len(), 1);
    let m = data[0].manifold;
    assert_eq!(m.point_count, 2);
    // At rest the normal impulses (per substep) carry the weight: sum = m g h.
    let mass = w.body_mass_data(b).unwrap().mass;
    let h = DT / 4.0;
    let total: f32 = m.points().iter().map(|p| p.normal_impulse).sum();
    assert!(
        (total - mass * 10.0 * h).abs() < 0.05 * mass * 10.0 * h,
        "impulse {total}"
    );
    // Nothing pushes sideways: the friction impulses cancel (each point may hold some, in
    // opposite directions, as a statically indeterminate support may).
    let friction: f32 = m.points().iter().map(|p| p.tangent_impulse).sum();
    assert!(
        friction.abs() < 0.01 * mass * 10.0 * h,
        "net friction {friction}"
    );
    w.destroy_body(b).unwrap();
    w.step(DT).unwrap();
    assert_eq!(w.end_contact_events().len(), 1);
    assert!(w.contact_data().is_empty());
}

#[test]
fn hit_events_report_hard_impacts_only() {
    let (mut w, _) = world_with_ground();
    let loud = ShapeDef {
        enable_hit_events: true,
        ..Default::default()
    };
    dynamic(&mut w, Vec2::new(0.0, 5.25), loud, ball(0.25));
    dynamic(&mut w, Vec2::new(3.0, 0.26), loud, ball(0.25));
    let mut hits = Vec::new();
    for _ in 0..90 {
        w.step(DT).unwrap();
        hits.extend_from_slice(w.hit_events());
    }
    // The ball dropped 5 m arrives at sqrt(2 g 5) = 10 m/s; the one set down 1 cm up does not hit.
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert!(
        (hits[0].approach_speed - 10.0).abs() < 0.5,
        "{}",
        hits[0].approach_speed
    );
    assert!(hits[0].point.x.abs() < 0.01);
}

#[test]
fn one_way_platform_lets_a_box_jump_up_through_and_land_on_top() {
    let (mut w, _) = world_with_ground();
    let shelf = w.create_body(&BodyDef::fixed(Vec2::new(0.0, 3.0))).unwrap();
    let platform = w
        .create_shape(
            shelf,
            &ShapeDef::default(),
            Polygon::new_box(3.0, 0.1).unwrap().into(),
        )
        .unwrap();
    w.set_pre_solve(Some(one_way_platforms(vec![platform], Vec2::Y)));
    let (b, _) = dynamic(
        &mut w,
        Vec2::new(0.0, 0.5),
        ShapeDef::default(),
        Polygon::new_box(0.5, 0.5).unwrap().into(),
    );
    w.set_linear_velocity(b, Vec2::new(0.0, 10.0)).unwrap();
    for _ in 0..180 {
        w.step(DT).unwrap();
    }
    // Resting on the shelf's top at 3.1 + 0.5.
    assert!(
        (to_vec2(w.body_position(b).unwrap()).y - 3.6).abs() < 0.02,
        "box at {}",
        to_vec2(w.body_position(b).unwrap())
    );
}

#[test]
fn destroying_a_body_inside_a_sleeping_island_disturbs_nothing_else() {
    let (mut w, _) = world_with_ground();
    let unit = || Shape::Polygon(Polygon::new_box(0.5, 0.5).unwrap());
    let column: Vec<BodyId> = (0..3)
        .map(|i| {
            dynamic(
                &mut w,
                Vec2::new(0.0, 0.5 + i as f32),
                ShapeDef::default(),
                unit(),
            )
            .0
        })
        .collect();
    let other: Vec<BodyId> = (0..3)
        .map(|i| {
            dynamic(
                &mut w,
                Vec2::new(5.0, 0.5 + i as f32),
                ShapeDef::default(),
                unit(),
            )
            .0
        })
        .collect();
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    assert_eq!(w.awake_body_count(), 0);
    let before: Vec<Vec2> = column
        .iter()
        .chain(&other)
        .map(|b| to_vec2(w.body_position(*b).unwrap()))
        .collect();
    // Take the middle box out of the first column: the top one falls onto the bottom one.
    w.destroy_body(column[1]).unwrap();
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    assert!((to_vec2(w.body_position(column[0]).unwrap()) - before[0]).length() < 0.01);
    assert!(
        (to_vec2(w.body_position(column[2]).unwrap()).y - 1.5).abs() < 0.02,
        "top box fell onto the bottom one"
    );
    // The other island never woke and never moved.
    for (b, p) in other.iter().zip(&before[3..]) {
        assert_eq!(to_vec2(w.body_position(*b).unwrap()), *p);
    }
}

#[test]
fn negative_groups_never_collide_and_positive_groups_always_do() {
    let grouped = |group: i32, mask: u64| ShapeDef {
        filter: Filter {
            group_index: group,
            mask_bits: mask,
            ..Default::default()
        },
        ..Default::default()
    };
    let touching_after = |a_def: ShapeDef, b_def: ShapeDef| {
        let mut w = World::new(WorldDef {
            gravity: Vec2::ZERO,
            ..Default::default()
        })
        .unwrap();
        dynamic(&mut w, Vec2::ZERO, a_def, ball(0.5));
        dynamic(&mut w, Vec2::new(0.6, 0.0), b_def, ball(0.5));
        w.step(DT).unwrap();
        w.touching_contact_count()
    };
    assert_eq!(
        touching_after(grouped(-1, u64::MAX), grouped(-1, u64::MAX)),
        0
    );
    assert_eq!(
        touching_after(grouped(-1, u64::MAX), grouped(-2, u64::MAX)),
        1
    );
    // A shared positive group collides even with masks that exclude each other.
    assert_eq!(touching_after(grouped(3, 0), grouped(3, 0)), 1);
    assert_eq!(touching_after(grouped(0, 0), grouped(0, u64::MAX)), 0);
}
