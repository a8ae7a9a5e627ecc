//! Surfaces that move (conveyor belts), rolling resistance, and explosions.

use physics_core::position::to_position;
use physics_core::position::to_vec2;
use physics_core::prelude::*;

const DT: f32 = 1.0 / 60.0;

/// A world without sleep and a static box 40 m wide whose top is at y = 0.
fn world_with_ground(ground_def: ShapeDef) -> (World, ShapeId) {
    let mut w = World::new(WorldDef {
        enable_sleep: false,
        ..Default::default()
    })
    .unwrap();
    let g = w
        .create_body(&BodyDef::fixed(Vec2::new(0.0, -0.5)))
        .unwrap();
    let s = w
        .create_shape(g, &ground_def, Polygon::new_box(20.0, 0.5).unwrap().into())
        .unwrap();
    (w, s)
}

fn add_box(w: &mut World, x: f32) -> BodyId {
    let b = w.create_body(&BodyDef::dynamic(Vec2::new(x, 0.5))).unwrap();
    w.create_shape(
        b,
        &ShapeDef::default(),
        Polygon::new_box(0.5, 0.5).unwrap().into(),
    )
    .unwrap();
    b
}

#[test]
fn a_conveyor_belt_carries_boxes_at_its_speed() {
    for speed in [2.0f32, -3.0] {
        let belt = ShapeDef {
            tangent_speed: speed,
            ..Default::default()
        };
        let (mut w, _) = world_with_ground(belt);
        // A box created before the ground would be shape A of its contact: both orders.
        let boxes = [add_box(&mut w, -4.0), add_box(&mut w, 4.0)];
        for _ in 0..120 {
            w.step(DT).unwrap();
        }
        for b in boxes {
            let v = w.linear_velocity(b).unwrap();
            // Friction 0.6 brings a box to the belt's speed in |s| / (0.6 g) < 0.5 s; then it
            // rides along: on the top side the surface moves to the right for a positive speed.
            assert!(
                (v.x - speed).abs() < 0.01 * speed.abs(),
                "speed {speed}: box at {v}"
            );
            assert!(v.y.abs() < 1e-3);
        }
    }
}

#[test]
fn a_belt_edited_in_place_changes_what_it_carries() {
    let (mut w, ground) = world_with_ground(ShapeDef::default());
    let b = add_box(&mut w, 0.0);
    for _ in 0..30 {
        w.step(DT).unwrap();
    }
    assert!(w.linear_velocity(b).unwrap().x.abs() < 1e-4);
    w.set_shape_surface_motion(ground, 1.5, 0.0).unwrap();
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    assert!((w.linear_velocity(b).unwrap().x - 1.5).abs() < 0.015);
    assert!(w.set_shape_surface_motion(ground, f32::NAN, 0.0).is_err());
    assert!(w.set_shape_surface_motion(ground, 0.0, -1.0).is_err());
}

/// Rolls a disk of radius 0.5 at `speed` from x = 0 on ground with rolling resistance
/// `resistance` (on both shapes, the larger applies); returns where it stops.
fn roll(speed: f32, resistance: f32) -> (f32, f32) {
    let rough = ShapeDef {
        rolling_resistance: resistance,
        ..Default::default()
    };
    let (mut w, _) = world_with_ground(rough);
    let r = 0.5;
    let def = BodyDef::dynamic(Vec2::new(-15.0, r)).with_velocity(Vec2::new(speed, 0.0));
    let ball = w.create_body(&def).unwrap();
    w.set_angular_velocity(ball, -speed / r).unwrap();
    w.create_shape(ball, &rough, Circle::new(Vec2::ZERO, r).unwrap().into())
        .unwrap();
    for _ in 0..600 {
        w.step(DT).unwrap();
    }
    let x = to_vec2(w.body_position(ball).unwrap()).x + 15.0;
    (x, w.linear_velocity(ball).unwrap().x)
}

#[test]
fn rolling_resistance_stops_a_ball_where_the_energy_says() {
    // A rolling disk carries 3/4 m v^2 (half of it in spin, I = m r^2 / 2); the resisting
    // torque c r m g dissipates c m g per metre rolled, so it stops after 3 v^2 / (4 c g):
    // 12 m from 4 m/s with c = 0.1.
    let (stopped_at, v) = roll(4.0, 0.1);
    let predicted = 3.0 * 16.0 / (4.0 * 0.1 * 10.0);
    assert!(v.abs() < 1e-3, "still rolling at {v}");
    assert!(
        (stopped_at - predicted).abs() < 0.03 * predicted,
        "stopped at {stopped_at} m, predicted {predicted} m"
    );
    // Without resistance it rolls on at its speed.
    let (_, v) = roll(4.0, 0.0);
    assert!((v - 4.0).abs() < 0.01, "{v}");
}

#[test]
fn surface_motion_survives_a_snapshot_bit_for_bit() {
    let belt = ShapeDef {
        tangent_speed: 1.0,
        rolling_resistance: 0.05,
        ..Default::default()
    };
    let (mut w, _) = world_with_ground(belt);
    add_box(&mut w, 1.0);
    let ball = w
        .create_body(&BodyDef::dynamic(Vec2::new(-3.0, 0.4)))
        .unwrap();
    w.create_shape(ball, &belt, Circle::new(Vec2::ZERO, 0.4).unwrap().into())
        .unwrap();
    w.set_linear_velocity(ball, Vec2::new(3.0, 0.0)).unwrap();
    for _ in 0..20 {
        w.step(DT).unwrap();
    }
    let saved = WorldSnapshot::from_bytes(&w.snapshot().to_bytes()).unwrap();
    for _ in 0..60 {
        w.step(DT).unwrap();
    }
    let mut restored = World::new(WorldDef::default()).unwrap();
    restored.restore(&saved).unwrap();
    for _ in 0..60 {
        restored.step(DT).unwrap();
    }
    assert_eq!(w.state_hash(), restored.state_hash());
}

#[test]
fn an_explosion_pushes_bodies_away_falling_off_with_distance() {
    let mut w = World::new(WorldDef {
        gravity: Vec2::ZERO,
        ..Default::default()
    })
    .unwrap();
    let ball = |w: &mut World, p: Vec2, kind: BodyDef| {
        let b = w
            .create_body(&BodyDef {
                position: to_position(p),
                ..kind
            })
            .unwrap();
        w.create_shape(
            b,
            &ShapeDef::default(),
            Circle::new(Vec2::ZERO, 0.5).unwrap().into(),
        )
        .unwrap();
        b
    };
    let dynamic = BodyDef::dynamic(Vec2::ZERO);
    let near = ball(&mut w, Vec2::new(2.5, 0.0), dynamic);
    let far_side = ball(&mut w, Vec2::new(0.0, -4.5), dynamic);
    let outside = ball(&mut w, Vec2::new(-7.0, 0.0), dynamic);
    let wall = ball(&mut w, Vec2::new(0.0, 3.0), BodyDef::fixed(Vec2::ZERO));
    let pushed = w
        .explode(Vec2::ZERO, 5.0, 10.0, &QueryFilter::default())
        .unwrap();
    // Nearest points 2 m and 4 m away: 10 (1 - 2/5) = 6 and 10 (1 - 4/5) = 2, straight away.
    assert_eq!(pushed.len(), 2);
    let impulse_of = |b| pushed.iter().find(|(id, _)| *id == b).unwrap().1;
    assert!((impulse_of(near) - Vec2::new(6.0, 0.0)).length() < 1e-4);
    assert!((impulse_of(far_side) - Vec2::new(0.0, -2.0)).length() < 1e-4);
    // The impulse is the momentum change (mass pi r^2).
    let mass = std::f32::consts::PI * 0.25;
    let v = w.linear_velocity(near).unwrap();
    assert!((mass * v - Vec2::new(6.0, 0.0)).length() < 1e-3);
    assert_eq!(w.linear_velocity(outside).unwrap(), Vec2::ZERO);
    assert_eq!(w.linear_velocity(wall).unwrap(), Vec2::ZERO);
    assert!(
        w.explode(Vec2::NAN, 5.0, 1.0, &QueryFilter::default())
            .is_err()
    );
    assert!(
        w.explode(Vec2::ZERO, -1.0, 1.0, &QueryFilter::default())
            .is_err()
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
        to_vec2(w.body_position(b).unwrap()).distance(0.75 * normal) > 0.5
    };
    assert!(slides(MixRule::GeometricMean));
    assert!(!slides(MixRule::Max));
    assert_eq!(MixRule::Average.mix(0.2, 0.6), 0.4);
    assert_eq!(MixRule::Min.mix(0.2, 0.6), 0.2);
}
