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

// The README's and the guide's code blocks compile and run as doc tests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// The guide's pages (`docs/`), included so that their examples run as doc tests.
#[cfg(doctest)]
pub mod guide {
    #[doc = include_str!("../docs/bodies-and-colliders.md")]
    pub struct BodiesAndColliders;
    #[doc = include_str!("../docs/joints.md")]
    pub struct Joints;
    #[doc = include_str!("../docs/events-and-contacts.md")]
    pub struct EventsAndContacts;
    #[doc = include_str!("../docs/queries.md")]
    pub struct Queries;
    #[doc = include_str!("../docs/character.md")]
    pub struct Character;
    #[doc = include_str!("../docs/game-features.md")]
    pub struct GameFeatures;
    #[doc = include_str!("../docs/performance.md")]
    pub struct Performance;
    #[doc = include_str!("../docs/networking.md")]
    pub struct Networking;
    #[doc = include_str!("../docs/testbed.md")]
    pub struct Testbed;
    #[doc = include_str!("../docs/recording.md")]
    pub struct Recording;
    #[doc = include_str!("../docs/large-worlds.md")]
    pub struct LargeWorlds;
    #[doc = include_str!("../docs/from-avian.md")]
    pub struct FromAvian;
    #[doc = include_str!("../ARCHITECTURE.md")]
    pub struct Architecture;
}

mod scene;
pub mod scenes;
pub mod spawn;
mod timeline;

pub use physics_core;
pub use scene::{BodyDesc, BuiltScene, JointDesc, Scene, ShapeDesc};
pub use scenes::{SCENE_NAMES, scene};
pub use spawn::{
    SceneEntity, SceneTimeline, SpawnedScene, advance_scene_timeline, apply_scene_changes,
    placed_shapes, scene_settings, spawn_scene,
};
pub use timeline::{ABSENT_BODY, ABSENT_JOINT, BodyGroup, GroupChange, TimedChange};
