//! Fast bodies never pass through thin walls; bullets never pass through thin dynamic boxes.

mod joint_rig;

use joint_rig::{pin, pin_gap};
use physics_core::position::to_vec2;
use physics_core::prelude::*;

const DT: f32 = 1.0 / 60.0;

fn world() -> World {
    World::new(WorldDef {
        gravity: Vec2::ZERO,
        // 500 m/s must really be 500 m/s: lift the 400 m/s safety limit.
        max_linear_speed: 1000.0,
        ..Default::default()
    })
    .unwrap()
}

/// A static wall 0.1 m thick and 10 m tall with its near face at x = 10.
fn wall(w: &mut World) {
    let b = w
        .create_body(&BodyDef::fixed(Vec2::new(10.05, 0.0)))
        .unwrap();
    w.create_shape(
        b,
        &ShapeDef::default(),
        Polygon::new_box(0.05, 5.0).unwrap().into(),
    )
    .unwrap();
}

fn shoot(w: &mut World, shape: Shape, velocity: Vec2, angle: f32, spin: f32) -> BodyId {
    let b = w
        .create_body(&BodyDef {
            angular_velocity: spin,
            ..BodyDef::dynamic(Vec2::ZERO)
                .with_velocity(velocity)
                .with_angle(angle)
        })
        .unwrap();
    w.create_shape(b, &ShapeDef::default(), shape).unwrap();
    b
}

#[test]
fn fast_circle_and_thin_box_never_pass_a_thin_wall() {
    let circle = Shape::Circle(Circle::new(Vec2::ZERO, 0.05).unwrap());
    let plank = Shape::Polygon(Polygon::new_box(0.025, 0.5).unwrap());
    let cases = [
        ("circle at 500 m/s", circle, 500.0, 0.0, 0.0),
        ("thin box at 300 m/s, broadside", plank, 300.0, 0.0, 0.0),
        (
            "thin box at 300 m/s, edge on",
            plank,
            300.0,
            std::f32::consts::FRAC_PI_2,
            0.0,
        ),
        ("thin box at 300 m/s, spinning", plank, 300.0, 0.3, 40.0),
    ];
    for (name, shape, speed, angle, spin) in cases {
        let mut w = world();
        wall(&mut w);
        let b = shoot(&mut w, shape, Vec2::new(speed, 0.0), angle, spin);
        let mut deepest = f32::NEG_INFINITY;
        for _ in 0..60 {
            w.step(DT).unwrap();
            // The body's furthest point: every part of it, not only its centre.
            let front = shape.world_aabb(w.body_transform(b).unwrap()).max.x;
            deepest = deepest.max(front - 10.0);
        }
        // The sweep stops it a linear slop short of the face, and the contact that follows
        // lets it rest at most the linear slop (5 mm) deep. Through the wall it reads 0.1 m
        // or more.
        assert!(deepest < 0.005, "{name}: {deepest} m into the 0.1 m wall");
        assert!(
            deepest > -0.05,
            "{name}: never reached the wall ({deepest})"
        );
        assert!(
            to_vec2(w.body_position(b).unwrap()).x < 10.0,
            "{name} ended inside the wall"
        );
    }
}

#[test]
fn bullet_against_thin_dynamic_boxes_stops_or_deflects() {
    let fire = |bullet: bool| {
        let mut w = world();
        // Five thin plates standing in a row.
        let plates: Vec<BodyId> = (0..5)
            .map(|i| {
                let b = w
                    .create_body(&BodyDef::dynamic(Vec2::new(10.0 + 0.5 * i as f32, 0.0)))
                    .unwrap();
                w.create_shape(
                    b,
                    &ShapeDef::default(),
                    Polygon::new_box(0.025, 1.0).unwrap().into(),
                )
                .unwrap();
                b
            })
            .collect();
        let shot = shoot(
            &mut w,
            Shape::Circle(Circle::new(Vec2::ZERO, 0.05).unwrap()),
            Vec2::new(300.0, 0.0),
            0.0,
            0.0,
        );
        w.set_bullet(shot, bullet).unwrap();
        let starts: Vec<Vec2> = plates
            .iter()
            .map(|p| to_vec2(w.body_position(*p).unwrap()))
            .collect();
        let mut passed_untouched = false;
        for _ in 0..30 {
            w.step(DT).unwrap();
            let shot_at = to_vec2(w.body_position(shot).unwrap());
            // Beyond any plate, within its height, while that plate never moved: it went
            // through that plate (a bullet knocking the first plate into the second must
            // not tunnel through the second either).
            for (plate, start) in plates.iter().zip(&starts) {
                let now = to_vec2(w.body_position(*plate).unwrap());
                if shot_at.x > now.x + 0.1 && shot_at.y.abs() < 1.0 && now.distance(*start) < 1e-3 {
                    passed_untouched = true;
                }
            }
        }
        passed_untouched
    };
    assert!(!fire(true), "the bullet tunnelled through a plate");
    // Without the bullet flag, the same shot does pass through (what the flag is for).
    assert!(
        fire(false),
        "expected a plain fast body to tunnel through the dynamic plates"
    );
}

#[test]
fn zero_velocity_bullet_disturbs_nothing() {
    let mut w = World::new(WorldDef::default()).unwrap();
    let ground = w
        .create_body(&BodyDef::fixed(Vec2::new(0.0, -1.0)))
        .unwrap();
    w.create_shape(
        ground,
        &ShapeDef::default(),
        Polygon::new_box(20.0, 1.0).unwrap().into(),
    )
    .unwrap();
    let resting = w
        .create_body(&BodyDef::dynamic(Vec2::new(0.0, 0.5)))
        .unwrap();
    w.create_shape(
        resting,
        &ShapeDef::default(),
        Polygon::new_box(0.5, 0.5).unwrap().into(),
    )
    .unwrap();
    let idle = w
        .create_body(&BodyDef {
            bullet: true,
            ..BodyDef::dynamic(Vec2::new(3.0, 0.25))
        })
        .unwrap();
    w.create_shape(
        idle,
        &ShapeDef::default(),
        Circle::new(Vec2::ZERO, 0.25).unwrap().into(),
    )
    .unwrap();
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    assert!((to_vec2(w.body_position(resting).unwrap()) - Vec2::new(0.0, 0.5)).length() < 0.01);
    assert!((to_vec2(w.body_position(idle).unwrap()) - Vec2::new(3.0, 0.25)).length() < 0.01);
}

/// A leg standing on its foot: a thigh (capsule) over a shin (capsule) pinned at the knee,
/// dropped from `height` (foot above the floor) onto a static floor. Returns the widest the
/// knee opened over the fall and what follows it (120 steps in all), and the speed at which
/// the foot hit.
fn dropped_leg_knee_gap(height: f32) -> (f32, f32) {
    let mut w = World::new(WorldDef::default()).unwrap();
    let floor = w
        .create_body(&BodyDef::fixed(Vec2::new(0.0, -0.5)))
        .unwrap();
    w.create_shape(
        floor,
        &ShapeDef::default(),
        Polygon::new_box(5.0, 0.5).unwrap().into(),
    )
    .unwrap();
    let bone = |w: &mut World, y: f32, radius: f32| {
        let b = w.create_body(&BodyDef::dynamic(Vec2::new(0.0, y))).unwrap();
        let shape = Capsule::new(Vec2::new(0.0, -0.2), Vec2::new(0.0, 0.2), radius).unwrap();
        w.create_shape(b, &ShapeDef::default(), shape.into())
            .unwrap();
        b
    };
    let shin = bone(&mut w, height + 0.28, 0.08);
    let thigh = bone(&mut w, height + 0.88, 0.1);
    let knee = pin(
        &mut w,
        shin,
        thigh,
        Vec2::new(0.0, height + 0.58),
        RevoluteJoint::default(),
    );
    let mut widest = 0.0f32;
    let mut impact_speed = 0.0f32;
    let mut swept = 0;
    for _ in 0..120 {
        let falling = -w.linear_velocity(shin).unwrap().y;
        w.step(DT).unwrap();
        swept += w.counters().bodies_swept;
        if impact_speed == 0.0 && w.linear_velocity(shin).unwrap().y > -0.5 * falling {
            impact_speed = falling;
        }
        widest = widest.max(pin_gap(&w, knee));
    }
    // The foot came down fast enough to be swept: what the rewind acts on.
    assert!(swept > 0, "dropped from {height} m, nothing was swept");
    (widest, impact_speed)
}

/// A sweep stopped a fast body alone: a leg landing on its foot had its shin taken back to
/// the moment of impact while the thigh kept its pose at the end of the step, and the knee
/// opened by the shin's travel over the rest of the step (anywhere from 0 to a whole step's
/// travel, v dt, by where in the step the foot landed; 9 cm at 6.7 m/s). The drops cover
/// landings early and late in a step. With the thigh taken back too, only the soft pin's own
/// give under the blow is left: under a tenth of v dt (7.7 % measured), so the bound, 15 %,
/// fails on any drop that lands in the first 85 % of a step.
#[test]
fn regression_a_knee_opened_when_a_sweep_stopped_the_shin_alone() {
    for k in 0..12 {
        let height = 1.0 + 0.13 * k as f32;
        let (gap, speed) = dropped_leg_knee_gap(height);
        assert!(
            speed > 4.0,
            "dropped from {height} m, the foot hit at {speed} m/s"
        );
        let bound = 0.15 * speed * DT;
        assert!(
            gap < bound,
            "dropped from {height} m (foot at {speed} m/s), the knee opened {gap} m (bound {bound} m)"
        );
    }
}
