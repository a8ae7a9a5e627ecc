//! The scene library, by name.

mod joints;
mod materials;

pub use joints::{CRANK_RADIUS, PENDULUM_LENGTH};
pub use materials::{BALL_RESTITUTIONS, DROP_HEIGHT, RAMP_ANGLE, RAMP_FRICTIONS};
mod stacking;

pub use stacking::pyramid_boxes;
mod stress;

pub use stress::{SPINNER_BOWL_CENTER, SPINNER_BOWL_RADIUS};

use crate::Scene;

/// Every scene name, in display order.
pub const SCENE_NAMES: &[&str] = &[
    "single_box",
    "vertical_stack",
    "pyramid",
    "large_pyramid",
    "many_pyramids",
    "card_house",
    "arch",
    "friction_ramp",
    "restitution",
    "overlap_recovery",
    "high_mass_ratio",
    "rain",
    "tumbler",
    "smash",
    "spinner",
    "pendulum",
    "bridge",
    "ragdoll",
    "car",
    "pulley",
    "piston_crank",
    "rope",
    "cloth",
    "joint_grid",
];

/// The scene with this name.
pub fn scene(name: &str) -> Option<Scene> {
    Some(match name {
        "single_box" => stacking::single_box(),
        "vertical_stack" => stacking::vertical_stack(10),
        "pyramid" => stacking::pyramid("pyramid", 20),
        "large_pyramid" => stacking::large_pyramid(),
        "many_pyramids" => stacking::many_pyramids(),
        "card_house" => stacking::card_house(),
        "arch" => stacking::arch(),
        "friction_ramp" => materials::friction_ramp(),
        "restitution" => materials::restitution(),
        "overlap_recovery" => stacking::overlap_recovery(),
        "high_mass_ratio" => stacking::high_mass_ratio(),
        "rain" => stress::rain(),
        "tumbler" => stress::tumbler(),
        "smash" => stress::smash(),
        "spinner" => stress::spinner(),
        "pendulum" => joints::pendulum(),
        "bridge" => joints::bridge(),
        "ragdoll" => joints::ragdoll(),
        "car" => joints::car(),
        "pulley" => joints::pulley(),
        "piston_crank" => joints::piston_crank(),
        "rope" => joints::rope(),
        "cloth" => joints::cloth(),
        "joint_grid" => joints::joint_grid(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_builds_and_unknown_names_do_not() {
        for name in SCENE_NAMES {
            let s = scene(name).unwrap_or_else(|| panic!("{name} missing"));
            assert_eq!(s.name, *name);
            assert!(s.dynamic_count() > 0, "{name} has nothing moving");
            s.build(Default::default()).unwrap();
        }
        assert!(scene("no_such_scene").is_none());
    }

    #[test]
    fn benchmark_scenes_have_the_published_body_counts() {
        assert_eq!(scene("large_pyramid").unwrap().dynamic_count(), 5050);
        assert_eq!(scene("many_pyramids").unwrap().dynamic_count(), 22000);
        assert_eq!(scene("tumbler").unwrap().dynamic_count(), 45 * 45);
        assert_eq!(scene("smash").unwrap().dynamic_count(), 120 * 80 + 1);
    }
}
