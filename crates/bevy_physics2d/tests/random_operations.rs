//! The plugin under many random ECS operations a frame, as a game makes them: bodies with
//! child colliders spawned and despawned whole, reparented colliders, zero and mirrored
//! scales, disabled bodies and colliders, body types switched, joints to bodies that come
//! and go, teleports and velocities (some of them NaN or absurd), the physics clock paused
//! and sped up. After every frame: nothing panicked, no transform or velocity holds a NaN,
//! and the core world holds a body for exactly the entities the plugin maps, all alive, and
//! every enabled, finite body has one.

mod support;

use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_math::Vec3;
use bevy_physics2d::physics_core;
use bevy_physics2d::prelude::*;
use bevy_time::Time;

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

/// What the test keeps track of.
#[derive(Default)]
struct Tracked {
    bodies: Vec<Entity>,
    children: Vec<Entity>,
    joints: Vec<Entity>,
    /// Bodies whose velocity the test last set to a NaN or infinite value: the plugin refuses
    /// it and leaves the game's own component as the game wrote it.
    bad_velocity: std::collections::HashSet<Entity>,
    /// Bodies the test last teleported to a NaN or infinite place (likewise).
    bad_transform: std::collections::HashSet<Entity>,
}

/// One random operation on the App's world.
fn operate(world: &mut World, rng: &mut Rng, t: &mut Tracked) {
    let alive = |world: &World, e: Entity| world.get_entity(e).is_ok();
    match rng.below(14) {
        0 | 1 => {
            let at = Transform::from_xyz(rng.value(-8.0, 8.0), rng.range(1.0, 12.0), 0.0);
            let body = world.spawn((RigidBody::Dynamic, collider(rng), at)).id();
            if !at.translation.is_finite() {
                t.bad_transform.insert(body);
            }
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
                // Despawns its child colliders with it.
                world.despawn(body);
            }
        }
        4 => {
            if let Some(body) = rng.pick(&t.bodies)
                && let Some(mut v) = world.get_mut::<LinearVelocity>(body)
            {
                v.0 = Vec2::new(rng.value(-10.0, 10.0), rng.value(-10.0, 10.0));
                if v.0.is_finite() {
                    t.bad_velocity.remove(&body);
                } else {
                    t.bad_velocity.insert(body);
                }
            }
        }
        5 => {
            if let Some(body) = rng.pick(&t.bodies)
                && let Some(mut transform) = world.get_mut::<Transform>(body)
            {
                transform.translation.x = rng.value(-8.0, 8.0);
                transform.translation.y = rng.value(0.0, 10.0);
                if transform.translation.is_finite() {
                    t.bad_transform.remove(&body);
                } else {
                    t.bad_transform.insert(body);
                }
            }
        }
        6 => {
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
        7 => {
            if let Some(body) = rng.pick(&t.bodies)
                && alive(world, body)
            {
                if world.get::<RigidBodyDisabled>(body).is_some() {
                    world.entity_mut(body).remove::<RigidBodyDisabled>();
                } else {
                    world.entity_mut(body).insert(RigidBodyDisabled);
                }
            }
        }
        8 => {
            if let Some(child) = rng.pick(&t.children)
                && alive(world, child)
            {
                if world.get::<ColliderDisabled>(child).is_some() {
                    world.entity_mut(child).remove::<ColliderDisabled>();
                } else {
                    world.entity_mut(child).insert(ColliderDisabled);
                }
            }
        }
        9 => {
            // A joint, sometimes to a body already gone.
            if let (Some(a), Some(b)) = (rng.pick(&t.bodies), rng.pick(&t.bodies))
                && a != b
            {
                t.joints.push(world.spawn(Joint::revolute(a, b)).id());
            }
        }
        10 => {
            if let Some(joint) = rng.pick(&t.joints)
                && alive(world, joint)
            {
                world.despawn(joint);
            }
        }
        11 => {
            // A child collider moves to another body (or to a body already gone).
            if let (Some(child), Some(body)) = (rng.pick(&t.children), rng.pick(&t.bodies))
                && alive(world, child)
                && alive(world, body)
            {
                world.entity_mut(child).insert(ChildOf(body));
            }
        }
        12 => {
            if let Some(body) = rng.pick(&t.bodies)
                && alive(world, body)
            {
                let kind = [RigidBody::Dynamic, RigidBody::Kinematic, RigidBody::Static];
                world.entity_mut(body).insert(kind[rng.below(3)]);
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
    let alive =
        |world: &World, list: &mut Vec<Entity>| list.retain(|&e| world.get_entity(e).is_ok());
    alive(world, &mut t.bodies);
    alive(world, &mut t.children);
    alive(world, &mut t.joints);
}

/// Panics unless every body's pose and velocity is finite and the core world's bodies are
/// exactly the plugin's: each maps to a live entity that has a rigid body and says it is that
/// body, apart from the plugin's own ground for joints to the world.
fn check(app: &mut App, frame: usize, stepped: bool, t: &Tracked) {
    let mut bodies = app
        .world_mut()
        .query_filtered::<(Entity, &Transform, &LinearVelocity, &AngularVelocity), With<RigidBody>>(
        );
    for (e, transform, v, w) in bodies.iter(app.world()) {
        // A NaN the game wrote itself stays in its own component until it writes another;
        // the plugin must not spread one anywhere else.
        let placed = transform.translation.is_finite() && transform.rotation.is_finite();
        assert!(
            placed || t.bad_transform.contains(&e),
            "frame {frame}: {e} at {transform:?}"
        );
        assert!(
            (v.0.is_finite() || t.bad_velocity.contains(&e)) && w.0.is_finite(),
            "frame {frame}: {e} moves at {v:?}, {w:?}"
        );
    }
    let physics = app.world().resource::<PhysicsWorld>();
    let core = physics.core();
    let mut mapped = 0;
    for id in core.body_ids() {
        let p = core.body_position(id).unwrap();
        assert!(p.is_finite(), "frame {frame}: core body {id:?} at {p:?}");
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
    // And the other way: after a step, every enabled rigid body the game placed somewhere
    // finite, moving at a finite velocity, has its core body. (A body refused for a NaN
    // velocity is not tried again when the velocity is mended: not checked here yet.)
    if stepped {
        let mut enabled = app
            .world_mut()
            .query_filtered::<(Entity, &Transform), (With<RigidBody>, Without<RigidBodyDisabled>)>(
            );
        let physics = app.world().resource::<PhysicsWorld>();
        for (e, transform) in enabled.iter(app.world()) {
            let placed = transform.translation.is_finite() && transform.rotation.is_finite();
            if placed && !t.bad_transform.contains(&e) && !t.bad_velocity.contains(&e) {
                assert!(
                    physics.body(e).is_some(),
                    "frame {frame}: {e} has no core body ({:?}, {:?}, parent {:?}, {:?})",
                    app.world().get::<RigidBody>(e),
                    app.world().get::<bevy_physics2d::PhysicsBody>(e).is_some(),
                    app.world().get::<ChildOf>(e),
                    transform
                );
            }
        }
    }
}

#[test]
fn random_ecs_operations_keep_the_core_world_the_plugins_and_finite() {
    for seed in [1u64, 2, 3, 4] {
        let mut app = support::app();
        support::ground_20m(&mut app);
        let mut rng = Rng(seed);
        let mut tracked = Tracked::default();
        for frame in 0..1000 {
            for _ in 0..1 + rng.below(6) {
                operate(app.world_mut(), &mut rng, &mut tracked);
            }
            let before = app.world().resource::<PhysicsWorld>().step_count();
            app.update();
            let stepped = app.world().resource::<PhysicsWorld>().step_count() > before;
            check(&mut app, frame, stepped, &tracked);
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
