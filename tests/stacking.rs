//! Stacks that must stand still: the core promise of the contact solver. Every test runs
//! with the sequential and the block solver.

mod common;

use common::{SOLVERS, build, dynamic_positions, step_n};
use physics2d_demos::scene;

#[test]
fn vertical_stack_of_ten_stands_still_for_ten_seconds() {
    let s = scene("vertical_stack").unwrap();
    for (solver, block) in SOLVERS {
        let mut built = build(&s, block);
        step_n(&mut built, s.dt, 600);
        let top = *built.bodies.last().unwrap();
        let p = built.world.body_position(top).unwrap();
        // The top box rests at 9.5 m less the stack's total soft overlap (slop-sized per
        // contact): 2 cm allows 2 mm per contact.
        assert!(
            p.x.abs() < 0.01,
            "{solver}: top box drifted {} m sideways",
            p.x
        );
        assert!(
            (p.y - 9.5).abs() < 0.02,
            "{solver}: top box at {} m, rest 9.5",
            p.y
        );
    }
}

#[test]
fn pyramid_of_base_twenty_holds_its_shape() {
    let s = scene("pyramid").unwrap();
    for (solver, block) in SOLVERS {
        let mut built = build(&s, block);
        step_n(&mut built, s.dt, 120);
        let settled = dynamic_positions(&s, &built);
        step_n(&mut built, s.dt, 480);
        let later = dynamic_positions(&s, &built);
        let worst = settled
            .iter()
            .zip(&later)
            .map(|(a, b)| a.distance(*b))
            .fold(0.0f32, f32::max);
        assert!(
            worst < 0.05,
            "{solver}: a box moved {worst} m between 2 s and 10 s"
        );
    }
}

#[test]
fn heavy_box_on_light_boxes_stays_up() {
    let s = scene("high_mass_ratio").unwrap();
    for (solver, block) in SOLVERS {
        let mut built = build(&s, block);
        let heavy = *built.bodies.last().unwrap();
        let mut lowest = f32::INFINITY;
        for _ in 0..600 {
            built.world.step(s.dt).unwrap();
            lowest = lowest.min(built.world.body_position(heavy).unwrap().y);
        }
        // Resting height 1.5 m; penetration summed over both contact layers.
        assert!(1.5 - lowest < 0.05, "{solver}: heavy box sank to {lowest}");
    }
}

#[test]
fn overlapping_boxes_separate_gently_and_come_to_rest() {
    let s = scene("overlap_recovery").unwrap();
    for (solver, block) in SOLVERS {
        let mut built = build(&s, block);
        let mut fastest = 0.0f32;
        for _ in 0..600 {
            built.world.step(s.dt).unwrap();
            for id in &built.bodies {
                fastest = fastest.max(built.world.linear_velocity(*id).unwrap().length());
            }
        }
        assert!(fastest < 5.0, "{solver}: a box reached {fastest} m/s");
        let resting = built
            .bodies
            .iter()
            .map(|id| built.world.linear_velocity(*id).unwrap().length())
            .fold(0.0f32, f32::max);
        assert!(
            resting < 0.05,
            "{solver}: still moving at {resting} m/s after 10 s"
        );
    }
}
