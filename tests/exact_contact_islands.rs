//! Exact contact islands (`WorldDef::exact_contact_island_bodies`): heavy bodies on
//! light ones rest on their contacts instead of sinking into them, and every scene of the
//! library steps sanely with the setting on.

mod common;

use common::{EXACT_ISLAND_BODIES, Solver, build};
use physics2d_demos::physics_core::prelude::*;
use physics2d_demos::scenes::{BIG_BOX_REST_HEIGHT, high_mass_ratio_1_heavy_boxes};
use physics2d_demos::{ABSENT_BODY, scene};

/// Solver2D's high mass ratio scenes: the heavy box sinks at most 2 cm below its rigid rest
/// height after 10 s. Box2D v3, rapier2d and this engine's soft contacts without carried
/// mass sink it 8.6 to 22 cm (`bench_compare --fidelity`): a soft contact's stiffness is the
/// light body's. (Carried mass, on by default, holds them too: `tests/heavy_on_light.rs`.)
#[test]
fn heavy_boxes_on_light_ones_sink_at_most_two_centimetres() {
    for name in [
        "high_mass_ratio_1",
        "high_mass_ratio_2",
        "high_mass_ratio_3",
    ] {
        let s = scene(name).unwrap();
        let mut built = build(&s, Solver::ExactIslands);
        for _ in 0..s.steps {
            built.world.step(s.dt).unwrap();
        }
        let heavy: Vec<(usize, f32)> = if name == "high_mass_ratio_1" {
            high_mass_ratio_1_heavy_boxes().to_vec()
        } else {
            vec![(3, BIG_BOX_REST_HEIGHT)]
        };
        for (index, rest) in heavy {
            let p = built.world.body_position(built.bodies[index]).unwrap();
            let sink = rest - p.y;
            assert!(
                sink.abs() < 0.02,
                "{name}: the heavy box {index} sank {sink} m"
            );
            let v = built.world.linear_velocity(built.bodies[index]).unwrap();
            assert!(v.length() < 0.01, "{name}: box {index} still moves at {v}");
        }
        // The pyramids below hold their shape: no light box squeezed out sideways.
        for (desc, id) in s.bodies.iter().zip(&built.bodies).skip(1) {
            let p = built.world.body_position(*id).unwrap();
            assert!(
                (p.x - desc.position.x).abs() < 0.05,
                "{name}: a box moved {} m sideways",
                p.x - desc.position.x
            );
        }
    }
}

/// The island limit is a limit: islands larger than it keep the soft contacts (a soft stack
/// of ten sags 1.45 cm at the default 45 Hz, `tests/stacking.rs`; solved exactly it sags
/// under a millimetre).
#[test]
fn islands_above_the_limit_stay_soft() {
    let s = scene("vertical_stack").unwrap();
    let sag = |bodies: u32| {
        let def = WorldDef {
            enable_sleep: false,
            exact_contact_island_bodies: bodies,
            ..WorldDef::default()
        };
        let mut built = s.build(def).unwrap();
        for _ in 0..300 {
            built.world.step(s.dt).unwrap();
        }
        let top = *built.bodies.last().unwrap();
        9.5 - built.world.body_position(top).unwrap().y
    };
    assert!(sag(10) < 0.001, "exact: {}", sag(10));
    assert!((sag(9) - 0.0145).abs() < 0.003, "soft: {}", sag(9));
}

/// Every library scene steps with exact contact islands without NaN and without losing
/// bodies out of the world (the large benchmark scenes for a tenth of a second: many_pyramids
/// alone is 400 islands of 55 boxes, each a dense solve of about 290 rows).
#[test]
fn every_scene_steps_sanely_with_exact_contact_islands() {
    const LARGE: [&str; 7] = [
        "large_pyramid",
        "many_pyramids",
        "tumbler",
        "smash",
        "joint_grid",
        "spinner",
        "rain",
    ];
    assert_eq!(EXACT_ISLAND_BODIES, 64);
    for name in physics2d_demos::SCENE_NAMES {
        let s = scene(name).unwrap();
        let floor = s
            .bodies
            .iter()
            .map(|b| b.position.y)
            .fold(f32::INFINITY, f32::min);
        let mut built = build(&s, Solver::ExactIslands);
        let steps = if LARGE.contains(name) { 6 } else { 300 };
        // Scenes with a timeline (rain) create and destroy their groups as they go.
        for step in 0..steps {
            built.step_scene(&s, step).unwrap();
        }
        for id in built.bodies.iter().filter(|id| **id != ABSENT_BODY) {
            let xf = built.world.body_transform(*id).unwrap();
            let v = built.world.linear_velocity(*id).unwrap();
            assert!(
                xf.is_valid() && v.is_finite(),
                "{name}: body {id:?} went non-finite"
            );
            assert!(
                xf.p.y > floor - 10.0,
                "{name}: body {id:?} fell out of the world to {}",
                xf.p.y
            );
        }
    }
}
