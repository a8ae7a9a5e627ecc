//! The README's joint claims on the library's scenes: a ragdoll (a joint tree, solved exactly)
//! keeps its pins closed to 0.01 mm through its fall, while a loop (the bridge, pinned at both
//! ends) stays soft: its pins open, and more under a softer `joint_hertz`.

use physics2d_demos::physics_core::prelude::*;
use physics2d_demos::{ABSENT_JOINT, Scene, scene};

/// The widest pin opening of `s` after each of its steps, built with `def`.
fn pin_gaps(s: &Scene, def: WorldDef) -> Vec<f32> {
    let mut built = s.build(def).unwrap();
    (0..s.steps)
        .map(|step| {
            built.step_scene(s, step).unwrap();
            let world = &built.world;
            let at = |body, local| world.body_transform(body).unwrap().apply(local);
            built
                .joints
                .iter()
                .filter(|j| **j != ABSENT_JOINT)
                .map(|&j| {
                    let def = world.joint_def(j).unwrap();
                    at(def.body_a, def.local_anchor_a).distance(at(def.body_b, def.local_anchor_b))
                })
                .fold(0.0f32, f32::max)
        })
        .collect()
}

/// The exact tree's projection closes every pin to 0.002 slop (1e-5 m) after each substep's
/// position update and the relax that ends the step moves only velocities, so after a step
/// no pin is open by more than 1e-5 m plus the rounding of f32 positions a few metres from
/// the origin (a few 1e-7 m). One thing opens a pin after the solver: continuous collision
/// pulling a fast bone back to where it met the ground, as Box2D does, by at most the bone's
/// travel in that step (it lands at about sqrt(2 g h) = 6 m/s from 1.8 m: 0.1 m a step). The
/// next step closes such an opening, and the fall has few such steps.
#[test]
fn a_ragdoll_keeps_its_pins_within_a_hundredth_of_a_millimetre() {
    let s = scene("ragdoll").unwrap();
    let def = WorldDef {
        enable_sleep: false,
        ..Default::default()
    };
    let gaps = pin_gaps(&s, def);
    let closed = 1.2e-5;
    let opened: Vec<usize> = (0..gaps.len()).filter(|&k| gaps[k] > closed).collect();
    assert!(
        opened.len() <= gaps.len() / 50,
        "pins open after {} of {} steps: {opened:?}",
        opened.len(),
        gaps.len()
    );
    for &k in &opened {
        assert!(gaps[k] < 0.1, "a pin opened {} m at step {k}", gaps[k]);
        let next = gaps.get(k + 1).copied().unwrap_or(0.0);
        assert!(
            next <= closed,
            "the pin opened at step {k} is still {next} m open"
        );
    }
}

/// The bridge's 30 planks span exactly the 30 m between its two ground pins: a loop, which
/// keeps Box2D's soft rows, and a taut one, which can only sag by stretching its pins. So its
/// pins open (far beyond an exact tree's 1e-5 m), yet hold (a torn pin would open by metres),
/// and open further under a fifth of the joint stiffness.
#[test]
fn the_bridge_loop_stays_soft_and_softens_with_joint_hertz() {
    let s = scene("bridge").unwrap();
    let widest = |def: WorldDef| pin_gaps(&s, def).into_iter().fold(0.0f32, f32::max);
    let stiff = widest(WorldDef::default());
    assert!(
        stiff > 1e-3,
        "the loop's pins stayed shut ({stiff} m): solved exactly?"
    );
    assert!(stiff < 0.1, "a loop pin opened {stiff} m");
    let soft = widest(WorldDef {
        joint_hertz: WorldDef::default().joint_hertz / 5.0,
        ..Default::default()
    });
    assert!(
        soft > 2.0 * stiff,
        "softer joints opened {soft} m against {stiff} m"
    );
    assert!(soft < 1.0, "a softer loop pin opened {soft} m");
}
