//! How a snapshot saves contacts: without what it can rebuild exactly.
//!
//! A contact recycled by the last narrowphase holds the manifold its recycling cache gives at
//! the two bodies' poses then (`RecycleCache::carried`). In a resting pile that is nearly every
//! contact, and the manifold's geometry (normal, points, anchors, separations) is most of a
//! contact's bytes. So a recycled contact whose manifold is, bit for bit, the cache carried to
//! the bodies' collide poses ([`Body::collide_pose`](crate::body::Body)) saves only its
//! impulses; reading carries the cache again and gets the same bits. Any contact that does not
//! match (a body teleported after the step, a partner asleep since) is saved whole, so the
//! rule is an encoding, never an approximation. The body slots come from the shapes. (A
//! contact computed by the last narrowphase also caches the manifold it uses; deflate already
//! finds that repetition, so it is stored as it is.)

use crate::body::Body;
use crate::collision::Manifold;
use crate::contact::Contact;
use crate::contact_recycle::{BodyFrame, RecycleCache};
use crate::id::Slots;
use crate::position::{FrameOrigin, WorldTransform, position_bits};
use crate::shape_def::ShapeRecord;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// A contact's manifold as saved.
#[derive(Serialize, Deserialize)]
enum SavedPoints {
    /// The manifold itself.
    Whole(Manifold),
    /// The cache carried to the bodies' collide poses, with these (normal, tangent) impulses.
    Carried(Vec<(f32, f32)>),
}

/// A [`Contact`] as saved.
#[derive(Serialize, Deserialize)]
pub(in crate::world) struct SavedContact {
    shape_a: u32,
    shape_b: u32,
    points: SavedPoints,
    friction: f32,
    restitution: f32,
    tangent_speed: f32,
    rolling_resistance: f32,
    rolling_impulse: f32,
    touching: bool,
    sensor: bool,
    hit_events: bool,
    enabled: bool,
    recycle: Option<RecycleCache>,
    recycled: bool,
}

/// Whether two manifolds agree bit for bit in everything but their impulses.
fn same_geometry(a: &Manifold, b: &Manifold) -> bool {
    let bits = |v: bevy_math::Vec2| (v.x.to_bits(), v.y.to_bits());
    a.point_count == b.point_count
        && bits(a.normal) == bits(b.normal)
        && a.points().iter().zip(b.points()).all(|(p, q)| {
            position_bits(p.point) == position_bits(q.point)
                && bits(p.anchor_a) == bits(q.anchor_a)
                && bits(p.anchor_b) == bits(q.anchor_b)
                && p.separation.to_bits() == q.separation.to_bits()
                && p.id == q.id
                && p.persisted == q.persisted
        })
}

/// The two bodies of a contact as the last narrowphase saw them: their collide poses and
/// centres of mass, in the frame that narrowphase used (at A's origin).
fn collide_frames(bodies: &Slots<Body>, slot_a: u32, slot_b: u32) -> (BodyFrame, BodyFrame) {
    let (a, b) = (bodies.at(slot_a), bodies.at(slot_b));
    let origin = FrameOrigin::at(a.collide_pose.p);
    (
        BodyFrame::new(a.collide_pose, a.local_center, origin),
        BodyFrame::new(b.collide_pose, b.local_center, origin),
    )
}

/// Whether two poses are the same bits.
fn same_pose(a: WorldTransform, b: WorldTransform) -> bool {
    let bits = |xf: WorldTransform| {
        let [x, y] = crate::position::position_bits(xf.p);
        [x, y, xf.q.c.to_bits().into(), xf.q.s.to_bits().into()]
    };
    bits(a) == bits(b)
}

/// The contacts as a snapshot stores them, and the collide poses reading needs: those of the
/// bodies at either end of a carried contact, where they differ from the body's pose (every
/// other body reads back with its pose as its collide pose).
pub(in crate::world) fn save_contacts(
    contacts: &Slots<Contact>,
    bodies: &Slots<Body>,
) -> (Slots<SavedContact>, Vec<(u32, WorldTransform)>) {
    let mut ends = BTreeSet::new();
    let saved = contacts.map(|_, c| {
        let carried = c.recycle.as_ref().filter(|_| c.recycled).map(|cache| {
            let (a, b) = collide_frames(bodies, c.body_a, c.body_b);
            cache.carried(a, b)
        });
        let points = match carried {
            Some(m) if same_geometry(&m, &c.manifold) => {
                ends.extend([c.body_a, c.body_b]);
                SavedPoints::Carried(
                    c.manifold
                        .points()
                        .iter()
                        .map(|p| (p.normal_impulse, p.tangent_impulse))
                        .collect(),
                )
            }
            _ => SavedPoints::Whole(c.manifold),
        };
        SavedContact {
            shape_a: c.shape_a,
            shape_b: c.shape_b,
            points,
            friction: c.friction,
            restitution: c.restitution,
            tangent_speed: c.tangent_speed,
            rolling_resistance: c.rolling_resistance,
            rolling_impulse: c.rolling_impulse,
            touching: c.touching,
            sensor: c.sensor,
            hit_events: c.hit_events,
            enabled: c.enabled,
            recycle: c.recycle,
            recycled: c.recycled,
        }
    });
    let poses = ends
        .into_iter()
        .map(|slot| (slot, bodies.at(slot)))
        .filter(|(_, body)| !same_pose(body.collide_pose, body.transform))
        .map(|(slot, body)| (slot, body.collide_pose))
        .collect();
    (saved, poses)
}

/// The contacts back from their saved form; `bodies` must already hold their collide poses.
pub(in crate::world) fn read_contacts(
    saved: &Slots<SavedContact>,
    shapes: &Slots<ShapeRecord>,
    bodies: &Slots<Body>,
) -> Result<Slots<Contact>, &'static str> {
    saved.try_map(|_, s| {
        let body_of = |shape: u32| {
            let index = shapes
                .is_live(shape)
                .then(|| shapes.at(shape).body.index)
                .ok_or("a contact's shape is not live")?;
            bodies
                .is_live(index)
                .then_some(index)
                .ok_or("a contact's body is not live")
        };
        let (body_a, body_b) = (body_of(s.shape_a)?, body_of(s.shape_b)?);
        // A body's type never changes, so whether a contact is solved is read off them.
        let dynamic = |slot: u32| bodies.at(slot).body_type == crate::body::BodyType::Dynamic;
        let passive = !dynamic(body_a) && !dynamic(body_b);
        let manifold = match &s.points {
            SavedPoints::Whole(m) => *m,
            SavedPoints::Carried(impulses) => {
                let cache = s
                    .recycle
                    .as_ref()
                    .ok_or("a carried manifold without its cache")?;
                let (a, b) = collide_frames(bodies, body_a, body_b);
                let mut m = cache.carried(a, b);
                if impulses.len() != m.point_count {
                    return Err("a carried manifold's impulses do not match its points");
                }
                for (p, &(normal, tangent)) in m.points_mut().iter_mut().zip(impulses) {
                    (p.normal_impulse, p.tangent_impulse) = (normal, tangent);
                }
                m
            }
        };
        Ok(Contact {
            shape_a: s.shape_a,
            shape_b: s.shape_b,
            body_a,
            body_b,
            manifold,
            friction: s.friction,
            restitution: s.restitution,
            tangent_speed: s.tangent_speed,
            rolling_resistance: s.rolling_resistance,
            rolling_impulse: s.rolling_impulse,
            moving_surface: s.tangent_speed != 0.0 || s.rolling_resistance != 0.0,
            touching: s.touching,
            sensor: s.sensor,
            hit_events: s.hit_events,
            passive,
            enabled: s.enabled,
            recycle: s.recycle,
            recycled: s.recycled,
        })
    })
}
