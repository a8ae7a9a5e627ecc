//! Contact recycling: reusing a manifold while two shapes barely move relative to each other.
//!
//! The idea is Box2D v3's (Erin Catto), itself a looser form of the persistent manifolds of
//! PhysX: in a resting pile the pose of one shape seen from the other hardly changes from step
//! to step, so the manifold found by SAT and clipping is still right up to the motion since it
//! was computed. While that relative motion stays under a small distance, the contact keeps
//! its points and only moves them with the bodies:
//!
//! - the normal and A's anchors turn with A, B's anchors turn with B (dq = q_now q_then^-1);
//! - each separation becomes s_then + n . ((pB + rB) - (pA + rA)): both anchors named the same
//!   world point when the manifold was computed, so the bracket is how far the two material
//!   points have drifted apart along the normal since.
//!
//! The relative motion is measured as the distance B's origin moved in A's frame plus B's
//! reach times the sine of the relative turn, an upper bound on how far any point of B moved in
//! A's frame. A large turn of the pair as a whole (cos < `RECYCLE_MIN_COS`) also recomputes, so
//! the carried normal never strays far. Only touching contacts are recycled: a pair still apart
//! is recomputed every step so a speculative point appears as soon as it should.

use crate::collision::{Manifold, ManifoldPoint};
use crate::math::{Rot, Transform};
use bevy_math::Vec2;
use serde::{Deserialize, Serialize};

/// Cosine of the largest turn of either body since the manifold was computed (about 11
/// degrees) for which it is still reused.
const RECYCLE_MIN_COS: f32 = 0.98;

/// What a contact keeps from its last full manifold computation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "SavedCache", try_from = "SavedCache")]
pub(crate) struct RecycleCache {
    /// Body rotations when the manifold was computed.
    rotation_a: Rot,
    rotation_b: Rot,
    /// Pose of B's origin in A's frame then.
    relative: Transform,
    /// The manifold as computed, normal and anchors in world orientation then. Only what
    /// recycling reads is kept: normal, anchors, separations and feature ids (points and
    /// impulses are zero, since a recycled manifold takes them from the bodies and from the
    /// manifold in use).
    manifold: Manifold,
}

impl RecycleCache {
    /// Whether the cache could have been made by [`RecycleCache::new`] from a valid manifold:
    /// unit rotations, a finite pose, and a sound manifold ([`Manifold::is_sound`](crate::collision::Manifold::is_sound)).
    pub fn is_sound(&self) -> bool {
        self.rotation_a.is_valid()
            && self.rotation_b.is_valid()
            && self.relative.is_valid()
            && self.manifold.is_sound()
    }

    /// Remembers a freshly computed manifold and the poses it was computed at.
    pub fn new(manifold: &Manifold, xf_a: Transform, xf_b: Transform) -> Self {
        let mut kept = *manifold;
        for p in kept.points_mut() {
            *p = ManifoldPoint {
                anchor_a: p.anchor_a,
                anchor_b: p.anchor_b,
                separation: p.separation,
                id: p.id,
                ..Default::default()
            };
        }
        RecycleCache {
            rotation_a: xf_a.q,
            rotation_b: xf_b.q,
            relative: xf_a.inv_mul(xf_b),
            manifold: kept,
        }
    }

    /// Carries the cached manifold to the bodies' current poses in place: `current` (the
    /// manifold in use, computed or recycled from this cache, so it has the cache's points)
    /// takes the carried geometry and keeps its impulses. Returns false, leaving `current`
    /// alone, when the shapes moved relative to each other by `tolerance` or more (`reach`:
    /// the farthest point of either shape from its body origin), or either body turned too
    /// far.
    pub fn recycle(
        &self,
        current: &mut Manifold,
        xf_a: Transform,
        xf_b: Transform,
        reach: f32,
        tolerance: f32,
    ) -> bool {
        let turn_a = self.rotation_a.inv_mul(xf_a.q);
        let turn_b = self.rotation_b.inv_mul(xf_b.q);
        if turn_a.c.min(turn_b.c) <= RECYCLE_MIN_COS {
            return false;
        }
        let relative = xf_a.inv_mul(xf_b);
        let relative_turn = self.relative.q.inv_mul(relative.q);
        let motion = relative.p.distance(self.relative.p) + reach * relative_turn.s.abs();
        // NaN motion (a body with a broken pose) never recycles.
        if motion.is_nan() || motion >= tolerance {
            return false;
        }
        self.carry_into(current, xf_a, xf_b, turn_a, turn_b);
        true
    }

    /// The cached manifold moved with the bodies to poses `xf_a` and `xf_b`, whatever the
    /// motion, with zero impulses: the geometry of [`RecycleCache::recycle`]'s result, so a
    /// snapshot can rebuild a recycled manifold from its cache and the poses it was recycled
    /// at.
    pub fn carried(&self, xf_a: Transform, xf_b: Transform) -> Manifold {
        let turn_a = self.rotation_a.inv_mul(xf_a.q);
        let turn_b = self.rotation_b.inv_mul(xf_b.q);
        let mut m = self.manifold;
        self.carry_into(&mut m, xf_a, xf_b, turn_a, turn_b);
        m
    }

    /// Writes the cached geometry carried to `xf_a` and `xf_b` (the bodies having turned by
    /// `turn_a` and `turn_b` since) into `m`, leaving its impulses: the normal and A's
    /// anchors turn with A, B's anchors with B, and each separation grows by how far the two
    /// anchored points drifted apart along the normal.
    #[inline]
    fn carry_into(
        &self,
        m: &mut Manifold,
        xf_a: Transform,
        xf_b: Transform,
        turn_a: Rot,
        turn_b: Rot,
    ) {
        let kept = &self.manifold;
        let normal = turn_a.rotate(kept.normal);
        m.normal = normal;
        m.point_count = kept.point_count;
        for (p, k) in m.points_mut().iter_mut().zip(kept.points()) {
            let anchor_a = turn_a.rotate(k.anchor_a);
            let anchor_b = turn_b.rotate(k.anchor_b);
            let (on_a, on_b) = (xf_a.p + anchor_a, xf_b.p + anchor_b);
            p.separation = k.separation + (on_b - on_a).dot(normal);
            p.anchor_a = anchor_a;
            p.anchor_b = anchor_b;
            p.point = 0.5 * (on_a + on_b);
            p.id = k.id;
            p.persisted = true;
        }
    }
}

/// A [`RecycleCache`] as serialised: the poses, the normal, and per point what recycling reads
/// (anchor on A, anchor on B, separation, feature id).
#[derive(Serialize, Deserialize)]
struct SavedCache {
    rotation_a: Rot,
    rotation_b: Rot,
    relative: Transform,
    normal: Vec2,
    points: Vec<(Vec2, Vec2, f32, u16)>,
}

impl From<RecycleCache> for SavedCache {
    fn from(cache: RecycleCache) -> Self {
        let m = &cache.manifold;
        SavedCache {
            rotation_a: cache.rotation_a,
            rotation_b: cache.rotation_b,
            relative: cache.relative,
            normal: m.normal,
            points: m
                .points()
                .iter()
                .map(|p| (p.anchor_a, p.anchor_b, p.separation, p.id))
                .collect(),
        }
    }
}

impl TryFrom<SavedCache> for RecycleCache {
    type Error = &'static str;

    fn try_from(saved: SavedCache) -> Result<Self, Self::Error> {
        let mut manifold = Manifold {
            normal: saved.normal,
            ..Default::default()
        };
        let slots = manifold
            .points
            .get_mut(..saved.points.len())
            .ok_or("a cached manifold has at most two points")?;
        for (p, &(anchor_a, anchor_b, separation, id)) in slots.iter_mut().zip(&saved.points) {
            (p.anchor_a, p.anchor_b, p.separation, p.id) = (anchor_a, anchor_b, separation, id);
        }
        manifold.point_count = saved.points.len();
        Ok(RecycleCache {
            rotation_a: saved.rotation_a,
            rotation_b: saved.rotation_b,
            relative: saved.relative,
            manifold,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::{CollideSettings, collide};
    use crate::shape::{Polygon, Shape};

    /// A box resting on a wider box, touching along a face: a two-point manifold.
    fn resting_pair() -> (Shape, Transform, Shape, Transform) {
        let ground = Shape::Polygon(Polygon::new_box(2.0, 0.5).unwrap());
        let boxed = Shape::Polygon(Polygon::new_box(0.5, 0.5).unwrap());
        let xf_a = Transform::new(Vec2::new(0.0, 0.0), Rot::IDENTITY);
        let xf_b = Transform::new(Vec2::new(0.3, 0.995), Rot::from_angle(0.01));
        (ground, xf_a, boxed, xf_b)
    }

    /// Recycling in place writes the carried geometry over the manifold in use and keeps its
    /// impulses; a move past the tolerance leaves the manifold untouched.
    #[test]
    fn recycling_in_place_carries_geometry_and_keeps_impulses() {
        let (a, xf_a, b, xf_b) = resting_pair();
        let mut current = collide(&a, xf_a, &b, xf_b, &CollideSettings::default());
        assert_eq!(current.point_count, 2);
        let cache = RecycleCache::new(&current, xf_a, xf_b);
        for (i, p) in current.points_mut().iter_mut().enumerate() {
            p.normal_impulse = 1.5 + i as f32;
            p.tangent_impulse = -0.25 * (i as f32 + 1.0);
        }
        let impulses: Vec<(f32, f32)> = current
            .points()
            .iter()
            .map(|p| (p.normal_impulse, p.tangent_impulse))
            .collect();

        // 1 mm across and a milliradian of turn: well inside the 5 cm tolerance.
        let moved_b = Transform::new(xf_b.p + Vec2::new(0.001, -0.0005), Rot::from_angle(0.011));
        assert!(cache.recycle(&mut current, xf_a, moved_b, 0.75, 0.05));
        let expected = cache.carried(xf_a, moved_b);
        assert_eq!(current.normal, expected.normal);
        assert_eq!(current.point_count, expected.point_count);
        for ((p, e), (normal, tangent)) in current
            .points()
            .iter()
            .zip(expected.points())
            .zip(&impulses)
        {
            assert_eq!(
                (p.point, p.anchor_a, p.anchor_b),
                (e.point, e.anchor_a, e.anchor_b)
            );
            assert_eq!(
                (p.separation, p.id, p.persisted),
                (e.separation, e.id, true)
            );
            assert_eq!((p.normal_impulse, p.tangent_impulse), (*normal, *tangent));
        }
        // The box sank by 0.5 mm along the normal (up): each separation fell by about that.
        let fresh = collide(&a, xf_a, &b, moved_b, &CollideSettings::default());
        for (p, f) in current.points().iter().zip(fresh.points()) {
            assert!(
                (p.separation - f.separation).abs() < 1e-4,
                "{} vs {}",
                p.separation,
                f.separation
            );
        }

        // 6 cm away: recomputed, not recycled, and the manifold is left as it was.
        let before = current;
        let far_b = Transform::new(xf_b.p + Vec2::new(0.06, 0.0), xf_b.q);
        assert!(!cache.recycle(&mut current, xf_a, far_b, 0.75, 0.05));
        assert_eq!(current, before);
    }
}
