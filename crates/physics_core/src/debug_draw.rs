//! Debug drawing: the world describes itself through the [`DebugDraw`] trait so any renderer
//! (Bevy gizmos in the plugin, a test recorder, a text dump) draws the same picture.
//!
//! [`World::debug_draw`](crate::world::World::debug_draw) walks shapes, bounds, contacts,
//! joints and centres of mass, filtered by [`DebugDrawOptions`], and hands each element to the
//! renderer with a [`DebugColor`] that says what it is rather than which colour it has.

use crate::body::BodyType;
use crate::math::Transform;
use crate::shape::Aabb;
use bevy_math::Vec2;

/// What a drawn element is; the renderer picks the colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DebugColor {
    /// A shape of a static body.
    Static,
    /// A shape of a kinematic body.
    Kinematic,
    /// A shape of an awake dynamic body.
    Dynamic,
    /// A shape of a sleeping body.
    Sleeping,
    /// A sensor shape.
    Sensor,
    /// An enlarged bounding box in the broadphase.
    Aabb,
    /// A contact point that carried an impulse this step.
    ContactPoint,
    /// A speculative contact point (not touching).
    SpeculativePoint,
    /// A contact normal.
    ContactNormal,
    /// A normal impulse, drawn along the normal with a length proportional to it.
    ContactImpulse,
    /// A joint's anchors and the line between them.
    Joint,
    /// A joint's axis (prismatic, wheel) or limit marks.
    JointAxis,
    /// A centre of mass.
    CenterOfMass,
}

impl DebugColor {
    /// The colour kind of a shape of a body of this type and sleep state.
    pub fn for_body(body_type: BodyType, awake: bool, sensor: bool) -> DebugColor {
        if sensor {
            return DebugColor::Sensor;
        }
        match body_type {
            BodyType::Static => DebugColor::Static,
            BodyType::Kinematic if awake => DebugColor::Kinematic,
            BodyType::Dynamic if awake => DebugColor::Dynamic,
            _ => DebugColor::Sleeping,
        }
    }
}

/// Which parts of the world are drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DebugDrawOptions {
    /// Shape outlines, coloured by body type and sleep state.
    pub shapes: bool,
    /// The broadphase's enlarged boxes.
    pub aabbs: bool,
    /// Contact points and normals.
    pub contacts: bool,
    /// Normal impulses as lines along the normal.
    pub contact_impulses: bool,
    /// Joint anchors, axes and limits.
    pub joints: bool,
    /// Centres of mass of moving bodies, with their axes.
    pub centers_of_mass: bool,
    /// Length drawn per newton-second of normal impulse.
    pub impulse_scale: f32,
    /// Length of drawn normals and axes, in world units.
    pub axis_length: f32,
    /// The world point drawn at (0, 0): every point handed to the renderer is relative to
    /// it. A renderer whose scene floats with the camera (a floating origin, far from the
    /// world's) passes its origin here and gets float points near it.
    pub origin: crate::position::Position,
}

impl Default for DebugDrawOptions {
    fn default() -> Self {
        DebugDrawOptions {
            shapes: true,
            aabbs: false,
            contacts: false,
            contact_impulses: false,
            joints: true,
            centers_of_mass: false,
            impulse_scale: 0.1,
            axis_length: 0.3,
            origin: crate::position::Position::ZERO,
        }
    }
}

/// A renderer for [`World::debug_draw`](crate::world::World::debug_draw). Points are in world
/// coordinates relative to [`DebugDrawOptions::origin`].
pub trait DebugDraw {
    /// A closed convex polygon (counter-clockwise), rounded by `radius` when it is not zero.
    fn polygon(&mut self, vertices: &[Vec2], radius: f32, color: DebugColor);
    /// A circle, with a line from the centre along `axis` so rotation is visible.
    fn circle(&mut self, center: Vec2, radius: f32, axis: Vec2, color: DebugColor);
    /// A capsule: the segment p1-p2 swept by a disk of `radius`.
    fn capsule(&mut self, p1: Vec2, p2: Vec2, radius: f32, color: DebugColor);
    /// A line segment.
    fn segment(&mut self, p1: Vec2, p2: Vec2, color: DebugColor);
    /// A point marker of `size` world units.
    fn point(&mut self, p: Vec2, size: f32, color: DebugColor);
    /// The primitives drawn next, up to the next call, outline the shape `shape`; a drawer
    /// that colours shapes of its own choosing (per entity, say) reads it. Returns false to
    /// skip the shape. Does nothing by default.
    fn begin_shape(&mut self, shape: crate::id::ShapeId) -> bool {
        let _ = shape;
        true
    }
    /// A box.
    fn aabb(&mut self, aabb: Aabb, color: DebugColor) {
        let (lo, hi) = (aabb.min, aabb.max);
        let corners = [lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)];
        for i in 0..4 {
            self.segment(corners[i], corners[(i + 1) % 4], color);
        }
    }
    /// A frame: both local axes of `xf` drawn with `length`.
    fn transform(&mut self, xf: Transform, length: f32, color: DebugColor) {
        self.segment(xf.p, xf.p + length * xf.q.rotate(Vec2::X), color);
        self.segment(xf.p, xf.p + length * xf.q.rotate(Vec2::Y), color);
    }
}
