//! What must hold after every frame, whatever the operations were.

use super::operations::Tracked;
use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_physics2d::physics_core;
use bevy_physics2d::prelude::*;
use bevy_physics2d::{PhysicsBody, PhysicsWarning};
use std::collections::HashMap;

/// Panics unless every body's pose and velocity is finite (or holds the game's own bad
/// value) and the core world's bodies are exactly the plugin's: each maps to a live entity
/// that has a rigid body and says it is that body, apart from the plugin's own ground for
/// joints to the world. After a step, every enabled body whose components are finite has
/// its core body.
pub(crate) fn check_world(app: &mut App, frame: usize, stepped: bool, t: &Tracked) {
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
pub(crate) fn check_warnings(frame: usize, warned: &[PhysicsWarning], t: &Tracked, world: &World) {
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
    let physics = world.resource::<PhysicsWorld>();
    let mut fresh: HashMap<Entity, usize> = HashMap::new();
    for &(e, what) in &t.fresh {
        // A character's settings are read when it moves: while its body is out of the world
        // (refused for another bad value, named then) nothing reads them; they are named
        // once it is back, as a value still held.
        let character_setting = what == "kind" || what == "character";
        if character_setting && physics.body(e).is_none() {
            continue;
        }
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
