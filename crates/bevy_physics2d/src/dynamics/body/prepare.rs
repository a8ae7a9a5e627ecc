//! Prepare stage, bodies: create or rebuild the core bodies of entities whose `RigidBody`
//! arrived or changed, in the order the components arrived.

use crate::collision::collider::Collider;
use crate::dynamics::body::components::{
    AngularDamping, AngularVelocity, Bullet, FastRotation, GravityScale, LinearDamping,
    LinearVelocity, LockedRotation, Mass, RigidBody, Sleeping,
};
use crate::dynamics::body::control::{
    Dominance, LockedAxes, RigidBodyDisabled, SleepThreshold, SleepingDisabled,
};
use crate::dynamics::body::hierarchy::world_frame;
use crate::interpolation::{InterpolationEnabled, InterpolationPoses};
use crate::world::game_frame::GameFrame;
use crate::world::handle::PhysicsBody;
use crate::world::physics_world::{PhysicsWorld, RefusedDef, pose_from_transform, quat_from_rot};
use crate::world::warnings::{PhysicsWarning, warn_skipped};
use bevy_ecs::hierarchy::ChildOf;
use bevy_ecs::prelude::*;
use bevy_ecs::query::QueryData;
use bevy_transform::components::Transform;
use physics_core::body::BodyDef;
use physics_core::math::Transform as CoreTransform;
use physics_core::shape::MassData;

/// Everything a body is built from.
#[derive(QueryData)]
pub(crate) struct BodyComponents {
    body: &'static RigidBody,
    transform: &'static Transform,
    linear: &'static LinearVelocity,
    angular: &'static AngularVelocity,
    gravity_scale: Option<&'static GravityScale>,
    linear_damping: Option<&'static LinearDamping>,
    angular_damping: Option<&'static AngularDamping>,
    locked_rotation: Has<LockedRotation>,
    sleeping: Has<Sleeping>,
    bullet: Has<Bullet>,
    fast_rotation: Has<FastRotation>,
    mass: Option<&'static Mass>,
    locked_axes: Option<&'static LockedAxes>,
    dominance: Option<&'static Dominance>,
    sleeping_disabled: Has<SleepingDisabled>,
    sleep_threshold: Option<&'static SleepThreshold>,
}

impl BodyComponentsItem<'_, '_> {
    /// The body's def at the pose `world` in the game's coordinates (its `Transform`
    /// composed with its parents'), placed in the core world from `game`'s origin.
    fn def_at(&self, world: CoreTransform, game: GameFrame) -> BodyDef {
        let (position, rotation) = (game.to_world(world.p), world.q);
        let locks = self.locked_axes.copied().unwrap_or_default();
        BodyDef {
            body_type: self.body.to_core(),
            position,
            rotation,
            linear_velocity: self.linear.0,
            angular_velocity: self.angular.0,
            gravity_scale: self.gravity_scale.map_or(1.0, |g| g.0),
            linear_damping: self.linear_damping.map_or(0.0, |d| d.0),
            angular_damping: self.angular_damping.map_or(0.0, |d| d.0),
            fixed_rotation: self.locked_rotation || locks.is_rotation_locked(),
            awake: !self.sleeping,
            can_sleep: !self.sleeping_disabled,
            bullet: self.bullet,
            allow_fast_rotation: self.fast_rotation,
            lock_linear_x: locks.is_translation_x_locked(),
            lock_linear_y: locks.is_translation_y_locked(),
            // A negative or NaN threshold is left out (warned about in `apply_body_props`):
            // the body keeps the world's instead of being refused.
            sleep_threshold: self.sleep_threshold.map(|t| t.0).filter(|t| *t >= 0.0),
            dominance: self.dominance.map_or(0, |d| d.0),
        }
    }

    /// The body's def at the pose its own `Transform` says, from the world's own origin (only
    /// its settings are read).
    fn settings_def(&self) -> BodyDef {
        let (p, q) = pose_from_transform(self.transform.translation, self.transform.rotation);
        self.def_at(CoreTransform::new(p, q), GameFrame::default())
    }

    /// The mass override applied to what the colliders give (`computed`).
    fn mass_data(&self, computed: MassData) -> Option<MassData> {
        self.mass.and_then(|m| m.applied_to(computed))
    }
}

/// What `def`, made at the game pose `pose`, would be refused for, as
/// `PhysicsWorld::refused_bodies` keeps it.
fn refused_bits(def: &BodyDef, pose: CoreTransform) -> RefusedDef {
    [
        pose.p.x,
        pose.p.y,
        def.rotation.c,
        def.rotation.s,
        def.linear_velocity.x,
        def.linear_velocity.y,
        def.angular_velocity,
        def.gravity_scale,
        def.linear_damping + def.angular_damping,
    ]
    .map(f32::to_bits)
}

/// Marks the bodies whose `RigidBody` was mutated in place (arrivals come from observers),
/// and the bodies refused for a bad value whose numbers have changed since (their own
/// `Transform` or a parent's, a velocity, a gravity scale, a damping, a new parent or none):
/// a body spawned at NaN and moved somewhere finite is built then, not left out for good.
/// Told by value against `PhysicsWorld::refused_bodies`, which a snapshot keeps, so a
/// rollback's restore (which marks every component changed) tries the same bodies again.
pub(crate) fn queue_changed_bodies(
    mut physics: ResMut<PhysicsWorld>,
    changed: Query<(Entity, &RigidBody, &PhysicsBody), Changed<RigidBody>>,
    refused: Query<BodyComponents, (Without<PhysicsBody>, Without<RigidBodyDisabled>)>,
    frames: Query<(&Transform, Option<&ChildOf>)>,
) {
    if !physics.refused_bodies.is_empty() {
        let game = physics.game_frame();
        // In entity order, so retries do not depend on the map's order.
        let mut retried: Vec<Entity> = Vec::new();
        let mut gone: Vec<Entity> = Vec::new();
        for (&entity, &bits) in &physics.refused_bodies {
            match refused.get(entity) {
                Ok(components) => {
                    let pose = world_frame(entity, &frames).pose();
                    let def = components.def_at(pose, game);
                    if refused_bits(&def, pose) != bits {
                        retried.push(entity);
                    }
                }
                Err(_) => gone.push(entity),
            }
        }
        for entity in gone {
            // Despawned, no longer a body, disabled (enabling queues it) or built.
            physics.refused_bodies.remove(&entity);
        }
        retried.sort_unstable();
        for entity in retried {
            physics.pending.bodies.push(entity);
        }
    }
    let mut rebuilt: Vec<(u32, Entity)> = Vec::new();
    for (entity, body, handle) in &changed {
        let same = physics.world.body_type(handle.id).ok() == Some(body.to_core());
        if !same {
            rebuilt.push((handle.id.index, entity));
        }
    }
    // In core id order, so rebuilds do not depend on archetype layout.
    rebuilt.sort_unstable();
    for (_, entity) in rebuilt {
        physics.pending.bodies.push(entity);
    }
}

/// Creates (or rebuilds with a new type) the core body of every queued entity, then queues
/// the colliders of its hierarchy and its joints.
pub(crate) fn create_bodies(
    mut commands: Commands,
    mut physics: ResMut<PhysicsWorld>,
    mut warnings: MessageWriter<PhysicsWarning>,
    bodies: Query<BodyComponents, Without<RigidBodyDisabled>>,
    children: Query<&bevy_ecs::hierarchy::Children>,
    colliders: Query<(), With<Collider>>,
    frames: Query<(&Transform, Option<&ChildOf>)>,
    interpolation: Option<Res<InterpolationEnabled>>,
) {
    // Left over only if the motion systems did not run after the last bodies were built
    // (a run condition on `PrepareSystems::Motion`): those bodies have stepped since.
    physics.built_velocities.clear();
    if physics.pending.bodies.is_empty() {
        return;
    }
    let (mut over_limit, mut last_over_limit) = (0usize, None);
    let game = physics.game_frame();
    for entity in physics.pending.bodies.take() {
        let Ok(components) = bodies.get(entity) else {
            continue; // despawned or no longer a body
        };
        // A child's world pose comes from its parents' frames (see `hierarchy.rs`).
        let pose = world_frame(entity, &frames).pose();
        let mut def = components.def_at(pose, game);
        let rebuilt = physics.body_of.get(&entity).copied();
        // The pose interpolation starts from: the game's, unless it was refused.
        let z = components.transform.translation.z;
        let mut shown = (
            components.transform.translation,
            components.transform.rotation,
        );
        if let Some(old) = rebuilt {
            if physics.world.body_type(old).ok() == Some(components.body.to_core()) {
                continue; // re-inserted with the same type: nothing to rebuild
            }
            if let Ok(now) = physics.world.body_def(old)
                && keep_refused_values_out(&mut def, &now)
            {
                let z = if z.is_finite() { z } else { 0.0 };
                shown = (
                    game.to_game(def.position).extend(z),
                    quat_from_rot(def.rotation),
                );
            }
            physics.destroy_body_keeping_parts(entity);
            // A new type moves differently: it starts awake, as a sleeping kinematic
            // platform made dynamic must fall (the writeback takes `Sleeping` off).
            def.awake = true;
        }
        let id = match physics.world.create_body(&def) {
            Ok(id) => id,
            Err(error @ physics_core::world::WorldError::TooManyBodies { .. }) => {
                // One warning per entity would be a million lines for a million-body
                // request: name the first, count the rest.
                if over_limit == 0 {
                    warn_skipped(&mut warnings, entity, format_args!("rigid body: {error}"));
                }
                over_limit += 1;
                last_over_limit = Some(entity);
                continue;
            }
            Err(error) => {
                physics
                    .refused_bodies
                    .insert(entity, refused_bits(&def, pose));
                if rebuilt.is_some() {
                    // Not expected (the def was mended from the old body), but the stale
                    // handle must not stay, or the body would never be tried again.
                    commands.entity(entity).remove::<PhysicsBody>();
                }
                let t = components.transform;
                warn_skipped(
                    &mut warnings,
                    entity,
                    format_args!(
                        "rigid body at {} rotated {} moving {} and {}: {error}",
                        t.translation, t.rotation, def.linear_velocity, def.angular_velocity
                    ),
                );
                continue;
            }
        };
        physics.refused_bodies.remove(&entity);
        physics.map_body(entity, id);
        if def.body_type != physics_core::body::BodyType::Static {
            let velocities = (entity, def.linear_velocity, def.angular_velocity);
            physics.built_velocities.push(velocities);
        }
        let handle = PhysicsBody::new(id);
        if interpolation.is_some() {
            let poses = InterpolationPoses::at(shown);
            commands.entity(entity).insert((handle, poses));
        } else {
            commands.entity(entity).insert(handle);
        }
        // Colliders of the body's hierarchy, depth first in child order.
        let mut stack = vec![entity];
        while let Some(e) = stack.pop() {
            if colliders.contains(e) {
                physics.pending.colliders.push(e);
            }
            if let Ok(kids) = children.get(e) {
                stack.extend(kids.iter().rev());
            }
        }
        if components.mass.is_some() {
            physics.pending.props.push(entity);
        }
    }
    if let (true, Some(last)) = (over_limit > 1, last_over_limit) {
        let limit = physics.world.def().max_bodies;
        warn_skipped(
            &mut warnings,
            last,
            format_args!(
                "rigid body: {} more bodies skipped (this one last), the world holds its limit \
                 of {limit} bodies (PhysicsSettings::max_bodies)",
                over_limit - 1
            ),
        );
    }
}

/// Prepare stage, first of the motion systems: every moving body built in this step moves
/// off at the velocities its components gave, the linear one at its centre of mass.
///
/// Its colliders (and a mass override) are attached after the body, and each moves the
/// centre of mass by some `Δc`; the core keeps the body's motion rigid, so the centre's
/// velocity becomes `v + ω × Δc` (and a body with its rotation locked loses `ω`). A body
/// built in the frame it was spawned had its just-added components applied again by the
/// motion systems (which wakes a body spawned asleep when they differ), but one built later
/// (enabled, or under a parent that came back from a bad pose) would have kept the core's
/// values, and which of the two a body got would hang on change ticks, which a rollback's
/// restore marks anew. So every built body is given them here, as the spawn frame does.
/// Colliders attached in a later step move the centre of mass as the core says.
pub(crate) fn restate_built_velocities(mut physics: ResMut<PhysicsWorld>) {
    if physics.built_velocities.is_empty() {
        return;
    }
    let built = std::mem::take(&mut physics.built_velocities);
    for (entity, linear, angular) in built {
        let Some(id) = physics.body(entity) else {
            continue;
        };
        let Ok(motion) = physics.world.body_motion(id) else {
            continue;
        };
        // Both finite: the body was built with them. Set only when they differ, as the
        // motion systems do (setting a velocity wakes the body's island).
        if motion.linear_velocity != linear {
            let _ = physics.world.set_linear_velocity(id, linear);
        }
        if motion.angular_velocity != angular {
            let _ = physics.world.set_angular_velocity(id, angular);
        }
    }
}

/// A body rebuilt for a new type takes the old core body's values wherever the game's
/// components hold one the plugin refused (a NaN velocity, a teleport to infinity, a negative
/// damping): the refusal was warned about when the value was written, the core body never
/// took it, and a type change must not turn it into a lost body.
/// Returns whether the pose was one of them.
fn keep_refused_values_out(def: &mut BodyDef, now: &BodyDef) -> bool {
    let pose_refused = !def.position.is_finite() || !def.rotation.is_valid();
    if pose_refused {
        (def.position, def.rotation) = (now.position, now.rotation);
    }
    if !def.linear_velocity.is_finite() {
        def.linear_velocity = now.linear_velocity;
    }
    if !def.angular_velocity.is_finite() {
        def.angular_velocity = now.angular_velocity;
    }
    if !def.gravity_scale.is_finite() {
        def.gravity_scale = now.gravity_scale;
    }
    let damping_ok = |d: f32| d.is_finite() && d >= 0.0;
    if !damping_ok(def.linear_damping) || !damping_ok(def.angular_damping) {
        (def.linear_damping, def.angular_damping) = (now.linear_damping, now.angular_damping);
    }
    pose_refused
}

/// Applies the body settings of queued entities: gravity scale, damping, locked axes,
/// bullet, fast rotation, sleep settings, dominance, mass override.
pub(crate) fn apply_body_props(
    mut physics: ResMut<PhysicsWorld>,
    mut warnings: MessageWriter<PhysicsWarning>,
    bodies: Query<BodyComponents>,
) {
    if physics.pending.props.is_empty() {
        return;
    }
    for entity in physics.pending.props.take() {
        let (Some(id), Ok(c)) = (physics.body(entity), bodies.get(entity)) else {
            continue;
        };
        let def = c.settings_def();
        if let Some(bad) = c.sleep_threshold.filter(|t| t.0.is_nan() || t.0 < 0.0) {
            crate::world::warnings::warn_entity(
                &mut warnings,
                entity,
                format_args!(
                    "sleep threshold {}: it must be zero or more; the world's is used",
                    bad.0
                ),
            );
        }
        let world = &mut physics.world;
        let result = world
            .set_gravity_scale(id, def.gravity_scale)
            .and_then(|_| world.set_damping(id, def.linear_damping, def.angular_damping))
            .and_then(|_| world.set_fixed_rotation(id, def.fixed_rotation))
            .and_then(|_| world.set_bullet(id, def.bullet))
            .and_then(|_| world.set_allow_fast_rotation(id, def.allow_fast_rotation))
            .and_then(|_| world.set_linear_locks(id, def.lock_linear_x, def.lock_linear_y))
            .and_then(|_| world.set_sleep_settings(id, def.can_sleep, def.sleep_threshold))
            .and_then(|_| world.set_dominance(id, def.dominance))
            .and_then(|_| world.body_shapes_mass_data(id))
            .and_then(|computed| world.set_mass_data(id, c.mass_data(computed)));
        if let Err(error) = result {
            warn_skipped(&mut warnings, entity, format_args!("body setting: {error}"));
        }
    }
}

/// Body settings mutated in place (arrivals and removals come from observers).
pub(crate) fn queue_changed_props(
    mut physics: ResMut<PhysicsWorld>,
    changed: Query<
        Entity,
        (
            With<RigidBody>,
            Or<(
                Changed<GravityScale>,
                Changed<LinearDamping>,
                Changed<AngularDamping>,
                Changed<Mass>,
                Changed<LockedAxes>,
                Changed<Dominance>,
                Changed<SleepThreshold>,
            )>,
        ),
    >,
) {
    let mut queued: Vec<(u32, Entity)> = changed
        .iter()
        .filter_map(|e| physics.body(e).map(|b| (b.index, e)))
        .collect();
    queued.sort_unstable();
    for (_, e) in queued {
        physics.pending.props.push(e);
    }
}
