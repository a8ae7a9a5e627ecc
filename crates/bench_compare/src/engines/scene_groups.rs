//! Building a scene in an engine body by body, so the groups a scene's timeline creates and
//! destroys go through the same calls as the bodies there from the start. The Box2D, rapier2d
//! and avian2d adapters build this way; physics_core and bevy_physics2d use the scene
//! library's own (`BuiltScene::step_scene`, `apply_scene_changes`).

use physics2d_demos::{BodyGroup, GroupChange, Scene};

/// An engine's world being built from a scene, one body or joint at a time.
pub trait BuildsBodies {
    /// Creates body `index` of `scene` with its shapes.
    fn create_body(&mut self, scene: &Scene, index: usize) -> Result<(), String>;
    /// Creates joint `index` of `scene` between its (existing) bodies.
    fn create_joint(&mut self, scene: &Scene, index: usize) -> Result<(), String>;
    /// Destroys the group's bodies and their joints; bodies already gone are skipped.
    fn destroy_group(&mut self, group: &BodyGroup) -> Result<(), String>;
}

/// Creates the bodies and joints `scene` has from the start (all but its groups').
pub fn build_start(world: &mut impl BuildsBodies, scene: &Scene) -> Result<(), String> {
    for (i, at_start) in scene.bodies_present_after(0).into_iter().enumerate() {
        if at_start {
            world.create_body(scene, i)?;
        }
    }
    for (j, at_start) in scene.joints_present_after(0).into_iter().enumerate() {
        if at_start {
            world.create_joint(scene, j)?;
        }
    }
    Ok(())
}

/// Creates and destroys the groups `scene`'s timeline changes before step `step`.
pub fn apply_changes(
    world: &mut impl BuildsBodies,
    scene: &Scene,
    step: usize,
) -> Result<(), String> {
    for change in scene.changes_before(step) {
        match change {
            GroupChange::Create(g) => {
                let group = &scene.groups[g];
                for i in group.bodies.clone() {
                    world.create_body(scene, i)?;
                }
                for j in group.joints.clone() {
                    world.create_joint(scene, j)?;
                }
            }
            GroupChange::Destroy(g) => world.destroy_group(&scene.groups[g])?,
        }
    }
    Ok(())
}
