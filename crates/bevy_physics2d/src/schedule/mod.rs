//! Where and in which order the physics stages run.

use bevy_app::{App, FixedPostUpdate, Plugin, PluginGroup, PluginGroupBuilder};
use bevy_ecs::intern::Interned;
use bevy_ecs::prelude::Resource;
use bevy_ecs::schedule::{IntoScheduleConfigs, ScheduleLabel, SystemSet};

/// The physics stages as system sets, run in this order every fixed step. Order your own
/// systems against them, for example `.before(PhysicsSystems::Prepare)` to set velocities
/// for this step, or `.after(PhysicsSystems::Writeback)` to read the results.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PhysicsSystems {
    /// Create, update and destroy core bodies, shapes and joints from changed components.
    Prepare,
    /// Broadphase: find overlapping bounding boxes.
    Broadphase,
    /// Narrowphase: contact manifolds for the overlapping pairs.
    Narrowphase,
    /// The soft step solver.
    Solve,
    /// Integrate positions and finalise transforms and bounds.
    Integrate,
    /// Copy results back to components and emit events.
    Writeback,
}

/// Configures the chained [`PhysicsSystems`] sets in a schedule (`FixedPostUpdate` by default).
pub struct PhysicsSchedulePlugin {
    schedule: Interned<dyn ScheduleLabel>,
}

impl PhysicsSchedulePlugin {
    /// Runs the physics stages in `schedule` instead of `FixedPostUpdate`.
    pub fn new(schedule: impl ScheduleLabel) -> Self {
        PhysicsSchedulePlugin {
            schedule: schedule.intern(),
        }
    }
}

impl Default for PhysicsSchedulePlugin {
    fn default() -> Self {
        Self::new(FixedPostUpdate)
    }
}

/// The schedule the physics stages run in, as chosen by [`PhysicsSchedulePlugin`].
#[derive(Resource, Clone, Copy, Debug)]
pub struct PhysicsSchedule(pub Interned<dyn ScheduleLabel>);

impl Plugin for PhysicsSchedulePlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(PhysicsSchedule(self.schedule));
        app.configure_sets(
            self.schedule,
            (
                PhysicsSystems::Prepare,
                PhysicsSystems::Broadphase,
                PhysicsSystems::Narrowphase,
                PhysicsSystems::Solve,
                PhysicsSystems::Integrate,
                PhysicsSystems::Writeback,
            )
                .chain(),
        );
    }
}

/// All physics plugins: the schedule, the world and its stages, the pair stages with their
/// collision hooks ([`PhysicsPlugins::with_collision_hooks`]), transform interpolation. A
/// group, so any member can be replaced (`.set(PhysicsSchedulePlugin::new(Update))`) or
/// disabled (`.disable::<PhysicsInterpolationPlugin>()`). The debug overlay is separate:
/// [`PhysicsDebugPlugin`](crate::PhysicsDebugPlugin).
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
            .add(crate::plugin::PhysicsCorePlugin)
            .add(crate::hooks::PhysicsPairStagesPlugin::<()>::default())
            .add(crate::interpolation::PhysicsInterpolationPlugin)
    }
}

impl PhysicsPlugins {
    /// The physics plugins with the collision hooks `H` (a
    /// [`CollisionHooks`](crate::CollisionHooks) system parameter) called by the pair
    /// stages, for colliders with [`ActiveCollisionHooks`](crate::ActiveCollisionHooks).
    pub fn with_collision_hooks<H>(self) -> PluginGroupBuilder
    where
        H: crate::CollisionHooks + 'static,
        for<'w, 's> bevy_ecs::system::SystemParamItem<'w, 's, H>: crate::CollisionHooks,
    {
        use crate::hooks::PhysicsPairStagesPlugin;
        self.build()
            .disable::<PhysicsPairStagesPlugin<()>>()
            .add_after::<PhysicsPairStagesPlugin<()>>(PhysicsPairStagesPlugin::<H>::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy_app::Update;
    use bevy_ecs::prelude::*;

    #[derive(Resource, Default)]
    struct Order(Vec<PhysicsSystems>);

    fn record(stage: PhysicsSystems) -> impl FnMut(ResMut<Order>) {
        move |mut order: ResMut<Order>| order.0.push(stage)
    }

    #[test]
    fn stages_run_in_chain_order_whatever_the_registration_order() {
        let mut app = App::new();
        app.add_plugins((
            bevy_time::TimePlugin,
            PhysicsPlugins::default()
                .build()
                .set(PhysicsSchedulePlugin::new(Update)),
        ));
        app.init_resource::<Order>();
        // Registered backwards; the set chain must still order them.
        use PhysicsSystems::*;
        for stage in [
            Writeback,
            Integrate,
            Solve,
            Narrowphase,
            Broadphase,
            Prepare,
        ] {
            app.add_systems(Update, record(stage).in_set(stage));
        }
        app.update();
        assert_eq!(
            app.world().resource::<Order>().0,
            vec![
                Prepare,
                Broadphase,
                Narrowphase,
                Solve,
                Integrate,
                Writeback
            ]
        );
    }
}
