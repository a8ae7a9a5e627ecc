//! Persistent contacts between two shapes whose enlarged boxes overlap.
//!
//! A contact is created when the broadphase first reports the pair and destroyed when their
//! enlarged boxes stop overlapping. Each step its manifold is recomputed; points whose feature
//! id matches a point of the previous manifold inherit its impulses (warm starting), which is
//! what lets stacks settle within a few steps and stay still.

use crate::collision::{CollideSettings, Manifold, collide};
use crate::math::Transform;
use crate::shape::Shape;
use serde::{Deserialize, Serialize};

/// The world's record of a contact.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Contact {
    /// Shape slot indices, lower first.
    pub shape_a: u32,
    pub shape_b: u32,
    /// Body slot indices of the two shapes.
    pub body_a: u32,
    pub body_b: u32,
    pub manifold: Manifold,
    /// Mixed coefficients.
    pub friction: f32,
    pub restitution: f32,
    /// True while the manifold has points.
    pub touching: bool,
    /// Either shape is a sensor: overlap is tracked, nothing is solved.
    pub sensor: bool,
}

impl Contact {
    /// Recomputes the manifold, carrying impulses over by feature id. Returns whether the
    /// contact touched before and touches now.
    pub fn update(
        &mut self,
        shape_a: &Shape,
        xf_a: Transform,
        shape_b: &Shape,
        xf_b: Transform,
        settings: &CollideSettings,
    ) -> (bool, bool) {
        let was_touching = self.touching;
        let old = self.manifold;
        let mut manifold = collide(shape_a, xf_a, shape_b, xf_b, settings);
        for point in manifold.points_mut() {
            if let Some(prev) = old.points().iter().find(|p| p.id == point.id) {
                point.normal_impulse = prev.normal_impulse;
                point.tangent_impulse = prev.tangent_impulse;
                point.persisted = true;
            }
        }
        self.manifold = manifold;
        self.touching = manifold.point_count > 0;
        (was_touching, self.touching)
    }
}

/// Key of an unordered shape pair for the contact map.
pub(crate) fn pair_key(shape_a: u32, shape_b: u32) -> u64 {
    let (lo, hi) = (shape_a.min(shape_b), shape_a.max(shape_b));
    ((lo as u64) << 32) | hi as u64
}
