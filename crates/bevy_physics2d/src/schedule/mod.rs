//! Where and in which order the physics stages run: [`PhysicsSchedulePlugin`] configures the
//! chained [`PhysicsSystems`] sets in the game's schedule (`FixedPostUpdate` by default), the
//! [`PhysicsStageSchedule`] each set runs on one thread, and the physics clock
//! `Time<Physics>` (in `physics_time`), which decides whether a step runs at all.

mod diagnostics;
pub(crate) mod physics_time;

pub use diagnostics::PhysicsDiagnostics;

use bevy_app::{App, FixedPostUpdate, Plugin};
use bevy_ecs::intern::Interned;
use bevy_ecs::prelude::Resource;
use bevy_ecs::prelude::World;
use bevy_ecs::schedule::{IntoScheduleConfigs, ScheduleLabel, SingleThreadedExecutor, SystemSet};
use bevy_time::Time;
use physics_time::Physics;
use std::time::Instant;

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

/// The schedule each physics stage runs its own systems in, one per [`PhysicsSystems`] set.
///
/// Every stage set of the game's schedule holds a single exclusive system that runs the
/// stage's schedule on the calling thread with Bevy's single-threaded executor. A stage is
/// a chain of small steps (queue the changed bodies, create them, ...); on Bevy's
/// multi-threaded executor each of them, as a system of its own, would be handed to a pool
/// thread and back, which cost more than the work itself. Add a system to a stage schedule
/// (`app.add_systems(PhysicsStageSchedule::Prepare, my_system.after(...))`) to run it
/// inside the stage; order against [`PhysicsSystems`] in the game's schedule otherwise.
#[derive(ScheduleLabel, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PhysicsStageSchedule {
    /// Inside [`PhysicsSystems::Prepare`] (ordered by [`PrepareSystems`]).
    Prepare,
    /// Inside [`PhysicsSystems::Broadphase`].
    Broadphase,
    /// Inside [`PhysicsSystems::Narrowphase`].
    Narrowphase,
    /// Inside [`PhysicsSystems::Solve`].
    Solve,
    /// Inside [`PhysicsSystems::Integrate`].
    Integrate,
    /// Inside [`PhysicsSystems::Writeback`] (ordered by [`WritebackSystems`]).
    Writeback,
}

impl PhysicsStageSchedule {
    const ALL: [(PhysicsSystems, PhysicsStageSchedule); 6] = [
        (PhysicsSystems::Prepare, PhysicsStageSchedule::Prepare),
        (PhysicsSystems::Broadphase, PhysicsStageSchedule::Broadphase),
        (
            PhysicsSystems::Narrowphase,
            PhysicsStageSchedule::Narrowphase,
        ),
        (PhysicsSystems::Solve, PhysicsStageSchedule::Solve),
        (PhysicsSystems::Integrate, PhysicsStageSchedule::Integrate),
        (PhysicsSystems::Writeback, PhysicsStageSchedule::Writeback),
    ];
}

/// The steps of the Prepare stage schedule, chained in this order: each feature plugin puts
/// its systems in its own step, and the order of the core operations they make (so the
/// bits of the step) does not depend on which plugins are in the app.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PrepareSystems {
    /// Settings changed in [`PhysicsSettings`](crate::PhysicsSettings).
    Settings,
    /// Bodies created, rebuilt or retyped.
    Bodies,
    /// Colliders created, rebuilt and their materials.
    Colliders,
    /// Joints created and rebuilt.
    Joints,
    /// Body settings (damping, gravity scale, mass, locks, dominance, sleep threshold).
    BodyProperties,
    /// Poses and velocities the game set, and the motion of parents.
    Motion,
    /// Character controllers move.
    Characters,
    /// Forces and impulses.
    Forces,
    /// The mass components read back.
    Mass,
}

/// The steps of the Writeback stage schedule, chained in this order.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WritebackSystems {
    /// The floating origin moves (`PhysicsOrigin`): the game's coordinates shift before the
    /// bodies are written in them.
    Origin,
    /// Poses and velocities to components.
    Bodies,
    /// Collision, sensor and hit events.
    Events,
    /// Joint break events.
    JointEvents,
    /// Contact forces and colliding entities.
    Contacts,
    /// Ray and shape casters.
    Casters,
    /// The step's bookkeeping, once everything above has read it.
    Finish,
}

/// Configures the chained [`PhysicsSystems`] sets in a schedule (`FixedPostUpdate` by
/// default), the [`PhysicsStageSchedule`]s that run inside them and the physics clock.
pub struct PhysicsSchedulePlugin {
    pub(crate) schedule: Interned<dyn ScheduleLabel>,
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

/// Whether this schedule run takes a step: decided once, by the Prepare stage's runner, so
/// a pause asked for halfway (by a system between the stage sets, or an observer the stages
/// trigger) never leaves a step half taken.
#[derive(Resource, Default)]
struct StepTaken(bool);

/// The exclusive system of one stage set: it runs the stage's schedule when this schedule
/// run takes a step (the Prepare stage first advances the physics clock and decides that;
/// the Writeback stage last uses up a step queued while paused). It times the Prepare and
/// Writeback stages; the core's stages time themselves.
fn stage_runner(stage: PhysicsStageSchedule) -> impl FnMut(&mut World) {
    move |world: &mut World| {
        if stage == PhysicsStageSchedule::Prepare {
            physics_time::advance_physics_time(world);
            let running = physics_time::physics_running(world.resource::<Time<Physics>>());
            world.resource_mut::<StepTaken>().0 = running;
        }
        if !world.resource::<StepTaken>().0 {
            return;
        }
        let start = Instant::now();
        // A stage no plugin put a system in has no schedule: nothing to run.
        let _ = world.try_run_schedule(stage);
        let ms = start.elapsed().as_secs_f32() * 1000.0;
        match stage {
            PhysicsStageSchedule::Prepare => {
                world.resource_mut::<PhysicsDiagnostics>().prepare_ms = ms
            }
            PhysicsStageSchedule::Writeback => {
                world.resource_mut::<PhysicsDiagnostics>().writeback_ms = ms;
                physics_time::take_queued_step(&mut world.resource_mut::<Time<Physics>>());
            }
            _ => {}
        }
    }
}

/// The schedule the physics stages run in, as chosen by [`PhysicsSchedulePlugin`].
#[derive(Resource, Clone, Copy, Debug)]
pub struct PhysicsSchedule(pub Interned<dyn ScheduleLabel>);

impl Plugin for PhysicsSchedulePlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(PhysicsSchedule(self.schedule));
        app.init_resource::<Time<Physics>>()
            .init_resource::<StepTaken>()
            .register_type::<Physics>()
            .init_resource::<PhysicsDiagnostics>();
        for (set, stage) in PhysicsStageSchedule::ALL {
            app.edit_schedule(stage, |schedule| {
                schedule.set_executor(SingleThreadedExecutor::new());
            });
            app.add_systems(self.schedule, stage_runner(stage).in_set(set));
        }
        app.configure_sets(
            PhysicsStageSchedule::Prepare,
            (
                PrepareSystems::Settings,
                PrepareSystems::Bodies,
                PrepareSystems::Colliders,
                PrepareSystems::Joints,
                PrepareSystems::BodyProperties,
                PrepareSystems::Motion,
                PrepareSystems::Characters,
                PrepareSystems::Forces,
                PrepareSystems::Mass,
            )
                .chain(),
        );
        app.configure_sets(
            PhysicsStageSchedule::Writeback,
            (
                WritebackSystems::Origin,
                WritebackSystems::Bodies,
                WritebackSystems::Events,
                WritebackSystems::JointEvents,
                WritebackSystems::Contacts,
                WritebackSystems::Casters,
                WritebackSystems::Finish,
            )
                .chain(),
        );
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PhysicsPlugins;
    use bevy_app::{PluginGroup, Update};
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
