//! [`PhysicsPlugins`]: the group of every feature plugin, in the order they build.

use crate::character::CharacterControllerPlugin;
use crate::collision::events::CollisionEventsPlugin;
use crate::collision::{ColliderPlugin, PhysicsPairStagesPlugin};
use crate::dynamics::body::RigidBodyPlugin;
use crate::dynamics::joint::JointPlugin;
use crate::interpolation::PhysicsInterpolationPlugin;
use crate::origin::PhysicsOriginPlugin;
use crate::schedule::PhysicsSchedulePlugin;
use crate::spatial_query::SpatialQueryPlugin;
use crate::world::PhysicsWorldPlugin;
use bevy_app::{FixedPostUpdate, PluginGroup, PluginGroupBuilder};
use bevy_ecs::intern::Interned;
use bevy_ecs::schedule::ScheduleLabel;

/// Every physics plugin, one per feature:
///
/// | plugin | what it does | may be disabled |
/// |---|---|---|
/// | [`PhysicsSchedulePlugin`] | the stage sets, their stage schedules, the physics clock | no |
/// | [`PhysicsWorldPlugin`] | the core world, settings, the solve and integrate stages | no |
/// | [`RigidBodyPlugin`] | bodies: creation, settings, motion, forces, writeback | no |
/// | [`ColliderPlugin`] | colliders and their materials and layers | no |
/// | [`PhysicsPairStagesPlugin`] | broadphase and narrowphase, calling the collision hooks | no |
/// | [`JointPlugin`] | joints and their break events | yes |
/// | [`CollisionEventsPlugin`] | collision, sensor and hit events, contact forces, colliding entities | yes |
/// | [`SpatialQueryPlugin`] | ray and shape casters updated each step | yes |
/// | [`CharacterControllerPlugin`] | kinematic character controllers | yes |
/// | [`PhysicsInterpolationPlugin`] | transform interpolation between fixed steps | yes |
///
/// A group, so any member can be replaced (`.set(PhysicsSchedulePlugin::new(Update))`) or
/// disabled (`.disable::<SpatialQueryPlugin>()`); the rest keeps working. The debug overlay
/// ([`PhysicsDebugPlugin`](crate::PhysicsDebugPlugin)) and the diagnostics
/// ([`PhysicsDiagnosticsPlugin`](crate::PhysicsDiagnosticsPlugin)) are added on their own,
/// since they need Bevy's gizmos and diagnostics.
///
/// ```
/// use bevy_app::prelude::*;
/// use bevy_physics2d::prelude::*;
/// use bevy_physics2d::{CharacterControllerPlugin, SpatialQueryPlugin};
///
/// let mut app = App::new();
/// app.add_plugins((
///     bevy_time::TimePlugin,
///     PhysicsPlugins::default()
///         .build()
///         .disable::<SpatialQueryPlugin>()
///         .disable::<CharacterControllerPlugin>(),
/// ));
/// app.update();
/// ```
pub struct PhysicsPlugins {
    schedule: Interned<dyn ScheduleLabel>,
}

impl PhysicsPlugins {
    /// The physics plugins with the stages in `schedule` (for example `Update` for a game
    /// that steps physics once per frame).
    pub fn new(schedule: impl ScheduleLabel) -> Self {
        PhysicsPlugins {
            schedule: schedule.intern(),
        }
    }

    /// The physics plugins with the collision hooks `H` (a
    /// [`CollisionHooks`](crate::CollisionHooks) system parameter) called by the pair
    /// stages, for colliders with [`ActiveCollisionHooks`](crate::ActiveCollisionHooks).
    pub fn with_collision_hooks<H>(self) -> PluginGroupBuilder
    where
        H: crate::CollisionHooks + 'static,
        for<'w, 's> bevy_ecs::system::SystemParamItem<'w, 's, H>: crate::CollisionHooks,
    {
        self.build()
            .disable::<PhysicsPairStagesPlugin<()>>()
            .add_after::<PhysicsPairStagesPlugin<()>>(PhysicsPairStagesPlugin::<H>::default())
    }
}

impl Default for PhysicsPlugins {
    fn default() -> Self {
        Self::new(FixedPostUpdate)
    }
}

impl PluginGroup for PhysicsPlugins {
    fn build(self) -> PluginGroupBuilder {
        PluginGroupBuilder::start::<Self>()
            .add(PhysicsSchedulePlugin {
                schedule: self.schedule,
            })
            .add(PhysicsWorldPlugin)
            .add(RigidBodyPlugin)
            .add(ColliderPlugin)
            .add(PhysicsPairStagesPlugin::<()>::default())
            .add(JointPlugin)
            .add(CollisionEventsPlugin)
            .add(SpatialQueryPlugin)
            .add(CharacterControllerPlugin)
            .add(PhysicsInterpolationPlugin)
            .add(PhysicsOriginPlugin)
    }
}
