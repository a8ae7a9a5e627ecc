//! Contact manifolds: what every manifold function returns (the dispatch that picks one for a
//! shape pair is `dispatch.rs`).
//!
//! Every manifold function works in shape A's body frame (B is carried into it once) and hands
//! its local points to [`world_manifold`], which turns them into world points with anchors
//! relative to each body's origin. Pairs with a circle second-class (circle first, other shape
//! second) are computed the other way round and flipped, so each geometric case is written once.

use crate::constants::{LINEAR_SLOP, SPECULATIVE_DISTANCE};
use crate::math::Transform;
use crate::position::{FrameOrigin, Position, is_finite_position, to_position};
use bevy_math::Vec2;
use serde::{Deserialize, Serialize};

/// Tolerances the manifold functions use; the world scales them by its length unit.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CollideSettings {
    /// Points are produced while shapes are up to this far apart (speculative contacts).
    pub speculative_distance: f32,
    /// The linear slop, used to prefer one reference face over another on near ties.
    pub linear_slop: f32,
}

impl Default for CollideSettings {
    fn default() -> Self {
        CollideSettings {
            speculative_distance: SPECULATIVE_DISTANCE,
            linear_slop: LINEAR_SLOP,
        }
    }
}

/// One contact point.
///
/// In memory order (`repr(C)`): what the solver's preparing and storing stages touch first,
/// the world position (read for events and drawing only) last. A contact record's manifold
/// then ends its solver part within the record's first 128 bytes (`solver/step_stages.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[repr(C)]
pub struct ManifoldPoint {
    /// The point relative to body A's origin, in world orientation.
    pub anchor_a: Vec2,
    /// The point relative to body B's origin, in world orientation.
    pub anchor_b: Vec2,
    /// Signed distance between the surfaces along the normal: negative when overlapping,
    /// positive for a speculative point.
    pub separation: f32,
    /// Accumulated normal impulse (kept across steps for warm starting).
    pub normal_impulse: f32,
    /// Accumulated friction impulse (kept across steps for warm starting).
    pub tangent_impulse: f32,
    /// Feature id: the same while the same pair of features touches. The high byte names A's
    /// feature, the low byte B's.
    pub id: u16,
    /// True when this point matched a point of the previous step by id.
    pub persisted: bool,
    /// World position, midway between the two surfaces (double precision in the
    /// `large-world` build).
    pub point: Position,
}

/// Up to two contact points sharing one normal. Serialised with its valid points only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(into = "SavedManifold", try_from = "SavedManifold")]
#[repr(C)]
pub struct Manifold {
    /// Number of valid points (0, 1 or 2). First in memory (`repr(C)`): the solver reads it
    /// with the normal and the points, and at the end it would take a cache line of its own.
    pub point_count: usize,
    /// Unit world normal pointing from A to B.
    pub normal: Vec2,
    /// The points; only the first `point_count` are valid.
    pub points: [ManifoldPoint; 2],
}

/// A [`Manifold`] as serialised: the normal and the valid points.
#[derive(Serialize, Deserialize)]
struct SavedManifold {
    normal: Vec2,
    points: Vec<ManifoldPoint>,
}

impl From<Manifold> for SavedManifold {
    fn from(m: Manifold) -> Self {
        SavedManifold {
            normal: m.normal,
            points: m.points().to_vec(),
        }
    }
}

impl TryFrom<SavedManifold> for Manifold {
    type Error = &'static str;

    fn try_from(saved: SavedManifold) -> Result<Self, Self::Error> {
        let mut m = Manifold {
            normal: saved.normal,
            ..Default::default()
        };
        m.points
            .get_mut(..saved.points.len())
            .ok_or("a manifold has at most two points")?
            .copy_from_slice(&saved.points);
        m.point_count = saved.points.len();
        Ok(m)
    }
}

impl Manifold {
    /// Whether the manifold could have come from the manifold functions: at most two points,
    /// every number finite, and (with points) a unit normal. Decoded snapshots are checked
    /// with it.
    pub fn is_sound(&self) -> bool {
        self.point_count <= 2
            && self.normal.is_finite()
            && (self.point_count == 0 || (self.normal.length() - 1.0).abs() < 1.0e-3)
            && self.points().iter().all(|p| {
                is_finite_position(p.point)
                    && p.anchor_a.is_finite()
                    && p.anchor_b.is_finite()
                    && p.separation.is_finite()
                    && p.normal_impulse.is_finite()
                    && p.tangent_impulse.is_finite()
            })
    }

    /// The valid points.
    pub fn points(&self) -> &[ManifoldPoint] {
        &self.points[..self.point_count]
    }

    /// The valid points, mutable.
    pub fn points_mut(&mut self) -> &mut [ManifoldPoint] {
        &mut self.points[..self.point_count]
    }

    /// A manifold computed in a float frame (its points are that frame's) with its points
    /// moved out to the world. Nothing to do in the float build, whose frames are the world.
    #[inline(always)]
    pub(crate) fn move_out_of(&mut self, frame: FrameOrigin) {
        if crate::position::LARGE_WORLD {
            for p in self.points_mut() {
                p.point = frame.to_world(crate::position::to_vec2(p.point));
            }
        }
    }

    /// The same contact seen from B: normal reversed, anchors and feature bytes swapped.
    pub fn flipped(mut self) -> Manifold {
        self.normal = -self.normal;
        for p in self.points_mut() {
            std::mem::swap(&mut p.anchor_a, &mut p.anchor_b);
            p.id = p.id.rotate_left(8);
        }
        self
    }
}

/// A point found by a manifold function, in A's body frame.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LocalPoint {
    /// Midpoint between the surfaces, in A's frame.
    pub point: Vec2,
    /// Signed surface distance.
    pub separation: f32,
    /// Feature id (A's feature in the high byte).
    pub id: u16,
}

/// Feature id from A's and B's feature indices (polygons: the vertex each point came from).
pub(crate) fn feature_id(feature_a: usize, feature_b: usize) -> u16 {
    ((feature_a as u16 & 0xff) << 8) | (feature_b as u16 & 0xff)
}

/// Converts points and a normal found in A's frame into a world manifold.
pub(crate) fn world_manifold(
    xf_a: Transform,
    xf_b: Transform,
    local_normal: Vec2,
    points: &[LocalPoint],
) -> Manifold {
    let mut manifold = Manifold {
        normal: xf_a.q.rotate(local_normal),
        ..Manifold::default()
    };
    for (dst, src) in manifold.points.iter_mut().zip(points) {
        let anchor_a = xf_a.q.rotate(src.point);
        let point = anchor_a + xf_a.p;
        *dst = ManifoldPoint {
            point: to_position(point),
            anchor_a,
            anchor_b: point - xf_b.p,
            separation: src.separation,
            id: src.id,
            ..ManifoldPoint::default()
        };
    }
    manifold.point_count = points.len().min(2);
    manifold
}
