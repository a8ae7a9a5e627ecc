//! The operations a game makes on the physics entities in one frame, chosen at random, and
//! what the run keeps track of to check them.

use super::choices::Choices;
use bevy_asset::{Assets, Handle, RenderAssetUsages};
use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;
use bevy_math::primitives::Rectangle;
use bevy_math::{Vec2, Vec3};
use bevy_mesh::{Mesh, Mesh2d, MeshBuilder, Meshable, PrimitiveTopology};
use bevy_physics2d::prelude::*;
use bevy_physics2d::{ActiveCollisionHooks, CollisionHooks, ContactPair, RayCaster, ShapeCaster};
use bevy_physics2d::{ColliderConstructor, MeshShape};
use bevy_time::Time;
use std::collections::HashSet;

/// A collider of a random kind and size.
fn collider(rng: &mut impl Choices) -> Collider {
    match rng.below(3) {
        0 => Collider::circle(rng.range(0.1, 0.8)),
        1 => Collider::rectangle(rng.range(0.2, 1.5), rng.range(0.2, 1.5)),
        _ => Collider::capsule(rng.range(0.1, 0.4), rng.range(0.2, 1.0)),
    }
}

/// Colliders whose pairs the hooks refuse.
#[derive(Component)]
pub(crate) struct Ghost;

/// Colliders whose contacts the hooks make frictionless.
#[derive(Component)]
pub(crate) struct Ice;

/// The hooks of the run: ghosts pass through everything, ice has no friction.
#[derive(SystemParam)]
pub struct RandomHooks<'w, 's> {
    ghosts: Query<'w, 's, (), With<Ghost>>,
    ice: Query<'w, 's, (), With<Ice>>,
}

impl CollisionHooks for RandomHooks<'_, '_> {
    fn filter_pairs(&self, a: Entity, b: Entity, _: &mut Commands) -> bool {
        !self.ghosts.contains(a) && !self.ghosts.contains(b)
    }

    fn modify_contacts(&self, contact: &mut ContactPair, _: &mut Commands) -> bool {
        if self.ice.contains(contact.collider1) || self.ice.contains(contact.collider2) {
            contact.friction = 0.0;
        }
        true
    }
}

/// A component the test writes bad values into.
pub(crate) type Slot = (Entity, &'static str);

/// What the test keeps track of.
#[derive(Default, Clone)]
pub(crate) struct Tracked {
    pub(crate) bodies: Vec<Entity>,
    pub(crate) children: Vec<Entity>,
    pub(crate) joints: Vec<Entity>,
    pub(crate) casters: Vec<Entity>,
    pub(crate) characters: Vec<Entity>,
    /// Components whose last value from the test was NaN, infinite or absurd. The plugin
    /// refuses such a value and may leave it in the game's component as the game wrote it.
    pub(crate) holding: HashSet<Slot>,
    /// Slots given a bad value since the last step that did not hold one at that step: each
    /// must be warned about once, by name, in the next step. (Mended and broken again between
    /// two steps is the same bad value to the plugin, which sees only what a step finds.)
    pub(crate) fresh: HashSet<Slot>,
    /// `holding` as the last step found it.
    held_at_step: HashSet<Slot>,
    /// Every slot given a bad value since the last step (or rollback) began.
    bad_since_step: HashSet<Slot>,
    /// The enabled bodies whose components were all good at the end of the last frame,
    /// stepped or not (a parent can go bad and come back while physics is paused).
    pub(crate) buildable_last_frame: HashSet<Entity>,
    /// Meshes colliders wait for, not loaded yet, and the entity waiting.
    meshes_loading: Vec<(Handle<Mesh>, Entity)>,
}

impl Tracked {
    /// Notes the value the test wrote into `slot`.
    fn wrote(&mut self, slot: Slot, finite: bool) {
        if finite {
            self.holding.remove(&slot);
            self.fresh.remove(&slot);
        } else {
            self.holding.insert(slot);
            self.bad_since_step.insert(slot);
            if !self.held_at_step.contains(&slot) {
                self.fresh.insert(slot);
            }
        }
    }

    /// Notes a place the run wrote into `slot`: a finite place beyond the core's limit is
    /// held as bad, but not required to be named at the next step (a body refused for one
    /// is tried again only when its numbers change, so writing it again names nothing).
    fn placed(&mut self, slot: Slot, p: Vec3) {
        if p.is_finite() && !placeable(p) {
            self.holding.insert(slot);
            self.fresh.remove(&slot);
        } else {
            self.wrote(slot, p.is_finite());
        }
    }

    /// A step has seen the values written so far.
    pub(crate) fn stepped(&mut self) {
        self.fresh.clear();
        self.held_at_step.clone_from(&self.holding);
        self.bad_since_step.clear();
    }

    /// A rollback check has run its frames twice. What the plugin remembers of the values it
    /// named (a character's refusals) is not part of the rollback set, and the clock may have
    /// been paused through the window, so a value that may have been named before or during
    /// it counts as named: held at the last step, bad at any moment of the replay, or held
    /// now.
    pub(crate) fn rolled_back(&mut self) {
        let mut named = std::mem::take(&mut self.held_at_step);
        named.extend(self.bad_since_step.iter().chain(&self.holding));
        self.stepped();
        self.held_at_step = named;
    }

    pub(crate) fn holds(&self, e: Entity, what: &'static str) -> bool {
        self.holding.contains(&(e, what))
    }

    /// Whether the test gave `e`'s `what` a bad value since the last step began.
    pub(crate) fn given_bad_since_step(&self, e: Entity, what: &'static str) -> bool {
        self.bad_since_step.contains(&(e, what))
    }
}

/// Whether a body may be placed there: finite, and within the core's
/// `MAX_WORLD_COORDINATE` of the origin (1e30, which `Choices::value` gives, is not).
pub(crate) fn placeable(p: Vec3) -> bool {
    let limit = bevy_physics2d::physics_core::constants::MAX_WORLD_COORDINATE;
    p.is_finite() && p.x.abs() <= limit && p.y.abs() <= limit
}

pub(crate) fn alive(world: &World, e: Entity) -> bool {
    world.get_entity(e).is_ok()
}

/// A random body velocity, angular velocity or teleport: the input a game's frame gives its
/// bodies (what the rollback check replays).
pub(crate) fn input(world: &mut World, rng: &mut impl Choices, t: &mut Tracked) {
    let Some(body) = rng.pick(&t.bodies) else {
        return;
    };
    match rng.below(4) {
        0 => {
            if let Some(mut v) = world.get_mut::<LinearVelocity>(body) {
                v.0 = Vec2::new(rng.value(-10.0, 10.0), rng.value(-10.0, 10.0));
                let finite = v.0.is_finite();
                t.wrote((body, "velocity"), finite);
            }
        }
        1 => {
            if let Some(mut w) = world.get_mut::<AngularVelocity>(body) {
                w.0 = rng.value(-5.0, 5.0);
                let finite = w.0.is_finite();
                t.wrote((body, "angular"), finite);
            }
        }
        2 => {
            if let Some(mut transform) = world.get_mut::<Transform>(body) {
                transform.translation.x = rng.value(-8.0, 8.0);
                transform.translation.y = rng.value(0.0, 10.0);
                let at = transform.translation;
                t.placed((body, "transform"), at);
            }
        }
        _ => {
            if let Some(character) = rng.pick(&t.characters)
                && let Some(mut v) = world.get_mut::<CharacterVelocity>(character)
            {
                v.0 = Vec2::new(rng.value(-6.0, 6.0), rng.range(-1.0, 6.0));
                let finite = v.0.is_finite();
                t.wrote((character, "character"), finite);
            }
        }
    }
}

/// One random operation on the App's world.
pub(crate) fn operate(world: &mut World, rng: &mut impl Choices, t: &mut Tracked) {
    match rng.below(25) {
        0 | 1 => {
            let at = Transform::from_xyz(rng.value(-8.0, 8.0), rng.range(1.0, 12.0), 0.0);
            let body = world.spawn((RigidBody::Dynamic, collider(rng), at)).id();
            t.placed((body, "transform"), at.translation);
            t.bodies.push(body);
        }
        2 => {
            // A body with two child colliders: a hierarchy to despawn or reparent later.
            let at = Transform::from_xyz(rng.range(-6.0, 6.0), rng.range(2.0, 10.0), 0.0);
            let body = world.spawn((RigidBody::Dynamic, at)).id();
            for side in [-0.6f32, 0.6] {
                let child = world
                    .spawn((
                        collider(rng),
                        Transform::from_xyz(side, 0.0, 0.0),
                        ChildOf(body),
                    ))
                    .id();
                t.children.push(child);
            }
            t.bodies.push(body);
        }
        3 => {
            if let Some(body) = rng.pick(&t.bodies) {
                // Despawns its child colliders and casters with it.
                world.despawn(body);
            }
        }
        4..=6 => input(world, rng, t),
        7 => {
            // Zero, mirrored or doubled scale, on a body or a child collider.
            if let Some(e) = body_or_child(rng, t)
                && let Some(mut transform) = world.get_mut::<Transform>(e)
            {
                transform.scale = match rng.below(4) {
                    0 => Vec3::ZERO,
                    1 => Vec3::new(-1.0, 1.0, 1.0),
                    2 => Vec3::splat(2.0),
                    _ => Vec3::ONE,
                };
            }
        }
        8 => {
            if let Some(body) = rng.pick(&t.bodies) {
                if world.get::<RigidBodyDisabled>(body).is_some() {
                    world.entity_mut(body).remove::<RigidBodyDisabled>();
                } else {
                    world.entity_mut(body).insert(RigidBodyDisabled);
                }
            }
        }
        9 => {
            if let Some(child) = rng.pick(&t.children) {
                if world.get::<ColliderDisabled>(child).is_some() {
                    world.entity_mut(child).remove::<ColliderDisabled>();
                } else {
                    world.entity_mut(child).insert(ColliderDisabled);
                }
            }
        }
        10 => {
            // A joint, sometimes to a body already gone.
            if let (Some(a), Some(b)) = (rng.pick(&t.bodies), rng.pick(&t.bodies))
                && a != b
            {
                t.joints.push(world.spawn(Joint::revolute(a, b)).id());
            }
        }
        11 => {
            if let Some(joint) = rng.pick(&t.joints) {
                world.despawn(joint);
            }
        }
        12 => {
            // A child collider moves to another body (not to a character, which moves with
            // its own rounded shape and names a box added to it).
            if let (Some(child), Some(body)) = (rng.pick(&t.children), rng.pick(&t.bodies))
                && !t.characters.contains(&body)
            {
                world.entity_mut(child).insert(ChildOf(body));
            }
        }
        13 => {
            if let Some(body) = rng.pick(&t.bodies) {
                let kind = [RigidBody::Dynamic, RigidBody::Kinematic, RigidBody::Static];
                let kind = kind[rng.below(3)];
                world.entity_mut(body).insert(kind);
                if t.characters.contains(&body) {
                    // A character must be kinematic: anything else is refused by name.
                    t.wrote((body, "kind"), kind == RigidBody::Kinematic);
                }
            }
        }
        14 => {
            // Collision hooks switched on or off for a collider.
            if let Some(e) = body_or_child(rng, t) {
                let mut e = world.entity_mut(e);
                match rng.below(3) {
                    0 => {
                        e.insert((Ghost, ActiveCollisionHooks::FILTER_PAIRS));
                    }
                    1 => {
                        e.insert((Ice, ActiveCollisionHooks::MODIFY_CONTACTS));
                    }
                    _ => {
                        e.remove::<(Ghost, Ice, ActiveCollisionHooks)>();
                    }
                }
            }
        }
        15 => {
            // A ray or shape caster, alone or riding a body, sometimes aimed at NaN.
            let direction = Vec2::new(rng.value(-1.0, 1.0), -1.0);
            let caster = if rng.below(2) == 0 {
                world
                    .spawn(RayCaster::new(Vec2::ZERO, direction).with_max_distance(15.0))
                    .id()
            } else {
                let shape = ShapeCaster::new(Collider::circle(0.2), Vec2::NEG_Y);
                world.spawn(shape.with_max_distance(15.0)).id()
            };
            let at = Transform::from_xyz(rng.range(-8.0, 8.0), rng.range(2.0, 12.0), 0.0);
            world.entity_mut(caster).insert(at);
            if let Some(body) = rng.pick(&t.bodies)
                && rng.below(2) == 0
            {
                world.entity_mut(caster).insert(ChildOf(body));
            }
            let aimed = world.get::<RayCaster>(caster).is_none() || direction.is_finite();
            t.wrote((caster, "ray"), aimed);
            t.casters.push(caster);
        }
        16 => {
            if let Some(caster) = rng.pick(&t.casters) {
                world.despawn(caster);
            }
        }
        17 => {
            // A character controller, or one taken off again.
            if let Some(character) = rng.pick(&t.characters)
                && rng.below(3) == 0
            {
                world
                    .entity_mut(character)
                    .remove::<(CharacterController, CharacterVelocity)>();
                t.wrote((character, "character"), true);
                t.wrote((character, "kind"), true);
                t.characters.retain(|&c| c != character);
            } else {
                let at = Transform::from_xyz(rng.range(-8.0, 8.0), rng.range(1.0, 6.0), 0.0);
                let character = world
                    .spawn((
                        CharacterController::default(),
                        Collider::capsule(0.3, 0.6),
                        CharacterVelocity(Vec2::new(rng.range(-4.0, 4.0), 0.0)),
                        at,
                    ))
                    .id();
                t.bodies.push(character);
                t.characters.push(character);
            }
        }
        18 => {
            // A body moved under another (a rider on a cart, perhaps a disabled one), or back
            // to the top. Only a body with no body below it moves, and only under a body at
            // the top, so no hierarchy loops.
            let Some(body) = rng.pick(&t.bodies) else {
                return;
            };
            if world.get::<ChildOf>(body).is_some() || rng.below(3) == 0 {
                world.entity_mut(body).remove::<ChildOf>();
            } else if let Some(cart) = rng.pick(&t.bodies)
                && cart != body
                && world.get::<ChildOf>(cart).is_none()
                && !carries_a_body(world, body)
            {
                world.entity_mut(body).insert(ChildOf(cart));
            }
        }
        19 => {
            // A body setting, sometimes out of range.
            if let Some(body) = rng.pick(&t.bodies) {
                if rng.below(2) == 0 {
                    let g = rng.value(-2.0, 2.0);
                    world.entity_mut(body).insert(GravityScale(g));
                    t.wrote((body, "gravity"), g.is_finite());
                } else {
                    let d = rng.value(-0.5, 2.0);
                    world.entity_mut(body).insert(LinearDamping(d));
                    t.wrote((body, "damping"), d.is_finite() && d >= 0.0);
                }
            }
        }
        20 => {
            // A collider's friction, sometimes out of range.
            if let Some(e) = body_or_child(rng, t)
                && world.get::<Collider>(e).is_some()
            {
                let f = rng.value(-0.3, 1.0);
                world.entity_mut(e).insert(Friction(f));
                t.wrote((e, "material"), f.is_finite() && f >= 0.0);
            }
        }
        21 => {
            // A collider swapped for one built from a mesh that has not loaded (it waits).
            if let Some(e) = body_or_child(rng, t)
                && world.get::<Collider>(e).is_some()
                && !t.characters.contains(&e)
            {
                let mesh = world.resource_mut::<Assets<Mesh>>().reserve_handle();
                // Only the newest mesh an entity waits for is its own.
                t.meshes_loading.retain(|&(_, waiting)| waiting != e);
                t.meshes_loading.push((mesh.clone(), e));
                t.wrote((e, "mesh"), true);
                let shape = [MeshShape::ConvexHull, MeshShape::Trimesh][rng.below(2)];
                let mut e = world.entity_mut(e);
                e.remove::<Collider>();
                e.insert((Mesh2d(mesh), ColliderConstructor(shape)));
            }
        }
        22 => {
            // A mesh that was loading arrives (a square, or nothing usable).
            if !t.meshes_loading.is_empty() {
                let at = rng.below(t.meshes_loading.len());
                let (handle, waiting) = t.meshes_loading.swap_remove(at);
                let unusable = rng.below(4) == 0;
                t.wrote((waiting, "mesh"), !unusable);
                let mesh = if unusable {
                    Mesh::new(PrimitiveTopology::PointList, RenderAssetUsages::default())
                } else {
                    let side = rng.range(0.3, 1.5);
                    Rectangle::new(side, side).mesh().build()
                };
                let _ = world
                    .resource_mut::<Assets<Mesh>>()
                    .insert(handle.id(), mesh);
            }
        }
        _ => {
            let mut time = world.resource_mut::<Time<Physics>>();
            match rng.below(4) {
                0 => time.pause(),
                1 => time.unpause(),
                2 => time.set_relative_speed(f64::from(rng.range(0.2, 3.0))),
                _ => time.set_relative_speed(1.0),
            }
        }
    }
    forget_the_dead(world, t);
}

/// A body or a child collider, half the time each.
fn body_or_child(rng: &mut impl Choices, t: &Tracked) -> Option<Entity> {
    if rng.below(2) == 0 {
        rng.pick(&t.bodies)
    } else {
        rng.pick(&t.children)
    }
}

/// Whether a body has another body below it in its hierarchy.
fn carries_a_body(world: &World, body: Entity) -> bool {
    let mut stack = vec![body];
    while let Some(e) = stack.pop() {
        if let Some(children) = world.get::<Children>(e) {
            for &child in children {
                if world.get::<RigidBody>(child).is_some() {
                    return true;
                }
                stack.push(child);
            }
        }
    }
    false
}

/// Drops despawned entities from the lists.
pub(crate) fn forget_the_dead(world: &World, t: &mut Tracked) {
    for list in [
        &mut t.bodies,
        &mut t.children,
        &mut t.joints,
        &mut t.casters,
        &mut t.characters,
    ] {
        list.retain(|&e| alive(world, e));
    }
    t.holding.retain(|&(e, _)| alive(world, e));
    t.fresh.retain(|&(e, _)| alive(world, e));
    t.held_at_step.retain(|&(e, _)| alive(world, e));
    t.bad_since_step.retain(|&(e, _)| alive(world, e));
    t.meshes_loading.retain(|&(_, e)| alive(world, e));
}
