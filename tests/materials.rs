//! Friction and restitution against their textbook predictions.

mod common;

use common::{SOLVERS, build};
use physics2d_demos::physics_core::prelude::*;
use physics2d_demos::scene;
use physics2d_demos::scenes::{BALL_RESTITUTIONS, DROP_HEIGHT, RAMP_ANGLE, RAMP_FRICTIONS};

#[test]
fn boxes_on_a_thirty_degree_ramp_stick_or_slide_as_coulomb_says() {
    let s = scene("friction_ramp").unwrap();
    let g = 10.0f32;
    let downhill = -Rot::from_angle(RAMP_ANGLE).x_axis();
    for (solver, config) in SOLVERS {
        let mut built = build(&s, config);
        let boxes: Vec<BodyId> = built.bodies.iter().skip(1).step_by(2).copied().collect();
        let start: Vec<Vec2> = boxes
            .iter()
            .map(|b| built.world.body_position(*b).unwrap())
            .collect();
        let speed_at = |built: &mut physics2d_demos::BuiltScene, steps: usize| {
            for _ in 0..steps {
                built.world.step(s.dt).unwrap();
            }
            boxes
                .iter()
                .map(|b| built.world.linear_velocity(*b).unwrap().dot(downhill))
                .collect::<Vec<f32>>()
        };
        // Measure acceleration between 0.5 s and 1.5 s, after contact has settled.
        let v1 = speed_at(&mut built, 30);
        let v2 = speed_at(&mut built, 60);
        for (k, mu) in RAMP_FRICTIONS.into_iter().enumerate() {
            let predicted = g * (RAMP_ANGLE.sin() - mu * RAMP_ANGLE.cos());
            if predicted > 0.0 {
                let measured = (v2[k] - v1[k]) / 1.0;
                assert!(
                    (measured - predicted).abs() < 0.05 * predicted,
                    "{solver}: mu {mu} slides at {measured} m/s^2, Coulomb says {predicted}"
                );
            }
        }
        speed_at(&mut built, 90);
        for (k, mu) in RAMP_FRICTIONS.into_iter().enumerate() {
            if mu > RAMP_ANGLE.tan() {
                let moved = built
                    .world
                    .body_position(boxes[k])
                    .unwrap()
                    .distance(start[k]);
                assert!(
                    moved < 0.05,
                    "{solver}: mu {mu} should stick but moved {moved} m in 3 s"
                );
            }
        }
    }
}

#[test]
fn balls_rebound_to_restitution_squared_times_the_drop_height() {
    let s = scene("restitution").unwrap();
    for (solver, config) in SOLVERS {
        let mut built = build(&s, config);
        let balls = built.bodies[1..].to_vec();
        // Track each ball's highest bottom point after its first bounce.
        let mut bounced = vec![false; balls.len()];
        let mut peak = vec![0.0f32; balls.len()];
        for _ in 0..240 {
            built.world.step(s.dt).unwrap();
            for (i, b) in balls.iter().enumerate() {
                let v = built.world.linear_velocity(*b).unwrap();
                let bottom = built.world.body_position(*b).unwrap().y - 0.5;
                if v.y > 0.0 {
                    bounced[i] = true;
                }
                if bounced[i] {
                    peak[i] = peak[i].max(bottom);
                }
            }
        }
        for (i, e) in BALL_RESTITUTIONS.into_iter().enumerate() {
            let predicted = e * e * DROP_HEIGHT;
            if e == 0.0 {
                assert!(peak[i] < 0.01, "{solver}: e = 0 ball rose to {} m", peak[i]);
            } else {
                assert!(
                    (peak[i] - predicted).abs() < 0.05 * predicted,
                    "{solver}: e = {e} rebounds to {} m, predicted {predicted}",
                    peak[i]
                );
            }
        }
    }
}
