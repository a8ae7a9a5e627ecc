//! # physics_core
//!
//! A 2D rigid-body physics engine in the spirit of Box2D v3, with no dependency on an ECS.
//!
//! Geometry lives in [`shape`] (circles, capsules, segments, convex polygons with optional
//! rounding; mass, bounds, containment, ray casts) and [`collision`] (GJK distance with a
//! warm-startable simplex cache, EPA penetration, SAT with reference/incident clipping, and a
//! contact manifold for every pair of shapes, speculative points included).
//!
//! A step of the world runs four stages: `update_pairs` (broadphase: moved proxies query the
//! dynamic AABB trees and new pairs become contacts), `collide` (narrowphase: one manifold
//! function per shape pair, feature ids carried over for warm starting), `solve` (the soft
//! step: per substep integrate velocities, warm start, solve with soft bias, integrate
//! positions, relax without bias; then restitution and impulse storage) and `finalize`
//! (transforms, bounds, events).
//!
//! Comments cite their sources by author (Bittle, cedarcantab, Szauer, the ODE notes, Yu) and
//! by engine (Box2D v3, Solver2D); `docs/references.md` in the repository says where each is
//! published.
//!
//! ```
//! use physics_core::prelude::*;
//!
//! let ground = Shape::Polygon(Polygon::new_box(5.0, 0.5).unwrap());
//! let ball = Shape::Circle(Circle::new(Vec2::ZERO, 0.5).unwrap());
//! // The ball rests 0.01 above the ground: a speculative contact with one point.
//! let manifold = collide(
//!     &ground,
//!     Transform::IDENTITY,
//!     &ball,
//!     Transform::new(Vec2::new(0.0, 1.01), Rot::IDENTITY),
//!     &CollideSettings::default(),
//! );
//! assert_eq!(manifold.point_count, 1);
//! assert!((manifold.points[0].separation - 0.01).abs() < 1e-5);
//! assert!((manifold.normal - Vec2::Y).length() < 1e-6);
//! ```

pub mod body;
pub mod broadphase;
pub mod collision;
pub mod constants;
mod contact;
mod contact_recycle;
pub mod debug_draw;
pub mod error;
pub mod filter;
mod free_slots;
pub mod id;
pub mod joint;
pub mod math;
pub mod mix_rule;
mod pair_hash;
pub mod parallel;
pub mod position;
mod prefetch;
pub mod shape;
pub mod shape_def;
pub mod solver;
pub mod world;

pub use bevy_math::Vec2;

/// The types most programs need.
pub mod prelude {
    pub use crate::Vec2;
    pub use crate::body::{BodyDef, BodyType};
    pub use crate::collision::{CollideSettings, Manifold, ManifoldPoint, collide};
    pub use crate::filter::Filter;
    pub use crate::id::{BodyId, JointId, ShapeId};
    pub use crate::joint::{
        AngleJoint, DistanceJoint, JointDef, JointKind, MotorJoint, MouseJoint, PrismaticJoint,
        PulleyJoint, RevoluteJoint, WeldJoint, WheelJoint,
    };
    pub use crate::math::{Rot, Transform};
    pub use crate::position::{Position, WorldTransform};
    pub use crate::shape::{Aabb, Capsule, Circle, MassData, Polygon, Segment, Shape, ShapeError};
    pub use crate::shape_def::ShapeDef;
    pub use crate::world::{
        BodyMotion, ContactData, ContactEvent, ContactLanes, HitEvent, MixRule, QueryFilter,
        Recording, SensorEvent, ShapeCastHit, World, WorldDef, WorldError, WorldSnapshot,
    };
}
