//! Why a shape could not be built.

use std::fmt;

/// A shape description that cannot be turned into a valid shape. Every variant says what is
/// wrong in its `Display` text, so it can be shown to a user as is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ShapeError {
    /// A coordinate, radius or extent is NaN or infinite.
    NonFinite {
        /// Which input was not finite.
        what: &'static str,
    },
    /// A radius is negative (or, for circles and capsules, zero).
    InvalidRadius {
        /// The radius given.
        radius: f32,
    },
    /// A box was given a half extent that is not positive.
    InvalidExtent {
        /// Half width given.
        half_width: f32,
        /// Half height given.
        half_height: f32,
    },
    /// Fewer than three points remained after merging points closer than the weld tolerance.
    TooFewPoints {
        /// How many distinct points there were.
        distinct: usize,
    },
    /// All points lie on one line, so they enclose no area.
    Collinear,
    /// The convex hull has more vertices than a polygon may hold.
    TooManyHullPoints {
        /// Vertices of the hull.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// The points span less than the smallest size the engine resolves.
    TooSmall {
        /// The size of the input (diagonal of its bounding box or length).
        size: f32,
        /// The smallest accepted size.
        min: f32,
    },
    /// The shape reaches further from its body's origin than
    /// [`MAX_SHAPE_EXTENT`](crate::constants::MAX_SHAPE_EXTENT).
    TooLarge {
        /// How far it reaches.
        extent: f32,
        /// The limit.
        max: f32,
    },
    /// A regular polygon was asked for with an unsupported number of sides.
    InvalidSideCount {
        /// Sides asked for.
        sides: usize,
    },
    /// A compound shape description (several shapes as one) has no parts.
    EmptyCompound,
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ShapeError::NonFinite { what } => write!(f, "{what} is NaN or infinite"),
            ShapeError::InvalidRadius { radius } => {
                write!(
                    f,
                    "radius {radius} is invalid: it must be positive and finite"
                )
            }
            ShapeError::InvalidExtent {
                half_width,
                half_height,
            } => write!(
                f,
                "box half extents ({half_width}, {half_height}) must both be positive"
            ),
            ShapeError::TooFewPoints { distinct } => write!(
                f,
                "a polygon needs at least 3 distinct points, got {distinct} after merging near-duplicates"
            ),
            ShapeError::Collinear => {
                write!(f, "the polygon's points are collinear and enclose no area")
            }
            ShapeError::TooManyHullPoints { count, max } => write!(
                f,
                "the convex hull has {count} vertices; a polygon holds at most {max} (split it into several shapes)"
            ),
            ShapeError::TooSmall { size, min } => write!(
                f,
                "the shape spans {size}, below the smallest resolvable size {min}"
            ),
            ShapeError::TooLarge { extent, max } => write!(
                f,
                "the shape reaches {extent:e} from its body's origin, beyond the limit of {max:e}"
            ),
            ShapeError::InvalidSideCount { sides } => {
                write!(f, "a regular polygon needs 3 to 8 sides, got {sides}")
            }
            ShapeError::EmptyCompound => write!(f, "a compound needs at least one part"),
        }
    }
}

impl std::error::Error for ShapeError {}
