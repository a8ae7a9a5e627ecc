//! Engine-wide geometric tolerances, in metres at a length unit of 1.
//!
//! The world scales the ones it uses by its length unit (a game measuring in pixels sets one
//! number); shape construction uses them as absolute tolerances for welding and degeneracy.

/// Collision and constraint tolerance: overlaps smaller than this are allowed to rest without
/// correction, which keeps contacts persistent and stacks quiet.
pub const LINEAR_SLOP: f32 = 0.005;

/// Distance below which two polygon points are treated as one (half the slop).
pub const WELD_TOLERANCE: f32 = 0.5 * LINEAR_SLOP;

/// Contacts are created this far before shapes touch, so the solver can stop fast bodies
/// before they pass through each other.
pub const SPECULATIVE_DISTANCE: f32 = 4.0 * LINEAR_SLOP;

/// The most vertices a convex polygon may have.
pub const MAX_POLYGON_VERTICES: usize = 8;

/// The largest mass one shape may have, in kilograms. A body's mass, centre and inertia are
/// sums over its shapes of mass, mass times offset and mass times offset squared; keeping each
/// mass this far below f32's range (3.4e38) keeps those sums finite for any shape a game can
/// place. A moon of rock 1000 km across weighs about 1e21 kg in 2D units; nothing a game
/// simulates comes near.
pub const MAX_SHAPE_MASS: f32 = 1.0e20;

/// How far a shape may reach from its body's origin (vertices plus rounding radius), in
/// world units: 1000 km at a length unit of 1. Products of two such lengths (areas, inertia,
/// squared distances) stay far inside f32's range; a shape reaching 1e19 overflowed them to
/// infinity and then NaN.
pub const MAX_SHAPE_EXTENT: f32 = 1.0e6;

/// How far from the origin a body may be placed, in world units along each axis: a million
/// kilometres at a length unit of 1, far past where an f32 resolves the contact slop (about
/// 100 km) but short of where the products of two coordinates overflow. Contacts between
/// bodies placed at 1e30 solved to NaN impulses; such a place is refused instead.
pub const MAX_WORLD_COORDINATE: f32 = 1.0e9;
