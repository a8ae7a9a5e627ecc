//! Neutral scene descriptions and their construction in a `physics_core` world.

use crate::timeline::{ABSENT_BODY, ABSENT_JOINT, BodyGroup, TimedChange};
use physics_core::prelude::*;

/// A shape with its material, in its body's frame.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeDesc {
    /// Geometry.
    pub shape: Shape,
    /// Density (kg/m^2).
    pub density: f32,
    /// Friction coefficient.
    pub friction: f32,
    /// Restitution.
    pub restitution: f32,
    /// Collision filter.
    pub filter: Filter,
}

impl ShapeDesc {
    /// A shape with the benchmark defaults: density 1, friction 0.6, restitution 0.
    pub fn new(shape: impl Into<Shape>) -> Self {
        ShapeDesc {
            shape: shape.into(),
            density: 1.0,
            friction: 0.6,
            restitution: 0.0,
            filter: Filter::default(),
        }
    }

    /// With another density.
    pub fn density(mut self, density: f32) -> Self {
        self.density = density;
        self
    }

    /// With another friction.
    pub fn friction(mut self, friction: f32) -> Self {
        self.friction = friction;
        self
    }

    /// With another restitution.
    pub fn restitution(mut self, restitution: f32) -> Self {
        self.restitution = restitution;
        self
    }

    /// In a collision group (shapes of the same negative group never collide).
    pub fn group(mut self, group_index: i32) -> Self {
        self.filter.group_index = group_index;
        self
    }

    /// In collision categories `category_bits`, colliding with shapes in `mask_bits`.
    pub fn categories(mut self, category_bits: u64, mask_bits: u64) -> Self {
        self.filter.category_bits = category_bits;
        self.filter.mask_bits = mask_bits;
        self
    }
}

/// A body and its shapes.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyDesc {
    /// Static, kinematic or dynamic.
    pub body_type: BodyType,
    /// Position of the body origin.
    pub position: Vec2,
    /// Rotation in radians.
    pub angle: f32,
    /// Initial velocity.
    pub linear_velocity: Vec2,
    /// Initial angular velocity.
    pub angular_velocity: f32,
    /// Attached shapes.
    pub shapes: Vec<ShapeDesc>,
}

impl BodyDesc {
    fn new(body_type: BodyType, position: Vec2, shape: ShapeDesc) -> Self {
        BodyDesc {
            body_type,
            position,
            angle: 0.0,
            linear_velocity: Vec2::ZERO,
            angular_velocity: 0.0,
            shapes: vec![shape],
        }
    }

    /// A dynamic body with one shape.
    pub fn dynamic(position: Vec2, shape: ShapeDesc) -> Self {
        Self::new(BodyType::Dynamic, position, shape)
    }

    /// A static body with one shape.
    pub fn fixed(position: Vec2, shape: ShapeDesc) -> Self {
        Self::new(BodyType::Static, position, shape)
    }

    /// A kinematic body with one shape.
    pub fn kinematic(position: Vec2, shape: ShapeDesc) -> Self {
        Self::new(BodyType::Kinematic, position, shape)
    }

    /// Rotated by `angle` radians.
    pub fn angle(mut self, angle: f32) -> Self {
        self.angle = angle;
        self
    }

    /// With an initial velocity.
    pub fn velocity(mut self, velocity: Vec2) -> Self {
        self.linear_velocity = velocity;
        self
    }

    /// With an initial angular velocity.
    pub fn spin(mut self, angular_velocity: f32) -> Self {
        self.angular_velocity = angular_velocity;
        self
    }

    /// With one more shape.
    pub fn with_shape(mut self, shape: ShapeDesc) -> Self {
        self.shapes.push(shape);
        self
    }
}

/// A joint between two bodies of a scene, by their index in [`Scene::bodies`], anchored at
/// world points (as the scene is built).
#[derive(Clone, Debug, PartialEq)]
pub struct JointDesc {
    /// Index of body A.
    pub body_a: usize,
    /// Index of body B.
    pub body_b: usize,
    /// World anchor on A.
    pub anchor_a: Vec2,
    /// World anchor on B (the same point for pins and welds).
    pub anchor_b: Vec2,
    /// Type and parameters.
    pub kind: JointKind,
    /// Whether the joined bodies still collide.
    pub collide_connected: bool,
}

impl JointDesc {
    /// A joint anchored at one world point on both bodies.
    pub fn at(body_a: usize, body_b: usize, anchor: Vec2, kind: JointKind) -> Self {
        JointDesc {
            body_a,
            body_b,
            anchor_a: anchor,
            anchor_b: anchor,
            kind,
            collide_connected: false,
        }
    }

    /// A joint with a separate world anchor on each body (distance joints, pulleys).
    pub fn between(
        body_a: usize,
        body_b: usize,
        anchor_a: Vec2,
        anchor_b: Vec2,
        kind: JointKind,
    ) -> Self {
        JointDesc {
            anchor_b,
            ..Self::at(body_a, body_b, anchor_a, kind)
        }
    }
}

/// A named world to simulate.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// The scene's snake_case name.
    pub name: &'static str,
    /// Gravity.
    pub gravity: Vec2,
    /// Time step.
    pub dt: f32,
    /// How many steps the scene is meant to run (the benchmark count where there is one).
    pub steps: usize,
    /// Bodies, in creation order.
    pub bodies: Vec<BodyDesc>,
    /// Joints between the bodies.
    pub joints: Vec<JointDesc>,
    /// Bodies (with their joints) that are not built with the scene but come and go on the
    /// [`Scene::timeline`]; empty for most scenes.
    pub groups: Vec<BodyGroup>,
    /// When the [`Scene::groups`] are created and destroyed, sorted by step.
    pub timeline: Vec<TimedChange>,
}

/// A scene built into a world, with the ids of its bodies and joints in description order.
pub struct BuiltScene {
    /// The world.
    pub world: World,
    /// Body ids, index-aligned with [`Scene::bodies`]; [`ABSENT_BODY`] for a body of a group
    /// that does not exist now.
    pub bodies: Vec<BodyId>,
    /// Joint ids, index-aligned with [`Scene::joints`]; [`ABSENT_JOINT`] for a joint of a
    /// group that does not exist now.
    pub joints: Vec<JointId>,
}

impl Scene {
    /// Builds the scene into a new world with `def` (its gravity replaced by the scene's).
    pub fn build(&self, def: WorldDef) -> Result<BuiltScene, WorldError> {
        let mut world = World::new(WorldDef {
            gravity: self.gravity,
            ..def
        })?;
        let mut bodies = Vec::with_capacity(self.bodies.len());
        for (i, at_start) in self.bodies_present_after(0).into_iter().enumerate() {
            bodies.push(if at_start {
                self.create_body(&mut world, i)?
            } else {
                ABSENT_BODY
            });
        }
        let mut joints = Vec::with_capacity(self.joints.len());
        for (j, at_start) in self.joints_present_after(0).into_iter().enumerate() {
            joints.push(if at_start {
                self.create_joint(&mut world, &bodies, j)?
            } else {
                ABSENT_JOINT
            });
        }
        Ok(BuiltScene {
            world,
            bodies,
            joints,
        })
    }

    /// Creates the body at `index` of [`Scene::bodies`] in `world`, with its shapes.
    pub(crate) fn create_body(
        &self,
        world: &mut World,
        index: usize,
    ) -> Result<BodyId, WorldError> {
        let desc = &self.bodies[index];
        let id = world.create_body(&BodyDef {
            body_type: desc.body_type,
            position: physics_core::position::to_position(desc.position),
            rotation: Rot::from_angle(desc.angle),
            linear_velocity: desc.linear_velocity,
            angular_velocity: desc.angular_velocity,
            ..Default::default()
        })?;
        for s in &desc.shapes {
            let def = ShapeDef {
                density: s.density,
                friction: s.friction,
                restitution: s.restitution,
                filter: s.filter,
                ..Default::default()
            };
            world.create_shape(id, &def, s.shape)?;
        }
        Ok(id)
    }

    /// Creates the joint at `index` of [`Scene::joints`] in `world` between `bodies` (ids
    /// index-aligned with [`Scene::bodies`]), its anchors placed as the bodies stand now.
    pub(crate) fn create_joint(
        &self,
        world: &mut World,
        bodies: &[BodyId],
        index: usize,
    ) -> Result<JointId, WorldError> {
        let j = &self.joints[index];
        let (a, b) = (bodies[j.body_a], bodies[j.body_b]);
        let to_world = physics_core::position::to_position;
        let local_a = world.body_transform(a)?.apply_inverse(to_world(j.anchor_a));
        let local_b = world.body_transform(b)?.apply_inverse(to_world(j.anchor_b));
        let mut def = JointDef::new(a, b, local_a, local_b, j.kind);
        def.collide_connected = j.collide_connected;
        world.create_joint(&def)
    }

    /// The smallest box holding every body origin (a long ground counts as its centre only),
    /// as (min, max).
    pub fn origin_bounds(&self) -> (Vec2, Vec2) {
        self.bodies.iter().fold(
            (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
            |(min, max), b| (min.min(b.position), max.max(b.position)),
        )
    }

    /// The smallest box holding every body origin and every static shape, as (min, max): the
    /// region the scene's bodies are meant to stay in (a bowl of segments counts whole).
    pub fn world_bounds(&self) -> (Vec2, Vec2) {
        let statics = self
            .bodies
            .iter()
            .filter(|b| b.body_type == BodyType::Static)
            .flat_map(|b| {
                let xf = Transform::from_angle(b.position, b.angle);
                b.shapes.iter().map(move |s| s.shape.compute_aabb(xf))
            });
        statics.fold(self.origin_bounds(), |(min, max), aabb| {
            (min.min(aabb.min), max.max(aabb.max))
        })
    }

    /// Number of dynamic bodies.
    pub fn dynamic_count(&self) -> usize {
        self.bodies
            .iter()
            .filter(|b| b.body_type == BodyType::Dynamic)
            .count()
    }
}

/// A box shape description with half extents.
pub(crate) fn boxed(hx: f32, hy: f32) -> ShapeDesc {
    ShapeDesc::new(Polygon::new_box(hx, hy).expect("scene boxes have positive extents"))
}

/// A circle shape description.
pub(crate) fn ball(radius: f32) -> ShapeDesc {
    ShapeDesc::new(Circle::new(Vec2::ZERO, radius).expect("scene radii are positive"))
}
