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

    /// The cached manifold carried to the bodies' current poses, with the impulses of
    /// `current` (the manifold in use, computed or recycled from this cache), or `None` when
    /// the shapes moved relative to each other by `tolerance` or more (`reach`: the farthest
    /// point of either shape from its body origin), or either body turned too far.
    pub fn recycle(
        &self,
        current: &Manifold,
        xf_a: Transform,
        xf_b: Transform,
        reach: f32,
        tolerance: f32,
    ) -> Option<Manifold> {
        let turn_a = self.rotation_a.inv_mul(xf_a.q);
        let turn_b = self.rotation_b.inv_mul(xf_b.q);
        if turn_a.c.min(turn_b.c) <= RECYCLE_MIN_COS {
            return None;
        }
        let relative = xf_a.inv_mul(xf_b);
        let relative_turn = self.relative.q.inv_mul(relative.q);
        let motion = relative.p.distance(self.relative.p) + reach * relative_turn.s.abs();
        // NaN motion (a body with a broken pose) never recycles.
        if motion.is_nan() || motion >= tolerance {
            return None;
        }
        let mut m = self.carried(xf_a, xf_b);
        for (p, now) in m.points_mut().iter_mut().zip(current.points()) {
            p.normal_impulse = now.normal_impulse;
            p.tangent_impulse = now.tangent_impulse;
        }
        Some(m)
    }

    /// The cached manifold moved with the bodies to poses `xf_a` and `xf_b`, whatever the
    /// motion, with zero impulses: the geometry of [`RecycleCache::recycle`]'s result, so a
    /// snapshot can rebuild a recycled manifold from its cache and the poses it was recycled
    /// at.
    pub fn carried(&self, xf_a: Transform, xf_b: Transform) -> Manifold {
        let turn_a = self.rotation_a.inv_mul(xf_a.q);
        let turn_b = self.rotation_b.inv_mul(xf_b.q);
        let mut m = self.manifold;
        let normal = turn_a.rotate(m.normal);
        m.normal = normal;
        for p in m.points_mut() {
            let anchor_a = turn_a.rotate(p.anchor_a);
            let anchor_b = turn_b.rotate(p.anchor_b);
            let (on_a, on_b) = (xf_a.p + anchor_a, xf_b.p + anchor_b);
            p.separation += (on_b - on_a).dot(normal);
            p.anchor_a = anchor_a;
            p.anchor_b = anchor_b;
            p.point = 0.5 * (on_a + on_b);
            p.persisted = true;
        }
        m
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
