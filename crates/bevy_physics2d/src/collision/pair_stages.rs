//! The broadphase and narrowphase stages ([`PhysicsPairStagesPlugin`]): the core's pair
//! finding and contact manifolds, calling the game's [`CollisionHooks`] for the colliders
//! with [`ActiveCollisionHooks`].

use crate::collision::hooks::{ActiveCollisionHooks, CollisionHooks, ContactPair};
use crate::schedule::PhysicsDiagnostics;
use crate::schedule::PhysicsStageSchedule;
use crate::world::physics_world::PhysicsWorld;
use bevy_app::{App, Plugin};
use bevy_ecs::hierarchy::ChildOf;
use bevy_ecs::prelude::*;
use bevy_ecs::system::{StaticSystemParam, SystemParamItem};
use physics_core::id::ShapeId;
use physics_core::world::ContactModification;
use std::marker::PhantomData;
use std::time::Instant;

/// The broadphase and narrowphase stages, calling the hooks `H` (part of
/// [`PhysicsPlugins`](crate::PhysicsPlugins), with `()` unless
/// [`PhysicsPlugins::with_collision_hooks`](crate::PhysicsPlugins::with_collision_hooks)
/// chose others).
pub struct PhysicsPairStagesPlugin<H: CollisionHooks = ()>(PhantomData<fn() -> H>);

impl<H: CollisionHooks> Default for PhysicsPairStagesPlugin<H> {
    fn default() -> Self {
        PhysicsPairStagesPlugin(PhantomData)
    }
}

impl<H> Plugin for PhysicsPairStagesPlugin<H>
where
    H: CollisionHooks + 'static,
    for<'w, 's> SystemParamItem<'w, 's, H>: CollisionHooks,
{
    fn build(&self, app: &mut App) {
        app.add_systems(PhysicsStageSchedule::Broadphase, broadphase::<H>)
            .add_systems(PhysicsStageSchedule::Narrowphase, narrowphase::<H>);
    }
}

/// The entity of a live collider shape.
fn entity_of(physics_shapes: &[Option<(ShapeId, Entity)>], id: ShapeId) -> Option<Entity> {
    match physics_shapes.get(id.index as usize) {
        Some(Some((stored, e))) if *stored == id => Some(*e),
        _ => None,
    }
}

/// The hook flags of a collider: its own, else those of the nearest entity above it that
/// has some (its body's, as the core's flag is set).
type HookFlags<'w, 's> = Query<
    'w,
    's,
    (
        Option<&'static ActiveCollisionHooks>,
        Option<&'static ChildOf>,
    ),
>;

fn flags_of(entity: Entity, flags: &HookFlags) -> ActiveCollisionHooks {
    let mut at = entity;
    // A hierarchy deeper than this is not a body's colliders.
    for _ in 0..64 {
        match flags.get(at) {
            Ok((Some(own), _)) => return *own,
            Ok((None, Some(parent))) => at = parent.parent(),
            _ => break,
        }
    }
    ActiveCollisionHooks::default()
}

/// Broadphase stage: new pairs, with the hooks' pair filter.
fn broadphase<H>(
    mut physics: ResMut<PhysicsWorld>,
    mut diag: ResMut<PhysicsDiagnostics>,
    hooks: StaticSystemParam<H>,
    flags: HookFlags,
    mut commands: Commands,
) where
    H: CollisionHooks + 'static,
    for<'w, 's> SystemParamItem<'w, 's, H>: CollisionHooks,
{
    let t = Instant::now();
    let physics = &mut *physics;
    let maps = PhysicsWorldMaps::of(physics);
    let mut filter = |a: ShapeId, b: ShapeId| {
        let (Some(ea), Some(eb)) = (entity_of(maps.shapes, a), entity_of(maps.shapes, b)) else {
            return true;
        };
        let asked = flags_of(ea, &flags).filters_pairs() || flags_of(eb, &flags).filters_pairs();
        !asked || hooks.filter_pairs(ea, eb, &mut commands)
    };
    maps.world.update_pairs_filtered(&mut filter);
    diag.broadphase_ms = t.elapsed().as_secs_f32() * 1000.0;
}

/// Narrowphase stage: manifolds, with the hooks' contact modifier.
fn narrowphase<H>(
    mut physics: ResMut<PhysicsWorld>,
    mut diag: ResMut<PhysicsDiagnostics>,
    hooks: StaticSystemParam<H>,
    flags: HookFlags,
    mut commands: Commands,
) where
    H: CollisionHooks + 'static,
    for<'w, 's> SystemParamItem<'w, 's, H>: CollisionHooks,
{
    let t = Instant::now();
    let physics = &mut *physics;
    let frame = physics.game_frame();
    let maps = PhysicsWorldMaps::of(physics);
    let mut modify = |m: &mut ContactModification| {
        let (Some(ea), Some(eb)) = (
            entity_of(maps.shapes, m.shape_a),
            entity_of(maps.shapes, m.shape_b),
        ) else {
            return true;
        };
        let asked =
            flags_of(ea, &flags).modifies_contacts() || flags_of(eb, &flags).modifies_contacts();
        if !asked {
            return true;
        }
        let mut pair = ContactPair::from_core(m, ea, eb, frame);
        let keep = hooks.modify_contacts(&mut pair, &mut commands);
        m.friction = pair.friction;
        m.restitution = pair.restitution;
        m.tangent_speed = pair.tangent_speed;
        keep
    };
    maps.world.collide_modified(&mut modify);
    diag.narrowphase_ms = t.elapsed().as_secs_f32() * 1000.0;
}

/// The core world borrowed mutably beside the plugin's map of shapes to entities, so the
/// hooks can name entities while the core runs.
struct PhysicsWorldMaps<'a> {
    world: &'a mut physics_core::world::World,
    shapes: &'a [Option<(ShapeId, Entity)>],
}

impl<'a> PhysicsWorldMaps<'a> {
    fn of(physics: &'a mut PhysicsWorld) -> Self {
        PhysicsWorldMaps {
            world: &mut physics.world,
            shapes: &physics.shape_entity,
        }
    }
}
