//! Scenes and shared helpers for the physics2d examples, tests and benchmarks.
//!
//! A [`Scene`] is a neutral description (bodies, shapes, materials, step settings) written once
//! here. Tests, the testbed and the benchmark harness build it into whichever engine they drive;
//! [`Scene::build`] builds it into a `physics_core` world. Scenes are looked up by snake_case
//! name with [`scene`]; [`SCENE_NAMES`] lists them. [`spawn_scene`] spawns a scene as entities
//! for the `bevy_physics2d` plugin.
//!
//! ```
//! let scene = physics2d_demos::scene("vertical_stack").unwrap();
//! let mut built = scene.build(Default::default()).unwrap();
//! for _ in 0..60 {
//!     built.world.step(scene.dt).unwrap();
//! }
//! assert_eq!(built.world.body_count(), 11);
//! ```

// The README's code blocks compile and run as doc tests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

mod scene;
pub mod scenes;
pub mod spawn;
mod timeline;

pub use physics_core;
pub use scene::{BodyDesc, BuiltScene, JointDesc, Scene, ShapeDesc};
pub use scenes::{SCENE_NAMES, scene};
pub use spawn::{
    SceneEntity, SceneTimeline, SpawnedScene, advance_scene_timeline, apply_scene_changes,
    scene_settings, spawn_scene,
};
pub use timeline::{ABSENT_BODY, ABSENT_JOINT, BodyGroup, GroupChange, TimedChange};
