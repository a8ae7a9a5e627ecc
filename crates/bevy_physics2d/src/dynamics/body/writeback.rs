//! Writeback stage: the poses and velocities of bodies that moved go back to their components,
//! and the `Sleeping` marker follows the core's islands.

use crate::dynamics::body::components::{AngularVelocity, LinearVelocity, Sleeping};
use crate::interpolation::InterpolationPoses;
use crate::world::game_frame::GameFrame;
use crate::world::handle::PhysicsBody;
use crate::world::physics_world::{PhysicsWorld, quat_from_rot};
use bevy_ecs::change_detection::{DetectChanges, Tick};
use bevy_ecs::hierarchy::ChildOf;
use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemChangeTick;
use bevy_math::{Quat, Vec2};
use bevy_transform::components::Transform;
use physics_core::world::BodyMotion;

/// The change tick of the last writeback's run: the components it wrote carry it as their
/// change tick, so the next prepare can tell the engine's own writes from the game's without
/// reading the values (see `LastWriteback::wrote_only`).
#[derive(Resource, Default)]
pub(crate) struct LastWriteback {
    /// The run of `write_back_bodies` (bodies without a parent).
    tick: Option<Tick>,
    /// The run of `hierarchy::write_back_child_bodies` (bodies with a parent).
    pub(crate) child_tick: Option<Tick>,
    /// How many `Transform`s the last step's writebacks wrote, both together.
    pub(crate) written: usize,
}

impl LastWriteback {
    /// The change tick of the last run of `write_back_bodies`, if it ran.
    pub(crate) fn tick(&self) -> Option<Tick> {
        self.tick
    }

    /// True when the component is either unchanged since the reading system last ran or was
    /// last changed by the last writeback itself (no other system run shares that run's tick),
    /// so it holds what the engine wrote.
    pub(crate) fn wrote_only(&self, component: &impl DetectChanges) -> bool {
        let last = Some(component.last_changed());
        !component.is_changed() || last == self.tick || last == self.child_tick
    }
}

/// The components the writeback writes: a query filtered by them visits the writeback's
/// entities.
type WrittenBack = (With<Transform>, With<LinearVelocity>, With<AngularVelocity>);

/// How many bodies before reading it the writeback asks for a body's core record: enough to
/// cover a miss to memory with the tens of nanoseconds each body takes.
const PREFETCH_AHEAD: usize = 8;

/// Copies each body's pose and velocities back; components are only touched (and so only
/// marked changed) when the value differs from what they hold. With interpolation on, each
/// body's [`InterpolationPoses`] moves on by one step.
pub(crate) fn write_back_bodies(
    mut commands: Commands,
    physics: Res<PhysicsWorld>,
    ticks: SystemChangeTick,
    mut last: ResMut<LastWriteback>,
    mut bodies: Query<
        (
            Entity,
            &PhysicsBody,
            &mut Transform,
            &mut LinearVelocity,
            &mut AngularVelocity,
            Option<&mut InterpolationPoses>,
            Has<Sleeping>,
        ),
        // Bodies with a parent: `hierarchy.rs`.
        Without<ChildOf>,
    >,
    ahead: Query<&PhysicsBody, (WrittenBack, Without<ChildOf>)>,
) {
    last.tick = Some(ticks.this_run());
    let mut written = 0;
    let game = physics.game_frame();
    let world = &physics.world;
    // The same entities in the same order, `PREFETCH_AHEAD` on: their core records are asked
    // for early, as the entities' order is not the records' (joint_grid's writeback waited on
    // a miss per body: half its time in `body_motion`, perf).
    let mut ahead = ahead.iter();
    for handle in ahead.by_ref().take(PREFETCH_AHEAD) {
        world.prefetch_body_motion(handle.id);
    }
    for (entity, handle, mut transform, mut linear, mut angular, poses, sleeping) in &mut bodies {
        if let Some(next) = ahead.next() {
            world.prefetch_body_motion(next.id);
        }
        // One read of the core body for everything copied back.
        let Ok(motion) = world.body_motion(handle.id) else {
            continue;
        };
        written += usize::from(copy_motion(
            &motion,
            game,
            &mut transform,
            &mut linear,
            &mut angular,
        ));
        if let Some(mut poses) = poses {
            let pose = (transform.translation, transform.rotation);
            poses.bypass_change_detection().advance(pose);
        }
        if motion.awake == sleeping {
            if motion.awake {
                commands.entity(entity).remove::<Sleeping>();
            } else {
                commands.entity(entity).insert(Sleeping);
            }
        }
    }
    last.written = written;
}

/// Copies a core body's pose into `transform` (its z and scale stay), in the game's
/// coordinates (`game`: from the floating origin), writing (and so marking it changed) only
/// when it differs; true when it wrote.
pub(crate) fn copy_pose(
    motion: &BodyMotion,
    game: GameFrame,
    transform: &mut Mut<Transform>,
) -> bool {
    let xf = motion.transform;
    set_pose(transform, game.to_game(xf.p), quat_from_rot(xf.q))
}

/// Puts a 2D position and a rotation into `transform` (its z and scale stay), writing (and so
/// marking it changed) only when they differ; true when it wrote.
pub(crate) fn set_pose(transform: &mut Mut<Transform>, p: Vec2, rotation: Quat) -> bool {
    let differs = transform.translation.truncate() != p || transform.rotation != rotation;
    if differs {
        transform.translation = p.extend(transform.translation.z);
        transform.rotation = rotation;
    }
    differs
}

/// Copies a core body's pose and velocities into its components, writing only what differs;
/// true when it wrote the `Transform`.
pub(crate) fn copy_motion(
    motion: &BodyMotion,
    game: GameFrame,
    transform: &mut Mut<Transform>,
    linear: &mut Mut<LinearVelocity>,
    angular: &mut Mut<AngularVelocity>,
) -> bool {
    let wrote_pose = copy_pose(motion, game, transform);
    if motion.linear_velocity != linear.0 {
        linear.0 = motion.linear_velocity;
    }
    if motion.angular_velocity != angular.0 {
        angular.0 = motion.angular_velocity;
    }
    wrote_pose
}
