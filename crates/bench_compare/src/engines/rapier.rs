//! rapier2d 0.36 through its `PhysicsWorld`: `num_solver_iterations` is its substep count,
//! bodies never sleep, the default build is single-threaded.

use super::scene_groups::{BuildsBodies, apply_changes, build_start};
use super::{BodySample, Settings, Simulation};
use bevy_math::Vec2;
use physics_core::body::BodyType;
use physics_core::joint::JointKind;
use physics_core::shape::Shape;
use physics2d_demos::{BodyGroup, Scene, ShapeDesc};
use rapier2d::prelude::*;
use std::sync::Arc;

/// A point in rapier's glam (another glam release than Bevy's).
fn v(p: Vec2) -> Vector {
    Vector::new(p.x, p.y)
}

struct Rapier {
    world: PhysicsWorld,
    /// The scene, for the groups its timeline creates and destroys.
    scene: Arc<Scene>,
    /// Body handles in scene order; `None` for a group body that does not exist now.
    bodies: Vec<Option<RigidBodyHandle>>,
    steps: usize,
}

/// The scene in a rapier2d world.
pub fn build(scene: &Scene, settings: &Settings) -> Result<Box<dyn Simulation>, String> {
    let mut world = PhysicsWorld::new();
    world.gravity = v(scene.gravity);
    world.integration_parameters.dt = scene.dt;
    world.integration_parameters.num_solver_iterations = settings.substeps as usize;
    // Its defaults otherwise (contact recycling on, as in Box2D v3 and physics_core); joints
    // warm-started as in the other engines.
    world.integration_parameters.warmstart_joints = true;
    let mut sim = Rapier {
        world,
        scene: Arc::new(scene.clone()),
        bodies: vec![None; scene.bodies.len()],
        steps: 0,
    };
    build_start(&mut sim, scene)?;
    Ok(Box::new(sim))
}

impl BuildsBodies for Rapier {
    fn create_body(&mut self, scene: &Scene, index: usize) -> Result<(), String> {
        let desc = &scene.bodies[index];
        let builder = match desc.body_type {
            BodyType::Static => RigidBodyBuilder::fixed(),
            BodyType::Kinematic => RigidBodyBuilder::kinematic_velocity_based(),
            BodyType::Dynamic => RigidBodyBuilder::dynamic(),
        };
        let body = builder
            .translation(v(desc.position))
            .rotation(desc.angle)
            .linvel(v(desc.linear_velocity))
            .angvel(desc.angular_velocity)
            .can_sleep(false);
        let world = &mut self.world;
        let handle = world.bodies.insert(body);
        for shape in &desc.shapes {
            let collider = collider(shape)?;
            world
                .colliders
                .insert_with_parent(collider, handle, &mut world.bodies);
        }
        self.bodies[index] = Some(handle);
        Ok(())
    }

    fn create_joint(&mut self, scene: &Scene, index: usize) -> Result<(), String> {
        let joint = &scene.joints[index];
        let JointKind::Revolute(revolute) = joint.kind else {
            return Err(format!("rapier2d adapter: no mapping for {:?}", joint.kind));
        };
        let body = |i: usize| self.bodies[i].ok_or("rapier2d adapter: a joint to an absent body");
        let (a, b) = (body(joint.body_a)?, body(joint.body_b)?);
        let world = &mut self.world;
        let local = |handle: RigidBodyHandle, point: Vec2| {
            let body = &world.bodies[handle];
            body.position().inverse_transform_point(v(point))
        };
        let mut builder = RevoluteJointBuilder::new()
            .local_anchor1(local(a, joint.anchor_a))
            .local_anchor2(local(b, joint.anchor_b))
            .contacts_enabled(joint.collide_connected);
        if revolute.enable_motor {
            builder = builder
                // A stiff velocity motor, like Box2D's: reaches its speed at once within the
                // torque limit (a factor of 1 takes about a second).
                .motor_velocity(revolute.motor_speed, 1e6)
                .motor_max_force(revolute.max_motor_torque);
        }
        if revolute.enable_limit {
            builder = builder.limits([revolute.lower_angle, revolute.upper_angle]);
        }
        world.impulse_joints.insert(a, b, builder, true);
        Ok(())
    }

    fn destroy_group(&mut self, group: &BodyGroup) -> Result<(), String> {
        for i in group.bodies.clone() {
            if let Some(handle) = self.bodies[i].take() {
                // With its colliders and joints.
                self.world.remove_body(handle);
            }
        }
        Ok(())
    }
}

/// Category and mask bits become rapier's memberships and filter (its groups are 32 bits; the
/// scenes use the low ones). Shapes of a negative group never collide with each other: rapier
/// has no groups of that kind, so the scenes' one negative group becomes a membership bit its
/// members filter out.
fn collider(desc: &ShapeDesc) -> Result<ColliderBuilder, String> {
    let shape = match desc.shape {
        Shape::Circle(c) => ColliderBuilder::ball(c.radius).translation(v(c.center)),
        Shape::Capsule(c) => {
            ColliderBuilder::new(SharedShape::capsule(v(c.center1), v(c.center2), c.radius))
        }
        // No benchmark scene has chains; refused rather than built two-sided.
        Shape::ChainSegment(_) => return Err("chain segments are not mapped".into()),
        Shape::Segment(s) => ColliderBuilder::segment(v(s.point1), v(s.point2)),
        // Boxes centred on the body become rapier cuboids, its fast and stable special case.
        Shape::Polygon(p) if p.radius() == 0.0 && centred_box(p.vertices()).is_some() => {
            let half = centred_box(p.vertices()).unwrap_or_default();
            ColliderBuilder::cuboid(half.x, half.y)
        }
        Shape::Polygon(p) => {
            let points: Vec<Vector> = p.vertices().iter().map(|p| v(*p)).collect();
            let shape = if p.radius() > 0.0 {
                SharedShape::round_convex_polyline(points, p.radius())
            } else {
                SharedShape::convex_polyline(points)
            };
            ColliderBuilder::new(shape.ok_or("rapier2d rejected a polygon")?)
        }
    };
    // Box2D's (and physics_core's) mixing: geometric mean friction, larger restitution.
    let mut builder = shape
        .density(desc.density)
        .friction(desc.friction)
        .restitution(desc.restitution)
        .friction_combine_rule(CoefficientCombineRule::GeometricMean)
        .restitution_combine_rule(CoefficientCombineRule::Max);
    let default = physics_core::filter::Filter::default();
    let (category, mask) = (desc.filter.category_bits, desc.filter.mask_bits);
    let default_bits = category == default.category_bits && mask == default.mask_bits;
    let low = |bits: u64| Group::from_bits_truncate(bits as u32);
    let groups = match desc.filter.group_index {
        0 if default_bits => None,
        0 if category >> 31 == 0 => Some((low(category), low(mask))),
        g if g < 0 && default_bits => Some((Group::GROUP_32, !Group::GROUP_32)),
        _ => return Err("filter not mapped to rapier2d".into()),
    };
    if let Some((memberships, filter)) = groups {
        let groups = InteractionGroups::new(memberships, filter, InteractionTestMode::And);
        builder = builder.collision_groups(groups);
    }
    Ok(builder)
}

/// The half extents of an axis-aligned box centred on the origin, if the vertices are one.
fn centred_box(vertices: &[Vec2]) -> Option<Vec2> {
    let half = vertices.first()?.abs();
    let is_box = vertices.len() == 4
        && half.x > 0.0
        && half.y > 0.0
        && vertices.iter().all(|p| p.abs().abs_diff_eq(half, 1e-6));
    is_box.then_some(half)
}

impl Simulation for Rapier {
    fn step(&mut self) -> Result<(), String> {
        let scene = Arc::clone(&self.scene);
        apply_changes(self, &scene, self.steps)?;
        self.steps += 1;
        self.world.step();
        // rapier puts bodies that went non-finite in quarantine instead of reporting NaN.
        match self.world.quarantine().bodies().len() {
            0 => Ok(()),
            n => Err(format!("rapier2d quarantined {n} non-finite bodies")),
        }
    }

    fn samples(&mut self) -> Vec<BodySample> {
        self.bodies
            .iter()
            .map(|h| {
                let Some(body) = h.and_then(|h| self.world.bodies.get(h)) else {
                    return BodySample::NAN;
                };
                let (p, v) = (body.translation(), body.linvel());
                BodySample {
                    position: Vec2::new(p.x, p.y),
                    angle: body.rotation().angle(),
                    linear_velocity: Vec2::new(v.x, v.y),
                    angular_velocity: body.angvel(),
                }
            })
            .collect()
    }
}
