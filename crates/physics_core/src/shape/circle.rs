//! A solid disk.

use super::ShapeError;
use crate::math::is_finite_vec;
use bevy_math::Vec2;
use serde::{Deserialize, Serialize};

/// A solid disk in its body's local frame.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Circle {
    /// Centre in body-local coordinates.
    pub center: Vec2,
    /// Radius, positive.
    pub radius: f32,
}

impl Circle {
    /// A validated circle: the centre must be finite and the radius positive and finite.
    pub fn new(center: Vec2, radius: f32) -> Result<Self, ShapeError> {
        let circle = Circle { center, radius };
        circle.validate()?;
        Ok(circle)
    }

    /// Checks the fields (they are public, so a circle can be built without `new`).
    pub fn validate(&self) -> Result<(), ShapeError> {
        if !is_finite_vec(self.center) {
            return Err(ShapeError::NonFinite {
                what: "circle centre",
            });
        }
        validate_radius(self.radius)
    }

    /// True when the local point lies inside or on the circle.
    pub fn contains_point(&self, local_point: Vec2) -> bool {
        local_point.distance_squared(self.center) <= self.radius * self.radius
    }
}

/// A positive finite radius, as circles and capsules need.
pub(crate) fn validate_radius(radius: f32) -> Result<(), ShapeError> {
    if !radius.is_finite() {
        return Err(ShapeError::NonFinite { what: "radius" });
    }
    if radius <= 0.0 {
        return Err(ShapeError::InvalidRadius { radius });
    }
    Ok(())
}
