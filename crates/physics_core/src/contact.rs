//! Persistent contacts between two shapes whose enlarged boxes overlap.
//!
//! A contact is created when the broadphase first reports the pair and destroyed when their
//! enlarged boxes stop overlapping. Each step its manifold is recomputed; points whose feature
//! id matches a point of the previous manifold inherit its impulses (warm starting), which is
//! what lets stacks settle within a few steps and stay still.

use crate::collision::{CollideSettings, Manifold, collide};
use crate::contact_recycle::{BodyFrame, RecycleCache};
use crate::shape::Shape;
use crate::solver::contact_solver::SolvedPoint;
use serde::{Deserialize, Serialize};

/// The world's record of a contact.
///
/// Laid out in the order the step reads it: what the solver's contact scan reads first, then
/// the manifold the solver prepares from and stores into, and the recycling cache (read only
/// by the narrowphase) last, so the solver's passes over the contacts touch the record's
/// first cache lines only.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[repr(C)]
pub(crate) struct Contact {
    /// Body slot indices of the two shapes.
    pub body_a: u32,
    pub body_b: u32,
    /// True while the manifold has points.
    pub touching: bool,
    /// Either shape is a sensor: overlap is tracked, nothing is solved.
    pub sensor: bool,
    /// Cleared for one step by the pre-solve hook (one-way platforms).
    pub enabled: bool,
    /// Either shape asked for hit events.
    pub hit_events: bool,
    /// Neither body is dynamic (a kinematic body against a static or kinematic one): the
    /// contact is tracked for events and contact data, never solved, and links no islands.
    pub passive: bool,
    /// The surface moves or resists rolling (`tangent_speed` or `rolling_resistance` is not
    /// zero; both set through `set_surface_motion`): the scalar solver takes the contact. A
    /// flag here so the solver's scan never reads the record's cold tail.
    pub moving_surface: bool,
    /// Mixed coefficients.
    pub friction: f32,
    pub restitution: f32,
    /// Shape slot indices, lower first.
    pub shape_a: u32,
    pub shape_b: u32,
    pub manifold: Manifold,
    /// The last update moved the cached manifold instead of computing one.
    pub recycled: bool,
    /// The last computed manifold and the poses it was computed at, while touching.
    pub recycle: Option<RecycleCache>,
    /// Summed surface speed of the two shapes (conveyor belts), and the rolling resistance
    /// torque per unit of normal impulse (coefficient times radius). Rare, so at the tail.
    pub tangent_speed: f32,
    pub rolling_resistance: f32,
    /// Accumulated rolling resistance impulse, for next step's warm start.
    pub rolling_impulse: f32,
}

/// What the narrowphase did with a contact its serial pass visits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CollideOutcome {
    /// The shapes' enlarged boxes no longer overlap: the contact is to be destroyed.
    Separated,
    /// The manifold was computed or recycled.
    Updated {
        was_touching: bool,
        now_touching: bool,
    },
}

/// How far two shapes may move relative to each other before a contact's manifold is
/// computed again (see `contact_recycle.rs`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Recycling {
    /// Relative motion below which a touching contact's manifold is reused; zero turns
    /// recycling off.
    pub distance: f32,
    /// The same for a contact still apart (the tighter of `distance` and the speculative
    /// distance, so speculative points appear in time).
    pub distance_apart: f32,
    /// The farthest any point of either body lies from its centre of mass (static bodies
    /// count zero: they never turn).
    pub reach: f32,
}

impl Contact {
    /// The body slot at the other end from `body` (one of the contact's two bodies).
    pub fn other_body(&self, body: u32) -> u32 {
        if self.body_a == body {
            self.body_b
        } else {
            self.body_a
        }
    }

    /// True when the contact moves its surface or resists rolling: the SIMD lanes solve
    /// neither, so the scalar solver takes it (such contacts are few: belts, rolling balls).
    pub fn needs_scalar_solver(&self) -> bool {
        self.moving_surface
    }

    /// Sets the surface speed and rolling resistance, and the flag that follows them.
    pub fn set_surface_motion(&mut self, tangent_speed: f32, rolling_resistance: f32) {
        self.tangent_speed = tangent_speed;
        self.rolling_resistance = rolling_resistance;
        self.moving_surface = tangent_speed != 0.0 || rolling_resistance != 0.0;
    }

    /// Keeps the solver's impulses for next step's warm start. A non-finite impulse is never
    /// kept, or it would be re-applied every step for as long as the contact lives.
    pub fn store_solved(&mut self, solved: &[SolvedPoint; 2]) {
        self.store_impulses(self.manifold.point_count, solved);
    }

    /// [`Contact::store_solved`] for a manifold of `point_count` points, the count known
    /// without reading it from the record (the solver's storing touches only the line of the
    /// impulses).
    #[inline(always)]
    pub fn store_impulses(&mut self, point_count: usize, solved: &[SolvedPoint; 2]) {
        debug_assert_eq!(point_count, self.manifold.point_count);
        let finite_or_zero = |x: f32| if x.is_finite() { x } else { 0.0 };
        let points = &mut self.manifold.points[..point_count.min(2)];
        for (mp, sp) in points.iter_mut().zip(solved) {
            mp.normal_impulse = finite_or_zero(sp.normal_impulse);
            mp.tangent_impulse = finite_or_zero(sp.tangent_impulse);
        }
    }

    /// The fastest approach (speed, point) among the points that pushed this step, if faster
    /// than `threshold`: a hit event.
    pub fn fastest_hit(
        &self,
        solved: &[SolvedPoint; 2],
        threshold: f32,
    ) -> Option<(f32, crate::position::Position)> {
        solved
            .iter()
            .zip(self.manifold.points())
            .filter(|(sp, _)| sp.max_normal_impulse > 0.0)
            .map(|(sp, mp)| (-sp.relative_velocity, mp.point))
            .fold(
                None,
                |best: Option<(f32, crate::position::Position)>, x| match best {
                    Some(b) if b.0 >= x.0 => Some(b),
                    _ => Some(x),
                },
            )
            .filter(|&(speed, _)| speed > threshold)
    }

    /// False when [`Contact::fastest_hit`] can find no hit among the first `point_count`
    /// solved points: none pushed and approached faster than `threshold` (it picks among such
    /// points). Told without reading the record.
    #[inline(always)]
    pub fn may_hit(point_count: usize, solved: &[SolvedPoint; 2], threshold: f32) -> bool {
        solved[..point_count.min(2)]
            .iter()
            .any(|sp| sp.max_normal_impulse > 0.0 && -sp.relative_velocity > threshold)
    }

    /// Recomputes the manifold, carrying impulses over by feature id, or keeps the last one
    /// with updated separations when the bodies barely moved relative to each other
    /// (`recycling`). Returns whether the contact touched before and touches now.
    #[inline]
    pub fn update(
        &mut self,
        shape_a: &Shape,
        a: BodyFrame,
        shape_b: &Shape,
        b: BodyFrame,
        settings: &CollideSettings,
        recycling: Recycling,
    ) -> (bool, bool) {
        let was_touching = self.touching;
        if let Some(cache) = &self.recycle {
            let tolerance = if cache.touching() {
                recycling.distance
            } else {
                recycling.distance_apart
            };
            if cache.recycle(&mut self.manifold, a, b, recycling.reach, tolerance) {
                self.recycled = true;
                return (was_touching, was_touching);
            }
        }
        self.recycled = false;
        let old = self.manifold;
        let (xf_a, xf_b) = (a.transform, b.transform);
        let mut manifold = collide(shape_a, xf_a, shape_b, xf_b, settings);
        manifold.move_out_of(a.origin);
        carry_impulses(&old, &mut manifold);
        self.manifold = manifold;
        let recyclable = !self.sensor && recycling.distance > 0.0;
        self.recycle = recyclable.then(|| RecycleCache::new(&manifold, xf_a, xf_b));
        // A sensor reports real overlap, not speculative points, and so does a contact no
        // solver acts on.
        self.touching = if self.sensor || self.passive {
            manifold.points().iter().any(|p| p.separation <= 0.0)
        } else {
            manifold.point_count > 0
        };
        (was_touching, self.touching)
    }
}

/// Gives each new point the impulses of the old point with the same feature id (warm
/// starting), as Box2D v3 does. Polygon ids name the vertex each point came from on each
/// body, whichever face is the reference, so a box rocking between two nearly equal faces
/// keeps its ids; an old point's impulses go to one new point at most.
fn carry_impulses(old: &Manifold, new: &mut Manifold) {
    let mut claimed = [false; 2];
    for point in new.points_mut() {
        let found = old
            .points()
            .iter()
            .enumerate()
            .find(|(j, p)| !claimed[*j] && p.id == point.id);
        if let Some((j, p)) = found {
            claimed[j] = true;
            point.normal_impulse = p.normal_impulse;
            point.tangent_impulse = p.tangent_impulse;
            point.persisted = true;
        }
    }
}

/// Key of an unordered shape pair for the contact map.
pub(crate) fn pair_key(shape_a: u32, shape_b: u32) -> u64 {
    let (lo, hi) = (shape_a.min(shape_b), shape_a.max(shape_b));
    ((lo as u64) << 32) | hi as u64
}
