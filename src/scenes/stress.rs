//! Stress scenes: many bodies in motion at once.

use crate::scene::{BodyDesc, JointDesc, Scene, ShapeDesc, ball, boxed};
use physics_core::prelude::*;

/// Three staggered rows of static pegs and 600 mixed shapes (boxes, balls, capsules) raining
/// onto them from a grid up to 60 m high, in an 80 m wide box (balls deflected by the pegs
/// would otherwise roll off the ends of the ground).
pub fn shape_rain() -> Scene {
    let mut bodies = vec![
        BodyDesc::fixed(Vec2::new(0.0, -1.0), boxed(40.0, 1.0)),
        BodyDesc::fixed(Vec2::new(-40.5, 20.0), boxed(0.5, 20.0)),
        BodyDesc::fixed(Vec2::new(40.5, 20.0), boxed(0.5, 20.0)),
    ];
    for row in 0..3 {
        for k in 0..12 {
            let x = -22.0 + 4.0 * k as f32 + 2.0 * (row % 2) as f32;
            bodies.push(BodyDesc::fixed(
                Vec2::new(x, 6.0 + 5.0 * row as f32),
                boxed(1.0, 0.25),
            ));
        }
    }
    let capsule = || {
        ShapeDesc::new(
            Capsule::new(Vec2::new(-0.25, 0.0), Vec2::new(0.25, 0.0), 0.2).expect("valid capsule"),
        )
    };
    for i in 0..600 {
        let (column, row) = (i % 30, i / 30);
        let position = Vec2::new(-21.75 + 1.5 * column as f32, 22.0 + 2.0 * row as f32);
        let shape = match i % 3 {
            0 => boxed(0.35, 0.35),
            1 => ball(0.35),
            _ => capsule(),
        };
        bodies.push(BodyDesc::dynamic(position, shape).angle(0.1 * i as f32));
    }
    Scene {
        name: "shape_rain",
        gravity: Vec2::new(0.0, -10.0),
        dt: 1.0 / 60.0,
        steps: 1000,
        bodies,
        joints: Vec::new(),
        groups: Vec::new(),
        timeline: Vec::new(),
    }
}

/// A kinematic box frame turning at 25 degrees per second around (0, 10), holding a 45 x 45
/// grid of small boxes (Box2D's tumbler geometry, with the frame driven kinematically).
pub fn tumbler() -> Scene {
    let wall = |hx: f32, hy: f32, x: f32, y: f32| {
        ShapeDesc::new(
            Polygon::new_offset_box(hx, hy, Vec2::new(x, y), Rot::IDENTITY)
                .expect("walls have positive extents"),
        )
        .density(50.0)
    };
    let frame = BodyDesc::kinematic(Vec2::new(0.0, 10.0), wall(0.5, 10.0, 10.0, 0.0))
        .with_shape(wall(0.5, 10.0, -10.0, 0.0))
        .with_shape(wall(10.0, 0.5, 0.0, 10.0))
        .with_shape(wall(10.0, 0.5, 0.0, -10.0))
        .spin(25f32.to_radians());
    let mut bodies = vec![frame];
    for i in 0..45 {
        for j in 0..45 {
            let position = Vec2::new(
                -0.2 * 45.0 + 0.4 * i as f32,
                -0.2 * 45.0 + 10.0 + 0.4 * j as f32,
            );
            bodies.push(BodyDesc::dynamic(position, boxed(0.125, 0.125)));
        }
    }
    Scene {
        name: "tumbler",
        gravity: Vec2::new(0.0, -10.0),
        dt: 1.0 / 60.0,
        steps: 750,
        bodies,
        joints: Vec::new(),
        groups: Vec::new(),
        timeline: Vec::new(),
    }
}

/// Centre of the spinner's bowl.
pub const SPINNER_BOWL_CENTER: Vec2 = Vec2::new(0.0, 32.0);
/// Radius of the spinner's bowl: every body should stay inside it.
pub const SPINNER_BOWL_RADIUS: f32 = 40.0;

/// Box2D's spinner: a closed bowl of 360 two-sided segments (radius 40 around (0, 32)), a
/// 40 m rounded paddle on a motor turning at 5 rad/s with unlimited torque, and 6076 light
/// capsules, balls and boxes filling the bottom of the bowl.
pub fn spinner() -> Scene {
    let ring = |t: f32| SPINNER_BOWL_CENTER + SPINNER_BOWL_RADIUS * Vec2::new(t.cos(), t.sin());
    let step = -2.0 * std::f32::consts::PI / 360.0;
    let segment = |k: usize| {
        let (t0, t1) = (step * k as f32, step * (k + 1) as f32);
        ShapeDesc::new(Segment::new(ring(t0), ring(t1)).expect("ring segments have length"))
            .friction(0.1)
    };
    let mut ground = BodyDesc::fixed(Vec2::ZERO, segment(0));
    for k in 1..360 {
        ground = ground.with_shape(segment(k));
    }
    let paddle = Polygon::new_rounded_box(0.4, 20.0, 0.2).expect("valid rounded box");
    let mut bodies = vec![
        ground,
        BodyDesc::dynamic(Vec2::new(0.0, 12.0), ShapeDesc::new(paddle).friction(0.0)),
    ];
    let capsule =
        Capsule::new(Vec2::new(-0.25, 0.0), Vec2::new(0.25, 0.0), 0.25).expect("valid capsule");
    let (mut x, mut y) = (-23.0f32, 2.0f32);
    for i in 0..6076 {
        let shape = match i % 3 {
            0 => ShapeDesc::new(capsule),
            1 => ball(0.35),
            _ => boxed(0.35, 0.35),
        };
        let shape = shape.density(0.25).friction(0.1).restitution(0.1);
        bodies.push(BodyDesc::dynamic(Vec2::new(x, y), shape));
        x += 0.5;
        if x >= 23.0 {
            x = -23.0;
            y += 0.5;
        }
    }
    let motor = RevoluteJoint {
        enable_motor: true,
        motor_speed: 5.0,
        max_motor_torque: f32::MAX,
        ..Default::default()
    };
    Scene {
        name: "spinner",
        gravity: Vec2::new(0.0, -10.0),
        dt: 1.0 / 60.0,
        steps: 500,
        bodies,
        joints: vec![JointDesc::at(
            0,
            1,
            Vec2::new(0.0, 12.0),
            JointKind::Revolute(motor),
        )],
        groups: Vec::new(),
        timeline: Vec::new(),
    }
}

/// Zero gravity: a heavy box at 40 m/s smashes into a 120 x 80 block of small boxes.
pub fn smash() -> Scene {
    let mut bodies = vec![
        BodyDesc::dynamic(Vec2::new(-20.0, 0.0), boxed(4.0, 4.0).density(8.0))
            .velocity(Vec2::new(40.0, 0.0)),
    ];
    for i in 0..120 {
        for j in 0..80 {
            let position = Vec2::new(30.0 + 0.4 * i as f32, 0.4 * (j as f32 - 40.0));
            bodies.push(BodyDesc::dynamic(position, boxed(0.2, 0.2)));
        }
    }
    Scene {
        name: "smash",
        gravity: Vec2::ZERO,
        dt: 1.0 / 60.0,
        steps: 300,
        bodies,
        joints: Vec::new(),
        groups: Vec::new(),
        timeline: Vec::new(),
    }
}
