//! Contact recycling: reusing a manifold while two shapes barely move relative to each other.
//!
//! The idea is Box2D v3's (Erin Catto), itself a looser form of the persistent manifolds of
//! PhysX: in a resting pile the pose of one shape seen from the other hardly changes from step
//! to step, so the manifold found by SAT and clipping is still right up to the motion since it
//! was computed. While that relative motion stays under a small distance, the contact keeps
//! its manifold as computed and only updates each point's separation, exactly as the substeps
//! do within a step:
//!
//! - the normal and both anchors stay as they were computed (world orientation then, relative
//!   to each body's centre of mass);
//! - each separation becomes s_then + n . ((cB + dqB rB) - (cA + dqA rA)), with c the centres
//!   of mass now and dq = q_now q_then^-1: both anchors named the same world point when the
//!   manifold was computed, so the bracket is how far the two material points have drifted
//!   apart along the normal since.
//!
//! Keeping the anchors fixed is what Box2D does, and what lets tall awake towers stand
//! (`FINDINGS` 1, reproduced with bench_compare's differential mode): turning the anchors and
//! the normal with the bodies instead (as this engine once did) adds, each step a pair is
//! recycled, a lever-arm change that tips a leaning box further, and the lean doubles every few
//! seconds until the tower falls.
//!
//! The relative motion is measured as the distance B's origin moved in A's frame plus the
//! larger reach of the two bodies (static bodies count zero) times the sine of the relative
//! turn: an upper bound on how far any point moved. A large turn of either body (cos below
//! `RECYCLE_MIN_COS`) also recomputes. A pair still apart is recycled only under the tighter
//! of the recycle and speculative distances, so a speculative point appears in time.

use crate::collision::{Manifold, ManifoldPoint};
use crate::math::{Rot, Transform};
use crate::position::{FrameOrigin, WorldTransform};
use bevy_math::Vec2;
use serde::{Deserialize, Serialize};

/// Cosine of the largest turn of either body since the manifold was computed (about 11
/// degrees) for which it is still reused.
const RECYCLE_MIN_COS: f32 = 0.98;

/// A body's pose and the centre of mass in its frame: what carrying a manifold reads of it.
/// The pose is in a float frame that both bodies of a contact share (`origin`: the world
/// itself in the float build, body A's origin in the `large-world` build).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct BodyFrame {
    pub transform: Transform,
    pub local_center: Vec2,
    pub origin: FrameOrigin,
}

impl BodyFrame {
    /// A body at `transform` in the world, seen from the frame at `origin`.
    #[inline(always)]
    pub fn new(transform: WorldTransform, local_center: Vec2, origin: FrameOrigin) -> Self {
        BodyFrame {
            transform: origin.transform_to_frame(transform),
            local_center,
            origin,
        }
    }
}

/// What a contact keeps from its last full manifold computation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "SavedCache", try_from = "SavedCache")]
pub(crate) struct RecycleCache {
    /// Body rotations when the manifold was computed.
    rotation_a: Rot,
    rotation_b: Rot,
    /// Pose of B's origin in A's frame then.
    relative: Transform,
    /// The manifold as computed: normal, anchors (relative to the body origins, world
    /// orientation then), separations and feature ids; points and impulses are zero.
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

    /// Remembers a freshly computed manifold (with or without points) and the poses it was
    /// computed at.
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

    /// Whether the cached manifold had points (the pair touched when it was computed).
    pub fn touching(&self) -> bool {
        self.manifold.point_count > 0
    }

    /// Carries the cached manifold to the bodies' current poses in place: `current` (the
    /// manifold in use, computed or recycled from this cache, so it has the cache's points)
    /// takes the carried separations and keeps its impulses. Returns false, leaving `current`
    /// alone, when the shapes moved relative to each other by `tolerance` or more (`reach`:
    /// the farthest any point of either moving body lies from its centre of mass), or either
    /// body turned too far.
    #[inline]
    pub fn recycle(
        &self,
        current: &mut Manifold,
        a: BodyFrame,
        b: BodyFrame,
        reach: f32,
        tolerance: f32,
    ) -> bool {
        let (xf_a, xf_b) = (a.transform, b.transform);
        // Each body's turn since the manifold was computed; its cosine bounds the turn.
        let turn_a = xf_a.q * self.rotation_a.inverse();
        let turn_b = xf_b.q * self.rotation_b.inverse();
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
        self.carry_into(current, a, b, turn_a, turn_b);
        true
    }

    /// The cached manifold carried to frames `a` and `b`, whatever the motion, with zero
    /// impulses: the geometry of [`RecycleCache::recycle`]'s result, so a snapshot can rebuild
    /// a recycled manifold from its cache and the bodies it was recycled at.
    pub fn carried(&self, a: BodyFrame, b: BodyFrame) -> Manifold {
        let mut m = self.manifold;
        let turn_a = a.transform.q * self.rotation_a.inverse();
        let turn_b = b.transform.q * self.rotation_b.inverse();
        self.carry_into(&mut m, a, b, turn_a, turn_b);
        m
    }

    /// Writes the cached geometry carried to frames `a` and `b` (each body turned by `turn_a`
    /// and `turn_b` since) into `m`, leaving its impulses. The normal stays; each anchor stays the same vector from its body's centre
    /// of mass (stored from the body origin, it moves by how far the centre's offset turned);
    /// each separation grows by how far the two material points drifted apart along the
    /// normal.
    #[inline(always)]
    fn carry_into(&self, m: &mut Manifold, a: BodyFrame, b: BodyFrame, turn_a: Rot, turn_b: Rot) {
        let (xf_a, xf_b) = (a.transform, b.transform);
        // How far each centre's offset from the origin turned since: added to an anchor taken
        // from the origin then, it keeps the anchor's vector from the centre unchanged. Most
        // bodies have their centre at the origin, and nothing to shift.
        let shift = |c: Vec2, now: Rot, then: Rot| {
            if c == Vec2::ZERO {
                Vec2::ZERO
            } else {
                now.rotate(c) - then.rotate(c)
            }
        };
        let shift_a = shift(a.local_center, xf_a.q, self.rotation_a);
        let shift_b = shift(b.local_center, xf_b.q, self.rotation_b);
        let kept = &self.manifold;
        let normal = kept.normal;
        m.normal = normal;
        m.point_count = kept.point_count;
        for (p, k) in m.points_mut().iter_mut().zip(kept.points()) {
            let on_a = xf_a.p + turn_a.rotate(k.anchor_a);
            let on_b = xf_b.p + turn_b.rotate(k.anchor_b);
            p.separation = k.separation + (on_b - on_a).dot(normal);
            p.anchor_a = k.anchor_a + shift_a;
            p.anchor_b = k.anchor_b + shift_b;
            p.point = a.origin.to_world(0.5 * (on_a + on_b));
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

    /// A body at `transform` with its centre of mass at its origin.
    fn frame(transform: Transform) -> BodyFrame {
        BodyFrame {
            transform,
            local_center: Vec2::ZERO,
            origin: FrameOrigin::WORLD,
        }
    }

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
        assert!(cache.recycle(&mut current, frame(xf_a), frame(moved_b), 0.75, 0.05));
        let expected = cache.carried(frame(xf_a), frame(moved_b));
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
        assert!(!cache.recycle(&mut current, frame(xf_a), frame(far_b), 0.75, 0.05));
        assert_eq!(current, before);
    }
}
