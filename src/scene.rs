//! Neutral scene descriptions and their construction in a `physics_core` world.

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
}

/// A scene built into a world, with the ids of its bodies in description order.
pub struct BuiltScene {
    /// The world.
    pub world: World,
    /// Body ids, index-aligned with [`Scene::bodies`].
    pub bodies: Vec<BodyId>,
}

impl Scene {
    /// Builds the scene into a new world with `def` (its gravity replaced by the scene's).
    pub fn build(&self, def: WorldDef) -> Result<BuiltScene, WorldError> {
        let mut world = World::new(WorldDef {
            gravity: self.gravity,
            ..def
        })?;
        let mut bodies = Vec::with_capacity(self.bodies.len());
        for desc in &self.bodies {
            let id = world.create_body(&BodyDef {
                body_type: desc.body_type,
                position: desc.position,
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
            bodies.push(id);
        }
        Ok(BuiltScene { world, bodies })
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
