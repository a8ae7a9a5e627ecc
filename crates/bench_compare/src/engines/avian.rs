//! avian2d 0.7 in a headless App on the same Bevy 0.19: one fixed step per update, 4 substeps,
//! sleeping, islands and interpolation off, the compute pool at `--threads` threads (one by
//! default).
//!
//! Each body is one entity with one collider: a body with several shapes, or a shape away from
//! the body origin, gets a compound collider (the shapes of the benchmark bodies share their
//! material). Axis-aligned centred boxes are avian's rectangles (cuboids), other polygons
//! convex polylines, rounded ones with their rounding.

use super::scene_groups::{BuildsBodies, apply_changes, build_start};
use super::{BodySample, Settings, Simulation};
use avian2d::parry::shape::SharedShape;
use avian2d::prelude::*;
use bevy_app::{App, PluginGroup};
use bevy_ecs::entity::Entity;
use bevy_math::{Quat, Vec2};
use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};
use bevy_transform::TransformPlugin;
use bevy_transform::components::Transform;
use physics_core::body::BodyType;
use physics_core::joint::JointKind;
use physics_core::shape::Shape;
use physics2d_demos::{BodyGroup, Scene, ShapeDesc};
use std::sync::Arc;
use std::time::Duration;

struct Avian {
    app: App,
    /// The scene, for the groups its timeline creates and destroys.
    scene: Arc<Scene>,
    /// Body entities in scene order; `None` for a group body that does not exist now.
    bodies: Vec<Option<Entity>>,
    /// Joint entities in scene order, likewise.
    joints: Vec<Option<Entity>>,
    steps: usize,
}

/// The scene spawned as avian2d entities in a headless App.
pub fn build(scene: &Scene, settings: &Settings) -> Result<Box<dyn Simulation>, String> {
    let mut app = App::new();
    app.add_plugins((
        super::bevy_task_pools(),
        TimePlugin,
        TransformPlugin,
        // Islands only serve sleeping, which is off; avian 0.7's island merging also panics
        // on joint_grid ("Neither body is in an island").
        PhysicsPlugins::default()
            .build()
            .disable::<PhysicsInterpolationPlugin>()
            .disable::<IslandSleepingPlugin>()
            .disable::<IslandPlugin>(),
    ));
    // What `App::run` would do before the first update: avian sets up resources in `finish`.
    app.finish();
    app.cleanup();
    let dt = Duration::from_secs_f32(scene.dt);
    app.insert_resource(Time::<Fixed>::from_duration(dt));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(dt));
    app.insert_resource(Gravity(scene.gravity));
    app.insert_resource(SubstepCount(settings.substeps));

    let mut sim = Avian {
        app,
        scene: Arc::new(scene.clone()),
        bodies: vec![None; scene.bodies.len()],
        joints: vec![None; scene.joints.len()],
        steps: 0,
    };
    build_start(&mut sim, scene)?;
    // Starts the clock; the next update takes the first step.
    sim.app.update();
    Ok(Box::new(sim))
}

/// Bodies and joints are entities: a body with its collider, a joint of its own.
impl BuildsBodies for Avian {
    fn create_body(&mut self, scene: &Scene, index: usize) -> Result<(), String> {
        let desc = &scene.bodies[index];
        let rigid_body = match desc.body_type {
            BodyType::Static => RigidBody::Static,
            BodyType::Kinematic => RigidBody::Kinematic,
            BodyType::Dynamic => RigidBody::Dynamic,
        };
        let first = desc.shapes.first().ok_or("a body without shapes")?;
        let layers = layers(&first.filter)?;
        if desc.shapes.iter().any(|s| s.filter != first.filter) {
            return Err("shapes of one body with different filters".into());
        }
        let transform = Transform::from_xyz(desc.position.x, desc.position.y, 0.0)
            .with_rotation(Quat::from_rotation_z(desc.angle));
        let entity = self
            .app
            .world_mut()
            .spawn((
                rigid_body,
                body_collider(&desc.shapes)?,
                ColliderDensity(first.density),
                Friction::new(first.friction).with_combine_rule(CoefficientCombine::GeometricMean),
                Restitution::new(first.restitution).with_combine_rule(CoefficientCombine::Max),
                transform,
                LinearVelocity(desc.linear_velocity),
                AngularVelocity(desc.angular_velocity),
                SleepingDisabled,
                layers,
            ))
            .id();
        self.bodies[index] = Some(entity);
        Ok(())
    }

    fn create_joint(&mut self, scene: &Scene, index: usize) -> Result<(), String> {
        let joint = &scene.joints[index];
        let JointKind::Revolute(revolute) = joint.kind else {
            return Err("only revolute joints are mapped to avian2d".into());
        };
        let body = |i: usize| self.bodies[i].ok_or("avian2d adapter: a joint to an absent body");
        let (entity_a, entity_b) = (body(joint.body_a)?, body(joint.body_b)?);
        let (a, b) = (&scene.bodies[joint.body_a], &scene.bodies[joint.body_b]);
        let local = |body: &physics2d_demos::BodyDesc, anchor: Vec2| {
            Vec2::from_angle(-body.angle).rotate(anchor - body.position)
        };
        let mut hinge = RevoluteJoint::new(entity_a, entity_b)
            .with_local_anchor1(local(a, joint.anchor_a))
            .with_local_anchor2(local(b, joint.anchor_b));
        if revolute.enable_limit {
            hinge = hinge.with_angle_limits(revolute.lower_angle, revolute.upper_angle);
        }
        if revolute.enable_motor {
            // A velocity motor as stiff as avian's model allows, capped at the scene's torque.
            let motor = AngularMotor::new(MotorModel::ForceBased {
                stiffness: 0.0,
                damping: 1e6,
            })
            .with_target_velocity(revolute.motor_speed)
            // An unlimited (f32::MAX) torque overflows avian's torque arithmetic to
            // infinity and NaN; 1e9 N m is unlimited for these scenes.
            .with_max_torque(revolute.max_motor_torque.min(1e9));
            hinge = hinge.with_motor(motor);
        }
        let collide_connected = joint.collide_connected;
        let mut entity = self.app.world_mut().spawn(hinge);
        if collide_connected {
            entity.remove::<JointCollisionDisabled>();
        } else {
            entity.insert(JointCollisionDisabled);
        }
        self.joints[index] = Some(entity.id());
        Ok(())
    }

    fn destroy_group(&mut self, group: &BodyGroup) -> Result<(), String> {
        let joints = self.joints[group.joints.clone()].iter_mut();
        for slot in joints.chain(self.bodies[group.bodies.clone()].iter_mut()) {
            if let Some(entity) = slot.take() {
                self.app.world_mut().despawn(entity);
            }
        }
        Ok(())
    }
}

/// Collision layers for a filter: category and mask bits as memberships and filters (avian's
/// are 32 bits; the scenes use the low ones), or a negative group, whose members never
/// collide with each other (avian has no groups: the scenes' one negative group becomes a
/// membership bit its members filter out, as in the rapier adapter).
fn layers(filter: &physics_core::filter::Filter) -> Result<CollisionLayers, String> {
    const GROUP_BIT: u32 = 1 << 31;
    let default = physics_core::filter::Filter::default();
    let (category, mask) = (filter.category_bits, filter.mask_bits);
    let default_bits = category == default.category_bits && mask == default.mask_bits;
    Ok(match filter.group_index {
        0 if default_bits => CollisionLayers::default(),
        0 if category >> 31 == 0 => CollisionLayers::from_bits(category as u32, mask as u32),
        g if g < 0 && default_bits => CollisionLayers::from_bits(GROUP_BIT, !GROUP_BIT),
        _ => return Err("filter not mapped to avian2d".into()),
    })
}

/// The collider of a body's shapes: the shape itself when there is one at the body origin,
/// else a compound.
fn body_collider(shapes: &[ShapeDesc]) -> Result<Collider, String> {
    // Many segments (a bowl, terrain) are avian's polyline: one shape with its own tree.
    let segments: Option<Vec<[Vec2; 2]>> = shapes
        .iter()
        .map(|s| match s.shape {
            Shape::Segment(seg) => Some([seg.point1, seg.point2]),
            _ => None,
        })
        .collect();
    if let Some(segments) = segments
        && segments.len() > 1
    {
        let vertices = segments.iter().flatten().copied().collect();
        let indices = (0..segments.len() as u32)
            .map(|k| [2 * k, 2 * k + 1])
            .collect();
        return Ok(Collider::polyline(vertices, Some(indices)));
    }
    if let [only] = shapes
        && let Some(collider) = centred_collider(&only.shape)
    {
        return Ok(collider);
    }
    let parts = shapes
        .iter()
        .map(|s| offset_collider(&s.shape))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Collider::compound(parts))
}

/// A shape that sits at the body origin as a collider of its own, if it does.
fn centred_collider(shape: &Shape) -> Option<Collider> {
    match shape {
        Shape::Circle(c) if c.center == Vec2::ZERO => Some(Collider::circle(c.radius)),
        Shape::Capsule(c) => Some(Collider::capsule_endpoints(c.radius, c.center1, c.center2)),
        Shape::Segment(s) => Some(Collider::segment(s.point1, s.point2)),
        Shape::Polygon(p) => Some(polygon_collider(p.vertices(), p.radius())),
        // No benchmark scene has chains; refused rather than built two-sided.
        Shape::Circle(_) | Shape::ChainSegment(_) => None,
    }
}

/// A shape as (offset, rotation, collider) for a compound.
fn offset_collider(shape: &Shape) -> Result<(Vec2, Rotation, Collider), String> {
    match shape {
        Shape::Circle(c) => Ok((c.center, Rotation::IDENTITY, Collider::circle(c.radius))),
        other => centred_collider(other)
            .map(|collider| (Vec2::ZERO, Rotation::IDENTITY, collider))
            .ok_or_else(|| "unmapped shape".into()),
    }
}

/// A polygon: a cuboid when it is a sharp axis-aligned box centred on (cx, cy) = 0 (avian's
/// fastest box), else a convex polyline, rounded by `radius`.
fn polygon_collider(vertices: &[Vec2], radius: f32) -> Collider {
    let min = vertices.iter().fold(Vec2::INFINITY, |m, v| m.min(*v));
    let max = vertices.iter().fold(Vec2::NEG_INFINITY, |m, v| m.max(*v));
    let centred_box = vertices.len() == 4
        && (min + max).length() < 1e-6
        && vertices
            .iter()
            .all(|v| (v.x == min.x || v.x == max.x) && (v.y == min.y || v.y == max.y));
    match (centred_box, radius > 0.0) {
        (true, false) => Collider::rectangle(max.x - min.x, max.y - min.y),
        (true, true) => Collider::round_rectangle(max.x - min.x, max.y - min.y, radius),
        (false, true) => SharedShape::round_convex_polyline(vertices.to_vec(), radius)
            .map(Collider::from)
            .unwrap_or_else(|| Collider::convex_hull(vertices.to_vec()).expect("convex")),
        (false, false) => {
            Collider::convex_polyline(vertices.to_vec()).expect("scene polygons are convex")
        }
    }
}

impl Simulation for Avian {
    fn step(&mut self) -> Result<(), String> {
        let scene = Arc::clone(&self.scene);
        apply_changes(self, &scene, self.steps)?;
        self.steps += 1;
        let before = self.app.world().resource::<Time<Physics>>().elapsed();
        for _ in 0..4 {
            self.app.update();
            if self.app.world().resource::<Time<Physics>>().elapsed() > before {
                return Ok(());
            }
        }
        Err("the App did not take a physics step".into())
    }

    fn samples(&mut self) -> Vec<BodySample> {
        let world = self.app.world();
        self.bodies
            .iter()
            .map(|e| {
                let Some(e) = *e else {
                    return BodySample::NAN;
                };
                let (Some(p), Some(q), Some(v), Some(w)) = (
                    world.get::<Position>(e),
                    world.get::<Rotation>(e),
                    world.get::<LinearVelocity>(e),
                    world.get::<AngularVelocity>(e),
                ) else {
                    return BodySample::NAN;
                };
                BodySample {
                    position: p.0,
                    angle: q.as_radians(),
                    linear_velocity: v.0,
                    angular_velocity: w.0,
                }
            })
            .collect()
    }
}
