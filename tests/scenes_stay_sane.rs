//! Every scene of the library steps without NaN and without losing bodies out of the world.

use physics2d_demos::physics_core::prelude::*;
use physics2d_demos::{ABSENT_BODY, SCENE_NAMES, scene};

/// The benchmark scenes are large; a second of simulation checks them without slowing the
/// suite (the benchmark runs them in full; the spinner's few escapes over 5 s are counted by
/// the testbed's sanity test, against its stated allowance).
const LARGE: [&str; 7] = [
    "large_pyramid",
    "many_pyramids",
    "tumbler",
    "smash",
    "joint_grid",
    "spinner",
    "rain",
];

#[test]
fn every_scene_steps_without_nan_or_escaping_bodies() {
    for name in SCENE_NAMES {
        let s = scene(name).unwrap();
        let floor = s
            .bodies
            .iter()
            .map(|b| b.position.y)
            .fold(f32::INFINITY, f32::min);
        let mut built = s.build(WorldDef::default()).unwrap();
        let steps = if LARGE.contains(name) { 60 } else { 300 };
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
            // Every scene has its ground (or, in zero gravity, its lowest body) at the bottom
            // of the description: a body 10 m below all of it has left the world.
            assert!(
                xf.p.y > floor - 10.0,
                "{name}: body {id:?} fell out of the world to {}",
                xf.p.y
            );
        }
    }
}
