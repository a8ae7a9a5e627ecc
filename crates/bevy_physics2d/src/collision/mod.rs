//! Collision: the [`Collider`](crate::Collider) component and its shapes (from primitives,
//! outlines and meshes), materials and layers, the broadphase and narrowphase stages with
//! the game's collision hooks, and what comes out of them for gameplay (events, contacts,
//! colliding entities). [`ColliderPlugin`] registers colliders, [`PhysicsPairStagesPlugin`]
//! the pair stages, [`CollisionEventsPlugin`](crate::CollisionEventsPlugin) the events.

pub(crate) mod collider;
pub(crate) mod collider_from;
#[cfg(feature = "mesh")]
pub(crate) mod collider_mesh;
pub(crate) mod contacts;
pub(crate) mod events;
pub(crate) mod hooks;
pub(crate) mod layers;
pub(crate) mod lifecycle;
pub(crate) mod material;
pub(crate) mod pair_stages;
pub(crate) mod prepare;

use crate::schedule::{PhysicsStageSchedule, PrepareSystems};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;
use material::*;
pub use pair_stages::PhysicsPairStagesPlugin;

/// Colliders (part of [`PhysicsPlugins`](crate::PhysicsPlugins)): the collider, material and
/// layer components, their observers, the Prepare step that builds and rebuilds core
/// shapes, and (feature `mesh`) colliders built from meshes once they load.
#[derive(Default)]
pub struct ColliderPlugin;

impl Plugin for ColliderPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<collider::Collider>()
            .register_type::<ColliderDensity>()
            .register_type::<Friction>()
            .register_type::<Restitution>()
            .register_type::<Sensor>()
            .register_type::<CollisionLayers>()
            .register_type::<CollisionEventsEnabled>()
            .register_type::<TangentSpeed>()
            .register_type::<RollingResistance>()
            .register_type::<FrictionCombine>()
            .register_type::<RestitutionCombine>()
            .register_type::<hooks::ActiveCollisionHooks>();
        lifecycle::add_observers(app);
        app.add_systems(
            PhysicsStageSchedule::Prepare,
            (
                lifecycle::queue_changed_colliders,
                // The colliders just built are not updated again.
                prepare::create_colliders.pipe(prepare::update_materials),
            )
                .chain()
                .in_set(PrepareSystems::Colliders),
        );
        #[cfg(feature = "mesh")]
        app.register_type::<collider_mesh::ColliderConstructor>()
            .register_type::<collider_mesh::ColliderConstructorHierarchy>()
            .add_systems(
                bevy_app::PreUpdate,
                collider_mesh::build_mesh_colliders.run_if(
                    any_with_component::<collider_mesh::ColliderConstructor>
                        .or_else(any_with_component::<collider_mesh::ColliderConstructorHierarchy>),
                ),
            );
    }
}
