//! The plugin under many random ECS operations a frame, as a game makes them: bodies with
//! child colliders spawned and despawned whole, reparented colliders, zero and mirrored
//! scales, disabled bodies and colliders, body types switched, joints to bodies that come
//! and go, teleports and velocities (some of them NaN or absurd), collision hooks switched on
//! and off, ray and shape casters, character controllers, the physics clock paused and sped
//! up. After every frame:
//! - nothing panicked, and no transform or velocity holds a NaN the game did not write;
//! - the core world holds a body for exactly the entities the plugin maps, all alive, and
//!   every enabled body whose components are finite has one;
//! - every bad value gave one warning naming its entity, and no warning names an entity that
//!   was given none.
//!
//! Every 50 frames, a rollback: the rollback set is saved, eight frames of game input run,
//! the set is restored and the same input runs again, giving the same bits.

mod support;

use bevy_app::App;
use bevy_ecs::message::MessageCursor;
use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;
use bevy_math::Vec3;
use bevy_physics2d::physics_core;
use bevy_physics2d::prelude::*;
use bevy_physics2d::{
    ActiveCollisionHooks, CollisionHooks, ContactPair, InterpolationPoses, PhysicsBody,
    PhysicsWarning, RayCaster, ShapeCaster,
};
use bevy_time::Time;
use std::collections::{HashMap, HashSet};
use std::time::Duration;

/// SplitMix64: the operations of a seed, the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }

    /// A number for a component: mostly sensible, sometimes NaN, infinite or absurd.
    fn value(&mut self, lo: f32, hi: f32) -> f32 {
        match self.below(40) {
            0 => f32::NAN,
            1 => f32::INFINITY,
            2 => 1.0e30,
            _ => self.range(lo, hi),
        }
    }

    fn pick(&mut self, list: &[Entity]) -> Option<Entity> {
        (!list.is_empty()).then(|| list[self.below(list.len())])
    }
}

/// A collider of a random kind and size.
fn collider(rng: &mut Rng) -> Collider {
    match rng.below(3) {
        0 => Collider::circle(rng.range(0.1, 0.8)),
        1 => Collider::rectangle(rng.range(0.2, 1.5), rng.range(0.2, 1.5)),
        _ => Collider::capsule(rng.range(0.1, 0.4), rng.range(0.2, 1.0)),
    }
}

/// Colliders whose pairs the hooks refuse.
#[derive(Component)]
struct Ghost;

/// Colliders whose contacts the hooks make frictionless.
#[derive(Component)]
struct Ice;

/// The hooks of the test: ghosts pass through everything, ice has no friction.
#[derive(SystemParam)]
struct RandomHooks<'w, 's> {
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
type Slot = (Entity, &'static str);

/// What the test keeps track of.
#[derive(Default, Clone)]
struct Tracked {
    bodies: Vec<Entity>,
    children: Vec<Entity>,
    joints: Vec<Entity>,
    casters: Vec<Entity>,
    characters: Vec<Entity>,
    /// Components whose last value from the test was NaN, infinite or absurd. The plugin
    /// refuses such a value and may leave it in the game's component as the game wrote it.
    holding: HashSet<Slot>,
    /// Slots given a bad value since the last step while not holding one before: each must
    /// be warned about once, by name, in the next step.
    fresh: HashSet<Slot>,
}

impl Tracked {
    /// Notes the value the test wrote into `slot`.
    fn wrote(&mut self, slot: Slot, finite: bool) {
        if finite {
            self.holding.remove(&slot);
            self.fresh.remove(&slot);
        } else if self.holding.insert(slot) {
            self.fresh.insert(slot);
        }
    }

    fn holds(&self, e: Entity, what: &'static str) -> bool {
        self.holding.contains(&(e, what))
    }
}

fn alive(world: &World, e: Entity) -> bool {
    world.get_entity(e).is_ok()
}

/// A random body velocity, angular velocity or teleport: the input a game's frame gives its
/// bodies (what the rollback check replays).
fn input(world: &mut World, rng: &mut Rng, t: &mut Tracked) {
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
                let finite = transform.translation.is_finite();
                t.wrote((body, "transform"), finite);
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
fn operate(world: &mut World, rng: &mut Rng, t: &mut Tracked) {
    match rng.below(20) {
        0 | 1 => {
            let at = Transform::from_xyz(rng.value(-8.0, 8.0), rng.range(1.0, 12.0), 0.0);
            let body = world.spawn((RigidBody::Dynamic, collider(rng), at)).id();
            t.wrote((body, "transform"), at.translation.is_finite());
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
            let list = if rng.below(2) == 0 {
                &t.bodies
            } else {
                &t.children
            };
            if let Some(e) = rng.pick(list)
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
            // A child collider moves to another body.
            if let (Some(child), Some(body)) = (rng.pick(&t.children), rng.pick(&t.bodies)) {
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
            let list = if rng.below(2) == 0 {
                &t.bodies
            } else {
                &t.children
            };
            if let Some(e) = rng.pick(list) {
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

/// Drops despawned entities from the lists.
fn forget_the_dead(world: &World, t: &mut Tracked) {
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
}

/// Panics unless every body's pose and velocity is finite (or holds the game's own bad
/// value) and the core world's bodies are exactly the plugin's: each maps to a live entity
/// that has a rigid body and says it is that body, apart from the plugin's own ground for
/// joints to the world. After a step, every enabled body whose components are finite has
/// its core body.
fn check_world(app: &mut App, frame: usize, stepped: bool, t: &Tracked) {
    let mut bodies = app
        .world_mut()
        .query_filtered::<(Entity, &Transform, &LinearVelocity, &AngularVelocity), With<RigidBody>>(
        );
    for (e, transform, v, w) in bodies.iter(app.world()) {
        let placed = transform.translation.is_finite() && transform.rotation.is_finite();
        assert!(
            placed || t.holds(e, "transform"),
            "frame {frame}: {e} at {transform:?}"
        );
        assert!(
            v.0.is_finite() || t.holds(e, "velocity"),
            "frame {frame}: {e} moves at {v:?}"
        );
        assert!(
            w.0.is_finite() || t.holds(e, "angular"),
            "frame {frame}: {e} spins at {w:?}"
        );
    }
    let physics = app.world().resource::<PhysicsWorld>();
    let core = physics.core();
    let mut mapped = 0;
    for id in core.body_ids() {
        let p = core.body_position(id).unwrap();
        let v = core.linear_velocity(id).unwrap();
        let w = core.angular_velocity(id).unwrap();
        assert!(
            p.is_finite() && v.is_finite() && w.is_finite(),
            "frame {frame}: core body {id:?} at {p:?} moving {v:?}, {w}"
        );
        match physics.body_entity(id) {
            Some(e) => {
                assert!(
                    app.world().get::<RigidBody>(e).is_some(),
                    "frame {frame}: core body {id:?} of {e}, which has no rigid body"
                );
                assert_eq!(physics.body(e), Some(id), "frame {frame}: {e}'s body");
                mapped += 1;
            }
            None => assert!(
                core.body_type(id).unwrap() == physics_core::body::BodyType::Static,
                "frame {frame}: core body {id:?} has no entity and is not the ground"
            ),
        }
    }
    let unmapped = core.body_count() - mapped;
    assert!(
        unmapped <= 1,
        "frame {frame}: {unmapped} core bodies without an entity"
    );
    if !stepped {
        return;
    }
    let mut enabled = app.world_mut().query_filtered::<(
        Entity,
        &Transform,
        &LinearVelocity,
        &AngularVelocity,
    ), (With<RigidBody>, Without<RigidBodyDisabled>)>();
    let physics = app.world().resource::<PhysicsWorld>();
    for (e, transform, v, w) in enabled.iter(app.world()) {
        let placed = transform.translation.is_finite() && transform.rotation.is_finite();
        if placed && v.0.is_finite() && w.0.is_finite() {
            assert!(
                physics.body(e).is_some(),
                "frame {frame}: {e} has no core body ({:?}, {:?}, {transform:?})",
                app.world().get::<RigidBody>(e),
                app.world().get::<PhysicsBody>(e).is_some(),
            );
        }
    }
}

/// Panics unless every fresh bad value the test wrote since the last step was warned about
/// once, by its entity's name, and every warning names an entity given a bad value (or
/// holding one the plugin tried again).
fn check_warnings(frame: usize, warned: &[PhysicsWarning], t: &Tracked, world: &World) {
    let mut per_entity: HashMap<Entity, usize> = HashMap::new();
    for w in warned {
        *per_entity.entry(w.entity).or_default() += 1;
    }
    for w in warned {
        // Given to the entity, or to the parent whose frame a child is placed in.
        let parent = world.get::<ChildOf>(w.entity).map(ChildOf::parent);
        let given = t.holding.iter().any(|&(e, _)| e == w.entity)
            || parent.is_some_and(|p| t.holds(p, "transform"));
        // A joint is refused while one of its bodies is disabled, unbuilt or gone: the test
        // joins random bodies, so a joint's warning is its own bad value.
        let joint = t.joints.contains(&w.entity) && w.message.starts_with("joint");
        // A collider scaled to nothing, by its own scale or a parent's.
        let flat = world
            .get::<bevy_transform::components::GlobalTransform>(w.entity)
            .is_some_and(|g| g.scale().truncate().min_element().abs() == 0.0)
            && w.message.contains("scale");
        assert!(
            given || joint || flat,
            "frame {frame}: a warning for no bad value: {w:?}"
        );
    }
    let mut fresh: HashMap<Entity, usize> = HashMap::new();
    for &(e, _) in &t.fresh {
        *fresh.entry(e).or_default() += 1;
    }
    for (e, bad) in fresh {
        // A disabled body is not built, so nothing reads its values until it is enabled.
        if world.get::<RigidBodyDisabled>(e).is_some() {
            continue;
        }
        let got = per_entity.get(&e).copied().unwrap_or(0);
        assert!(
            (1..=bad).contains(&got),
            "frame {frame}: {bad} bad values written to {e} ({:?}), {got} warnings: {warned:?}",
            t.fresh.iter().filter(|s| s.0 == e).collect::<Vec<_>>(),
        );
    }
}

/// The bits of every body's transform and velocities, as the components show them.
fn bits(world: &mut World) -> Vec<(Entity, [u32; 7])> {
    let mut bodies = world
        .query_filtered::<(Entity, &Transform, &LinearVelocity, &AngularVelocity), With<RigidBody>>(
        );
    let mut all: Vec<_> = bodies
        .iter(world)
        .map(|(e, t, v, w)| {
            let q = t.rotation;
            let values = [
                t.translation.x,
                t.translation.y,
                q.z,
                q.w,
                v.0.x,
                v.0.y,
                w.0,
            ];
            (e, values.map(f32::to_bits))
        })
        .collect();
    all.sort_unstable_by_key(|(e, _)| *e);
    all
}

/// The rollback set of every rigid body (see the plugin's `rollback` module).
#[derive(Clone)]
struct SavedBody {
    entity: Entity,
    transform: Transform,
    linear: LinearVelocity,
    angular: AngularVelocity,
    handle: Option<PhysicsBody>,
    poses: Option<InterpolationPoses>,
    sleeping: bool,
    character: Option<CharacterVelocity>,
}

fn save_bodies(world: &mut World) -> Vec<SavedBody> {
    let mut bodies = world.query_filtered::<Entity, With<RigidBody>>();
    let list: Vec<Entity> = bodies.iter(world).collect();
    list.into_iter()
        .map(|entity| SavedBody {
            entity,
            transform: *world.get::<Transform>(entity).unwrap(),
            linear: *world.get::<LinearVelocity>(entity).unwrap(),
            angular: *world.get::<AngularVelocity>(entity).unwrap(),
            handle: world.get::<PhysicsBody>(entity).copied(),
            poses: world.get::<InterpolationPoses>(entity).copied(),
            sleeping: world.get::<Sleeping>(entity).is_some(),
            character: world.get::<CharacterVelocity>(entity).copied(),
        })
        .collect()
}

fn restore_bodies(world: &mut World, saved: &[SavedBody]) {
    for s in saved {
        let mut e = world.entity_mut(s.entity);
        e.insert((s.transform, s.linear, s.angular));
        match s.handle {
            Some(handle) => e.insert(handle),
            None => e.remove::<PhysicsBody>(),
        };
        match s.poses {
            Some(poses) => e.insert(poses),
            None => e.remove::<InterpolationPoses>(),
        };
        if s.sleeping {
            e.insert(Sleeping);
        } else {
            e.remove::<Sleeping>();
        }
        if let Some(v) = s.character {
            e.insert(v);
        }
    }
}

/// Saves the rollback set, runs eight frames of random input, restores the set and runs the
/// same input again: the bodies must take the same states, bit for bit.
fn rollback_check(app: &mut App, rng: &mut Rng, t: &mut Tracked, frame: usize) {
    let world = app.world_mut();
    let snapshot = world.resource::<PhysicsWorld>().save_snapshot();
    let clock = *world.resource::<Time<Physics>>();
    let saved = save_bodies(world);
    let (rng_at, tracked_at) = (rng.0, t.clone());
    let mut first = Vec::new();
    for replay in 0..2 {
        if replay == 1 {
            let world = app.world_mut();
            world
                .resource_mut::<PhysicsWorld>()
                .restore_snapshot(&snapshot)
                .unwrap();
            *world.resource_mut::<Time<Physics>>() = clock;
            restore_bodies(world, &saved);
            (rng.0, *t) = (rng_at, tracked_at.clone());
        }
        for k in 0..8 {
            for _ in 0..rng.below(3) {
                input(app.world_mut(), rng, t);
            }
            app.update();
            let now = bits(app.world_mut());
            if replay == 0 {
                first.push(now);
            } else {
                assert!(
                    now == first[k],
                    "frame {frame}: rollback frame {k} differs from the first run"
                );
            }
        }
    }
}

#[test]
fn random_ecs_operations_keep_the_core_world_the_plugins_and_finite() {
    for seed in [1u64, 2, 3, 4] {
        let physics = PhysicsPlugins::default().with_collision_hooks::<RandomHooks>();
        let mut app = support::app_from(physics, true, Duration::from_secs_f64(1.0 / 60.0));
        support::ground_20m(&mut app);
        let mut rng = Rng(seed);
        let mut t = Tracked::default();
        let mut cursor = MessageCursor::<PhysicsWarning>::default();
        let mut warned = Vec::new();
        for frame in 0..1000 {
            if frame % 50 == 25 {
                rollback_check(&mut app, &mut rng, &mut t, frame);
                support::read(&mut app, &mut cursor);
                t.fresh.clear();
            }
            for _ in 0..1 + rng.below(6) {
                operate(app.world_mut(), &mut rng, &mut t);
            }
            let before = app.world().resource::<PhysicsWorld>().step_count();
            app.update();
            let stepped = app.world().resource::<PhysicsWorld>().step_count() > before;
            forget_the_dead(app.world(), &mut t);
            warned.extend(support::read(&mut app, &mut cursor));
            check_world(&mut app, frame, stepped, &t);
            if stepped {
                check_warnings(frame, &warned, &t, app.world());
                warned.clear();
                t.fresh.clear();
            }
        }
        let physics = app.world().resource::<PhysicsWorld>();
        eprintln!(
            "seed {seed}: {} steps, {} bodies, {} shapes, {} joints in the core world",
            physics.step_count(),
            physics.core().body_count(),
            physics.core().shape_count(),
            physics.core().joint_count()
        );
        assert!(
            physics.step_count() > 100,
            "seed {seed}: the physics clock ran"
        );
        assert!(
            physics.core().body_count() > 10,
            "seed {seed}: bodies stayed"
        );
    }
}
