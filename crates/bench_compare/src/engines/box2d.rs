//! Box2D v3 through `boxdd` (its C source built with the C compiler): one worker, sleeping
//! off, 4 substeps.

use super::scene_groups::{BuildsBodies, apply_changes, build_start};
use super::{BodySample, ContactSample, PointSample, Settings, Simulation};
use bevy_math::Vec2;
use boxdd::prelude::*;
// The prelude brings boxdd's own Result alias; the adapters report errors as text.
use physics_core::body::BodyType as CoreBodyType;
use physics_core::joint::JointKind;
use physics_core::shape::Shape as CoreShape;
use physics2d_demos::{BodyGroup, Scene, ShapeDesc};
use std::result::Result;
use std::sync::Arc;

/// Box2D v3's default contact stiffness (Hz), before its cap.
pub const CONTACT_HERTZ: f32 = 30.0;
/// Box2D v3's contact stiffness cap as a fraction of the substep rate.
pub const CONTACT_HERTZ_PER_SUBSTEP_RATE: f32 = 0.125;
/// Box2D v3's default fastest push out of overlap (m/s).
pub const PUSH_SPEED: f32 = 3.0;

struct Box2d {
    world: World,
    /// The scene, for the groups its timeline creates and destroys.
    scene: Arc<Scene>,
    /// Body ids in scene order; `None` for a group body that does not exist now.
    bodies: Vec<Option<BodyId>>,
    /// Every shape and the scene index of its body, for reading contacts.
    shapes: Vec<(ShapeId, usize)>,
    dt: f32,
    substeps: i32,
    /// Box2D's own stage times (ms) summed over the steps taken: pairs, collide, solve, and
    /// within solve the constraint stages and the body finalize (transforms).
    stages: [f32; 5],
    /// Box2D's solver stages (ms) summed over the steps taken, in `solver_stages` order.
    solver_stages: [f32; 8],
    steps: u32,
}

fn err(e: impl std::fmt::Display) -> String {
    format!("Box2D: {e}")
}

/// The scene in a Box2D v3 world.
pub fn build(scene: &Scene, settings: &Settings) -> Result<Box<dyn Simulation>, String> {
    let foundation = Foundation::initialize_default().map_err(err)?;
    let mut builder = WorldBuilder::from(foundation.world_def());
    if let Some(hertz) = settings.contact_hertz {
        builder = builder.contact_hertz(hertz);
    }
    let def = builder
        .gravity([scene.gravity.x, scene.gravity.y])
        .enable_sleep(false)
        .worker_count(WorkerCount::new(super::threads() as u32).map_err(err)?)
        .build()
        .map_err(err)?;
    let mut world = foundation.create_world(def).map_err(err)?;
    if let Some(distance) = settings.recycle_distance {
        world.set_contact_recycle_distance(distance).map_err(err)?;
    }
    let mut sim = Box2d {
        world,
        scene: Arc::new(scene.clone()),
        bodies: vec![None; scene.bodies.len()],
        shapes: Vec::new(),
        dt: scene.dt,
        substeps: settings.substeps as i32,
        stages: [0.0; 5],
        solver_stages: [0.0; 8],
        steps: 0,
    };
    build_start(&mut sim, scene)?;
    Ok(Box::new(sim))
}

impl BuildsBodies for Box2d {
    fn create_body(&mut self, scene: &Scene, index: usize) -> Result<(), String> {
        let desc = &scene.bodies[index];
        let body_type = match desc.body_type {
            CoreBodyType::Static => BodyType::Static,
            CoreBodyType::Kinematic => BodyType::Kinematic,
            CoreBodyType::Dynamic => BodyType::Dynamic,
        };
        let def = self
            .world
            .body_builder()
            .body_type(body_type)
            .position([desc.position.x, desc.position.y])
            .angle(desc.angle)
            .linear_velocity([desc.linear_velocity.x, desc.linear_velocity.y])
            .angular_velocity(desc.angular_velocity)
            .enable_sleep(false)
            .build()
            .map_err(err)?;
        let id = self.world.create_body(def).map_err(err)?;
        for shape in &desc.shapes {
            self.shapes
                .push((add_shape(&mut self.world, id, shape)?, index));
        }
        self.bodies[index] = Some(id);
        Ok(())
    }

    fn create_joint(&mut self, scene: &Scene, index: usize) -> Result<(), String> {
        let joint = &scene.joints[index];
        let JointKind::Revolute(revolute) = joint.kind else {
            return Err(format!("Box2D adapter: no mapping for {:?}", joint.kind));
        };
        let body = |i: usize| self.bodies[i].ok_or("Box2D adapter: a joint to an absent body");
        let (a, b) = (body(joint.body_a)?, body(joint.body_b)?);
        let point = |p: Vec2| [p.x, p.y];
        let base = self
            .world
            .joint_base_from_world_points(a, b, point(joint.anchor_a), point(joint.anchor_b))
            .map_err(err)?
            .with_collide_connected(joint.collide_connected);
        let def = RevoluteJointDef::new(base)
            .enable_motor(revolute.enable_motor)
            .motor_speed(revolute.motor_speed)
            .max_motor_torque(revolute.max_motor_torque)
            .enable_limit(revolute.enable_limit)
            .lower_angle(revolute.lower_angle)
            .upper_angle(revolute.upper_angle);
        self.world.create_revolute_joint(&def).map_err(err)?;
        Ok(())
    }

    fn destroy_group(&mut self, group: &BodyGroup) -> Result<(), String> {
        for i in group.bodies.clone() {
            if let Some(id) = self.bodies[i].take() {
                self.world.body(id).and_then(|b| b.destroy()).map_err(err)?;
            }
        }
        self.shapes.retain(|(_, b)| !group.bodies.contains(b));
        Ok(())
    }
}

fn add_shape(world: &mut World, body: BodyId, desc: &ShapeDesc) -> Result<ShapeId, String> {
    let material = SurfaceMaterial::default()
        .with_friction(desc.friction)
        .map_err(err)?
        .with_restitution(desc.restitution)
        .map_err(err)?;
    let filter = Filter {
        category_bits: desc.filter.category_bits,
        mask_bits: desc.filter.mask_bits,
        group_index: desc.filter.group_index,
    };
    let def = ShapeDef::builder()
        .density(desc.density)
        .material(material)
        .filter(filter)
        .build()
        .map_err(err)?;
    let v = |p: Vec2| [p.x, p.y];
    let mut body = world.body(body).map_err(err)?;
    match desc.shape {
        CoreShape::Circle(c) => {
            body.create_circle(&def, &shapes::circle(v(c.center), c.radius).map_err(err)?)
        }
        CoreShape::Capsule(c) => body.create_capsule(
            &def,
            &shapes::capsule(v(c.center1), v(c.center2), c.radius).map_err(err)?,
        ),
        CoreShape::Segment(s) => body.create_segment(
            &def,
            &shapes::segment(v(s.point1), v(s.point2)).map_err(err)?,
        ),
        CoreShape::Polygon(p) => {
            let points: Vec<[f32; 2]> = p.vertices().iter().map(|p| v(*p)).collect();
            let polygon = shapes::polygon_from_points(points, p.radius()).map_err(err)?;
            body.create_polygon(&def, &polygon)
        }
        // No benchmark scene has chains; a lone chain segment has no Box2D counterpart.
        CoreShape::ChainSegment(_) => return Err("chain segments are not mapped".into()),
    }
    .map_err(err)
}

impl Simulation for Box2d {
    fn step(&mut self) -> Result<(), String> {
        let scene = Arc::clone(&self.scene);
        apply_changes(self, &scene, self.steps as usize)?;
        // The completed step borrows the world; its events are not needed.
        drop(self.world.step(self.dt, self.substeps).map_err(err)?);
        let p = self.world.profile().map_err(err)?;
        let taken = [p.pairs, p.collide, p.solve, p.constraints, p.transforms];
        for (sum, ms) in self.stages.iter_mut().zip(taken) {
            *sum += ms;
        }
        let solver = [
            p.solver_setup,
            p.prepare_constraints,
            p.integrate_velocities + p.integrate_positions,
            p.warm_start,
            p.solve_impulses,
            p.relax_impulses,
            p.apply_restitution,
            p.store_impulses,
        ];
        for (sum, ms) in self.solver_stages.iter_mut().zip(solver) {
            *sum += ms;
        }
        self.steps += 1;
        Ok(())
    }

    fn stages(&self) -> Option<String> {
        let n = self.steps.max(1) as f32;
        let [pairs, collide, solve, constraints, transforms] = self.stages.map(|s| s / n);
        let solver = super::solver_stages(self.solver_stages.map(|s| s / n));
        Some(format!(
            "pairs {pairs:.3}, collide {collide:.3}, solve {solve:.3} (constraints \
             {constraints:.3}, transforms {transforms:.3}) ms/step\n{solver}"
        ))
    }

    fn samples(&mut self) -> Vec<BodySample> {
        self.bodies
            .iter()
            .map(|id| {
                let Some(Ok(body)) = id.map(|id| self.world.body(id)) else {
                    return BodySample::NAN;
                };
                let read = || -> boxdd::Result<BodySample> {
                    let (p, q) = (body.position()?, body.rotation()?);
                    let (v, w) = (body.linear_velocity()?, body.angular_velocity()?);
                    Ok(BodySample {
                        position: Vec2::new(p.x, p.y),
                        angle: q.sine().atan2(q.cosine()),
                        linear_velocity: Vec2::new(v.x, v.y),
                        angular_velocity: w,
                    })
                };
                read().unwrap_or(BodySample::NAN)
            })
            .collect()
    }

    fn contacts(&mut self) -> Option<Vec<ContactSample>> {
        let body_of = |shapes: &[(ShapeId, usize)], id: ShapeId| {
            shapes.iter().find(|(s, _)| *s == id).map(|(_, b)| *b)
        };
        let mut out: Vec<ContactSample> = Vec::new();
        let mut seen = Vec::new();
        for id in self.bodies.iter().flatten() {
            let Ok(data) = self.world.body(*id).and_then(|b| b.contact_data()) else {
                continue;
            };
            for contact in data {
                let pair = (contact.shape_id_a, contact.shape_id_b);
                let m = &contact.manifold;
                if m.point_count() == 0 || seen.contains(&pair) {
                    continue;
                }
                seen.push(pair);
                let (Some(a), Some(b)) =
                    (body_of(&self.shapes, pair.0), body_of(&self.shapes, pair.1))
                else {
                    continue;
                };
                let v = |p: boxdd::Vec2| Vec2::new(p.x, p.y);
                out.push(
                    ContactSample {
                        body_a: a,
                        body_b: b,
                        normal: v(m.normal),
                        points: m
                            .points()
                            .iter()
                            .map(|p| PointSample {
                                anchor_a: v(p.anchor_a),
                                anchor_b: v(p.anchor_b),
                                separation: p.separation,
                                normal_impulse: p.normal_impulse,
                                tangent_impulse: p.tangent_impulse,
                                id: p.id,
                            })
                            .collect(),
                    }
                    .in_body_order(),
                );
            }
        }
        Some(out)
    }
}
