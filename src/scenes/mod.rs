//! The scene library, by name.

mod joints;
mod materials;
mod rain;

pub use joints::{CRANK_RADIUS, PENDULUM_LENGTH, RAGDOLL_BONES, RAGDOLL_JOINTS};
pub use materials::{BALL_RESTITUTIONS, DROP_HEIGHT, RAMP_ANGLE, RAMP_FRICTIONS};
pub use rain::{RAIN_COLUMNS, RAIN_DROP_INTERVAL, RAIN_GROUP_SIZE, RAIN_ROWS, RAIN_TIMELINE_STEPS};
mod stacking;

pub use stacking::pyramid_boxes;
mod order_variants;
pub use order_variants::{ORDER_VARIANTS, order_variants};
mod stress;

mod fidelity;
pub use fidelity::{
    BIG_BOX_REST_HEIGHT, CHAIN_LINKS, CHAIN_PIVOT, PILE_BALL_RADIUS, PILE_BALLS, PILE_DROPS,
    PILE_WIDTH, TOWER_SECONDS, TowerLayout, ball_pile_drop, chain_mass_ratio,
    high_mass_ratio_1_heavy_boxes, tower, tower_layout,
};

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
    "shape_rain",
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
    "two_boxes",
    "tower_15",
    "tower_20",
    "tower_30",
    "tower_offset_20",
    "ball_pile",
    "high_mass_ratio_1",
    "high_mass_ratio_2",
    "high_mass_ratio_3",
    "chain_light",
    "chain_heavy_100",
    "chain_heavy_1000",
    "chain_heavy_2500",
    "chain_heavy_10000",
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
        "rain" => rain::rain(),
        "shape_rain" => stress::shape_rain(),
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
        "ball_pile" => fidelity::ball_pile(),
        "high_mass_ratio_1" => fidelity::high_mass_ratio_1(),
        "high_mass_ratio_2" => fidelity::high_mass_ratio_big_on_small(false),
        "high_mass_ratio_3" => fidelity::high_mass_ratio_big_on_small(true),
        _ => {
            if let Some(layout) = tower_layout(name) {
                let name = SCENE_NAMES.iter().find(|n| **n == name)?;
                fidelity::tower(name, layout)
            } else if let Some(ratio) = chain_mass_ratio(name) {
                let name = SCENE_NAMES.iter().find(|n| **n == name)?;
                fidelity::chain(name, ratio)
            } else {
                return None;
            }
        }
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
