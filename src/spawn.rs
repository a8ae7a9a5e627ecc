//! Scenes as Bevy entities: the same [`Scene`] the core tests build, spawned as `RigidBody`,
//! `Collider` and `Joint` components for the `bevy_physics2d` plugin (the testbed and the plugin
//! tests use this).

use crate::{BodyDesc, GroupChange, JointDesc, Scene, ShapeDesc};
use bevy_ecs::prelude::*;
use bevy_physics2d::physics_core::body::BodyType;
use bevy_physics2d::physics_core::joint::JointKind;
use bevy_physics2d::physics_core::math::Transform as CoreTransform;
use bevy_physics2d::prelude::*;
use bevy_physics2d::{JointAnchor, PhysicsSettings, PhysicsWorld};
use bevy_transform::components::Transform;

/// Marks every entity spawned from a scene, so a testbed can despawn the scene as a whole.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct SceneEntity;

/// The entities of a spawned scene, index-aligned with [`Scene::bodies`] and [`Scene::joints`].
#[derive(Clone, Debug, Default)]
pub struct SpawnedScene {
    /// One entity per body description.
    pub bodies: Vec<Entity>,
    /// One entity per joint description.
    pub joints: Vec<Entity>,
}

/// Spawns `scene` with `commands`. Bodies with one shape centred on their origin carry the
/// collider themselves; other shapes go on child entities placed in the body's frame. Bodies
/// and joints of the scene's groups are not spawned (their places hold `Entity::PLACEHOLDER`):
/// [`apply_scene_changes`] spawns them when the timeline says.
pub fn spawn_scene(commands: &mut Commands, scene: &Scene) -> SpawnedScene {
    let bodies: Vec<Entity> = scene
        .bodies
        .iter()
        .zip(scene.bodies_present_after(0))
        .map(|(body, at_start)| {
            if at_start {
                spawn_body(commands, body)
            } else {
                Entity::PLACEHOLDER
            }
        })
        .collect();
    let joints = scene
        .joints
        .iter()
        .zip(scene.joints_present_after(0))
        .map(|(joint, at_start)| {
            if at_start {
                spawn_joint(commands, joint, &bodies)
            } else {
                Entity::PLACEHOLDER
            }
        })
        .collect();
    SpawnedScene { bodies, joints }
}

/// Spawns and despawns the groups the scene's timeline changes before step `step` (counted
/// from 0, the plugin's first step): call it before the update that takes that step. A
/// group's joints are despawned with its bodies.
pub fn apply_scene_changes(
    commands: &mut Commands,
    scene: &Scene,
    spawned: &mut SpawnedScene,
    step: usize,
) {
    for change in scene.changes_before(step) {
        match change {
            GroupChange::Create(g) => {
                let group = &scene.groups[g];
                for i in group.bodies.clone() {
                    spawned.bodies[i] = spawn_body(commands, &scene.bodies[i]);
                }
                for j in group.joints.clone() {
                    spawned.joints[j] = spawn_joint(commands, &scene.joints[j], &spawned.bodies);
                }
            }
            GroupChange::Destroy(g) => {
                let group = &scene.groups[g];
                let places = spawned.bodies[group.bodies.clone()].iter_mut();
                for entity in places.chain(spawned.joints[group.joints.clone()].iter_mut()) {
                    let gone = std::mem::replace(entity, Entity::PLACEHOLDER);
                    if gone != Entity::PLACEHOLDER {
                        commands.entity(gone).despawn();
                    }
                }
            }
        }
    }
}

/// Plugin settings matching the scene's gravity, all else at the defaults.
pub fn scene_settings(scene: &Scene) -> PhysicsSettings {
    PhysicsSettings {
        gravity: scene.gravity,
        ..PhysicsSettings::default()
    }
}

fn spawn_body(commands: &mut Commands, desc: &BodyDesc) -> Entity {
    let body_type = match desc.body_type {
        BodyType::Static => RigidBody::Static,
        BodyType::Kinematic => RigidBody::Kinematic,
        BodyType::Dynamic => RigidBody::Dynamic,
    };
    let transform = Transform::from_xyz(desc.position.x, desc.position.y, 0.0)
        .with_rotation(bevy_math::Quat::from_rotation_z(desc.angle));
    let mut body = commands.spawn((
        SceneEntity,
        body_type,
        transform,
        LinearVelocity(desc.linear_velocity),
        AngularVelocity(desc.angular_velocity),
    ));
    let (placed, on_body) = placed_shapes(desc);
    if on_body {
        let (collider, _, shape) = &placed[0];
        body.insert((collider.clone(), materials(shape)));
    } else {
        body.with_children(|children| {
            for (collider, local, shape) in &placed {
                children.spawn((SceneEntity, collider.clone(), *local, materials(shape)));
            }
        });
    }
    body.id()
}

/// How the spawner places `desc`'s shapes: each as a collider with its local `Transform`
/// in the body, and whether the body entity carries its one shape itself (centred on its
/// origin) instead of one child entity per shape at that `Transform`.
pub fn placed_shapes(desc: &BodyDesc) -> (Vec<(Collider, Transform, &ShapeDesc)>, bool) {
    let mut on_body = desc.shapes.len() == 1;
    let placed = desc
        .shapes
        .iter()
        .map(|shape| {
            let (collider, offset) = Collider::from_core_shape(&shape.shape);
            on_body &= offset == CoreTransform::IDENTITY;
            let local = Transform::from_xyz(offset.p.x, offset.p.y, 0.0)
                .with_rotation(bevy_math::Quat::from_rotation_z(offset.q.angle()));
            (collider, local, shape)
        })
        .collect();
    (placed, on_body)
}

fn materials(shape: &ShapeDesc) -> impl Bundle {
    let filter = shape.filter;
    (
        ColliderDensity(shape.density),
        Friction(shape.friction),
        Restitution(shape.restitution),
        CollisionLayers::new(filter.category_bits, filter.mask_bits).with_group(filter.group_index),
    )
}

fn spawn_joint(commands: &mut Commands, desc: &JointDesc, bodies: &[Entity]) -> Entity {
    // The scene's kind already carries the reference angle it wants; keep it rather than
    // measuring the bodies' relative angle at creation.
    let reference_angle = match desc.kind {
        JointKind::Revolute(j) => Some(j.reference_angle),
        JointKind::Prismatic(j) => Some(j.reference_angle),
        JointKind::Weld(j) => Some(j.reference_angle),
        _ => None,
    };
    let mut joint = Joint::from_kind(bodies[desc.body_a], bodies[desc.body_b], desc.kind);
    joint.collide_connected = desc.collide_connected;
    joint.reference_angle = reference_angle;
    joint.anchor = JointAnchor::WorldPair {
        a: desc.anchor_a,
        b: desc.anchor_b,
    };
    commands.spawn((SceneEntity, joint)).id()
}

/// A spawned scene whose [`Scene::timeline`] is running: [`advance_scene_timeline`] spawns and
/// despawns its groups before each physics step, the scene's step 0 being the first physics
/// step after the resource is inserted.
#[derive(Resource, Debug)]
pub struct SceneTimeline {
    scene: Scene,
    spawned: SpawnedScene,
    /// [`PhysicsWorld::step_count`] before the scene's step 0, read on the first run of
    /// [`advance_scene_timeline`].
    start: Option<u64>,
    /// The scene step whose changes are still to be made.
    next: usize,
}

impl SceneTimeline {
    /// The timeline of `scene`, spawned as `spawned`.
    pub fn new(scene: Scene, spawned: SpawnedScene) -> Self {
        SceneTimeline {
            scene,
            spawned,
            start: None,
            next: 0,
        }
    }

    /// The scene's entities as they are now.
    pub fn spawned(&self) -> &SpawnedScene {
        &self.spawned
    }
}

/// Makes the changes the running [`SceneTimeline`] holds before the physics step about to be
/// taken (run it in `FixedUpdate`, before the physics stages). A paused world takes no step, so
/// the timeline waits with it.
pub fn advance_scene_timeline(
    mut commands: Commands,
    timeline: Option<ResMut<SceneTimeline>>,
    world: Res<PhysicsWorld>,
) {
    let Some(mut timeline) = timeline else {
        return;
    };
    let timeline = &mut *timeline;
    let start = *timeline.start.get_or_insert(world.step_count());
    let upcoming = world.step_count().saturating_sub(start) as usize;
    while timeline.next <= upcoming {
        let step = timeline.next;
        apply_scene_changes(&mut commands, &timeline.scene, &mut timeline.spawned, step);
        timeline.next += 1;
    }
}
