//! What must hold after every frame, whatever the operations were.

use super::operations::{Tracked, placeable};
use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_physics2d::physics_core;
use bevy_physics2d::prelude::*;
use bevy_physics2d::{PhysicsBody, PhysicsWarning};
use bevy_transform::components::GlobalTransform;
use std::collections::{HashMap, HashSet};

/// Panics unless every body's pose and velocity is finite (or holds the game's own bad
/// value) and the core world's bodies are exactly the plugin's: each maps to a live entity
/// that has a rigid body and says it is that body, apart from the plugin's own ground for
/// joints to the world. After a step, every enabled body whose components were finite at
/// the end of the frame before too has its core body, unless the test gave an ancestor a bad
/// `Transform` since the last step began (the step found the body under it, refused it, and
/// tries it again at the next). Returns the bodies whose components are finite now.
pub(crate) fn check_world(
    app: &mut App,
    frame: usize,
    stepped: bool,
    t: &Tracked,
) -> HashSet<Entity> {
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
        // After a step (which applies the changes queued since the last), its shapes and
        // joints belong to live colliders and joints the game still has.
        if stepped {
            for &shape in core.body_shapes(id).unwrap() {
                if let Some(e) = physics.collider_entity(shape) {
                    let r = app.world().get_entity(e);
                    let live = r.is_ok_and(|r| {
                        r.contains::<Collider>() && !r.contains::<ColliderDisabled>()
                    });
                    assert!(
                        live,
                        "frame {frame}: shape {shape:?} of {e}, not a live enabled collider \
                         (alive {}, collider {}, disabled {})",
                        r.is_ok(),
                        r.as_ref().is_ok_and(|r| r.contains::<Collider>()),
                        r.as_ref().is_ok_and(|r| r.contains::<ColliderDisabled>()),
                    );
                }
            }
            for joint in core.body_joints(id).unwrap() {
                if let Some(e) = physics.joint_entity(joint) {
                    let live = app
                        .world()
                        .get_entity(e)
                        .is_ok_and(|r| r.contains::<Joint>());
                    assert!(
                        live,
                        "frame {frame}: joint {joint:?} of {e}, not a live joint"
                    );
                }
            }
        }
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
    let mut enabled = app.world_mut().query_filtered::<(
        Entity,
        &Transform,
        &GlobalTransform,
        &LinearVelocity,
        &AngularVelocity,
    ), (With<RigidBody>, Without<RigidBodyDisabled>)>();
    let physics = app.world().resource::<PhysicsWorld>();
    let mut buildable = HashSet::new();
    for (e, transform, global, v, w) in enabled.iter(app.world()) {
        // Placed by its own transform and its parents' (a body riding another).
        let placed = placeable(transform.translation)
            && transform.rotation.is_finite()
            && placeable(global.translation());
        let settings = !t.holds(e, "gravity") && !t.holds(e, "damping");
        if !(placed && settings && v.0.is_finite() && w.0.is_finite()) {
            continue;
        }
        buildable.insert(e);
        // A step of grace: a parent the game placed at NaN is put back in the motion stage,
        // after this step's bodies were built, so its children are built at the next. The
        // same holds for a parent given a bad `Transform` at any time since the last step
        // (while paused, say): the step finds the child under it.
        let parent_went_bad = || {
            ancestors(app.world(), e)
                .iter()
                .any(|&a| t.given_bad_since_step(a, "transform"))
        };
        if stepped && t.buildable_last_frame.contains(&e) && !parent_went_bad() {
            assert!(
                physics.body(e).is_some(),
                "frame {frame}: {e} has no core body ({:?}, {:?}, {transform:?})",
                app.world().get::<RigidBody>(e),
                app.world().get::<PhysicsBody>(e).is_some(),
            );
        }
    }
    buildable
}

/// What a warning is about, from the words it opens with: the group of values it names.
fn warning_group(message: &str) -> &'static str {
    let groups = [
        ("rigid body", "body"),
        ("child body", "body"),
        ("transform", "transform"),
        ("linear velocity", "velocity"),
        ("angular velocity", "angular"),
        ("body setting", "setting"),
        ("collider from mesh", "mesh"),
        ("collider", "material"),
        ("material", "material"),
        ("character", "character"),
        ("ray caster", "caster"),
        ("shape caster", "caster"),
        ("joint", "joint"),
    ];
    let group = groups
        .iter()
        .find(|(opening, _)| message.starts_with(opening))
        .map_or("other", |(_, group)| group);
    // A character names each of its refusals on its own.
    match group {
        "character" if message.contains("its velocity") => "character velocity",
        "character" if message.contains("Kinematic") => "character type",
        group => group,
    }
}

/// The warning groups a bad value in `slot` may be named under: its own, or the refusal of
/// the whole body when it is built from it.
fn slot_groups(slot: &str) -> &'static [&'static str] {
    match slot {
        "transform" => &["transform", "body"],
        "velocity" => &["velocity", "body"],
        "angular" => &["angular", "body"],
        "gravity" | "damping" => &["setting", "body"],
        "material" => &["material"],
        "kind" => &["character type"],
        "character" => &["character velocity"],
        "ray" => &["caster"],
        "mesh" => &["mesh"],
        _ => &[],
    }
}

/// `entity`'s parent, its parent's parent, and so on up to the root.
fn ancestors(world: &World, entity: Entity) -> Vec<Entity> {
    let mut all = Vec::new();
    let mut up = world.get::<ChildOf>(entity).map(ChildOf::parent);
    while let Some(a) = up {
        all.push(a);
        up = world.get::<ChildOf>(a).map(ChildOf::parent);
    }
    all
}

/// Whether a warning has a cause: a bad value the run gave the entity (or an ancestor whose
/// frame places it) and still holds, a joint the run made between random bodies, or a
/// collider scaled to nothing. Checked in the frame the warning comes, before the entity
/// can be despawned. Returns whether it counts towards its entity's warnings about the
/// values the run tracks.
pub(crate) fn check_warning_cause(
    frame: usize,
    w: &PhysicsWarning,
    t: &Tracked,
    world: &World,
) -> bool {
    let ancestors = ancestors(world, w.entity);
    let given = t.holding.iter().any(|&(e, _)| e == w.entity)
        || ancestors
            .iter()
            .any(|&a| t.holds(a, "transform") || t.holds(a, "material"));
    // A joint is refused while one of its bodies is disabled, unbuilt or gone: the run joins
    // random bodies, so a joint's warning is its own bad value.
    let joint = t.joints.contains(&w.entity) && w.message.starts_with("joint");
    // A collider scaled to nothing, by its own scale or a parent's.
    let flat = world
        .get::<bevy_transform::components::GlobalTransform>(w.entity)
        .is_some_and(|g| g.scale().truncate().min_element().abs() == 0.0)
        && w.message.starts_with("collider:")
        && w.message.contains("scale");
    // A body placed beyond the core's limit by its parents' frames (each finite).
    let far = world
        .get::<bevy_transform::components::GlobalTransform>(w.entity)
        .is_some_and(|g| !placeable(g.translation()))
        && w.message.contains("MAX_WORLD_COORDINATE");
    assert!(
        given || joint || flat || far,
        "frame {frame}: a warning for no bad value: {w:?}"
    );
    given && !flat
}

/// Panics unless every fresh bad value the run wrote since the last step was warned about by
/// its entity's name, and no entity was warned twice about one group of values in a step.
/// `counted` holds the warnings since the last step that [`check_warning_cause`] counted.
pub(crate) fn check_warnings(frame: usize, counted: &[PhysicsWarning], t: &Tracked, world: &World) {
    let mut per_group: HashMap<(Entity, &'static str), usize> = HashMap::new();
    for w in counted {
        let group = warning_group(&w.message);
        let count = per_group.entry((w.entity, group)).or_default();
        *count += 1;
        assert!(
            *count == 1,
            "frame {frame}: {} warned twice about its {group}: {counted:?}",
            w.entity
        );
    }
    let physics = world.resource::<PhysicsWorld>();
    for &(e, what) in &t.fresh {
        // A disabled body is not built, so nothing reads its values until it is enabled.
        if world.get::<RigidBodyDisabled>(e).is_some() {
            continue;
        }
        // A character's settings are read when it moves, a body's settings and a collider's
        // materials when they are set on its core body and shapes: while those are out of
        // the world (refused for another bad value, named then) nothing reads them, and they
        // are named once it is back, as values still held.
        let unread = match what {
            "kind" | "character" | "gravity" | "damping" => physics.body(e).is_none(),
            "material" => physics.shapes(e).is_empty(),
            _ => false,
        };
        if unread {
            continue;
        }
        let named = slot_groups(what)
            .iter()
            .any(|group| per_group.contains_key(&(e, *group)));
        assert!(
            named,
            "frame {frame}: a bad {what} written to {e} was not named: {counted:?}"
        );
    }
}
