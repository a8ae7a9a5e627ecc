//! Bodies under heavier ones are solved as if they were heavier: a heavy body on light ones
//! rests on them instead of sinking in (`WorldDef::carried_mass_fraction`).
//!
//! Why a heavy body sinks: a soft contact at rest settles where its leak balances its bias,
//! at a depth of
//!
//!   s = K F / w^2        (K = J M^-1 J^T its inverse effective mass, F its load, w = 2 pi hertz)
//!
//! (`solver/softness.rs`: one update is d = -m_eff mass_scale (v + bias_rate s) -
//! impulse_scale lambda, zero at rest when s = impulse_scale lambda K / (mass_scale
//! bias_rate) = K F / w^2 with lambda = F h). K is dominated by the lighter body, F by the
//! heavier one: under a box 400 times its mass a crate's contacts settle 400 times deeper
//! than under its own weight, which is Solver2D's "high mass ratio" scenes sinking 8 to 22 cm
//! in Box2D v3 and rapier alike. Stiffer contacts for those points do not help: Gauss-Seidel
//! on a light body between two stiff contacts overshoots and the stack explodes (stiffness
//! above about 1.5 times the base, measured). A rigid solve of the whole island does help,
//! at a cube of its rows (`exact_contacts.rs`).
//!
//! What this does instead: before the substeps, each moving body carrying a heavier one gets
//! a solver mass
//!
//!   M_i = max(m_i, fraction * M_j)   over the bodies j resting on i (contact normal within
//!                                    60 degrees of "up", against gravity),
//!
//! propagated down the stack to its fixed point, and its inverse mass, inverse inertia and
//! constant accelerations are all divided by sigma_i = M_i / m_i for the step. Scaling the
//! acceleration with the mass keeps the body's weight and the forces on it what they were:
//! at rest every contact carries the load it carries without scaling (the reported contact
//! forces stay physical), but K of the crate's contacts shrinks by sigma, and so does their
//! depth. All of a body's rows see the same mass, so the system is one of heavier bodies with
//! stiffer contacts, whose frequencies are the unscaled ones: the substep integrates it as
//! stably as a stack of equal masses. This is shock propagation (Guendelman et al. 2003), with
//! mass raised by a fraction instead of made infinite, and by what a body carries instead of
//! by its height.
//!
//! What it costs in physics: a body carrying a heavier one answers a blow from the side as
//! its scaled mass would (it is pinned by the load anyway), and falls at g / sigma for the one
//! step after the load leaves it. Where no contact joins two bodies whose masses differ by
//! more than [`SEED_MASS_RATIO`], nothing is scaled and the step is the one without carried
//! mass to the bit (Box2D v3's, in Box2D's point order);
//! that check reads the solve set's dense keys only. Bodies with joints keep their mass
//! (their joint rows are prepared from the body records), but still pass the mass they carry
//! down.

use crate::body::Body;
use crate::contact::Contact;
use crate::id::Slots;
use crate::solver::SolverArrays;
use crate::solver::body_state::{BodyParams, STATIC_BODY};
use crate::solver::contact_solver::ConstraintBody;
use bevy_math::Vec2;

/// Cosine of the largest angle from "up" at which a contact counts as one body resting on
/// another (60 degrees: the sides of a pile carry load too, walls beside a body do not).
const RESTING_COS: f32 = 0.5;

/// Masses of two touching bodies must differ by more than this for the heavier to be passed
/// down at all: below it the lighter body's contacts settle at most this many times as deep
/// as under its own weight (a millimetre at the defaults), and the step stays Box2D v3's.
const SEED_MASS_RATIO: f32 = 4.0;

/// A body whose solver data was scaled for this step, with what it had before.
#[derive(Clone, Copy, Debug)]
pub(in crate::world) struct ScaledBody {
    index: u32,
    constraint: ConstraintBody,
    params: BodyParams,
}

/// The scratch of [`CarriedMass::scale_carrying_bodies`], kept for its allocations.
#[derive(Default)]
pub(in crate::world) struct CarriedMass {
    /// Solver mass of each solver body (its own mass, or what it carries times the fraction).
    mass: Vec<f32>,
    /// Contact slots whose lower body may have to take a larger mass.
    work: Vec<u32>,
    /// The bodies scaled this step, to put back after the substeps.
    scaled: Vec<ScaledBody>,
}

/// What the scaling reads of the world; `I` walks the solved contacts.
pub(in crate::world) struct CarriedMassInput<'a, I> {
    pub bodies: &'a Slots<Body>,
    pub contacts: &'a Slots<Contact>,
    /// Solver index of each body slot.
    pub solver_index: &'a [u32],
    /// The solved contacts' solver bodies, in constraint order.
    pub pairs: I,
    pub gravity: Vec2,
    pub fraction: f32,
}

impl CarriedMass {
    /// Scales the solver data of every moving body carrying more than `1 / fraction` times
    /// its mass (directly, or down a stack from a contact of two masses [`SEED_MASS_RATIO`]
    /// apart), as the module explains, noting each in `self.scaled`. Does nothing when the
    /// fraction or gravity is zero.
    pub fn scale_carrying_bodies<I>(
        &mut self,
        input: CarriedMassInput<I>,
        arrays: &mut SolverArrays,
    ) where
        I: Iterator<Item = (u32, u32, u32)>,
    {
        self.scaled.clear();
        let fraction = input.fraction;
        let gravity = input.gravity.length();
        if fraction <= 0.0 || gravity == 0.0 {
            return;
        }
        let up = -input.gravity / gravity;
        let inv_mass = |i: u32| arrays.contact_bodies[i as usize].inv_mass;
        // The sources: solved contacts between two moving bodies of very different masses.
        // A settled stack of equal masses finds none and stops here.
        self.work.clear();
        for (slot, a, b) in input.pairs {
            if a == STATIC_BODY || b == STATIC_BODY {
                continue;
            }
            let (ia, ib) = (inv_mass(a), inv_mass(b));
            if ia > 0.0 && ib > 0.0 && (ia > SEED_MASS_RATIO * ib || ib > SEED_MASS_RATIO * ia) {
                self.work.push(slot);
            }
        }
        if self.work.is_empty() {
            return;
        }
        self.mass.clear();
        self.mass.extend(arrays.contact_bodies.iter().map(|c| {
            if c.inv_mass > 0.0 {
                1.0 / c.inv_mass
            } else {
                0.0
            }
        }));
        // Max-propagation to its fixed point: a mass only grows, and only to a fraction of a
        // mass above it, so any order of the work list ends at the same masses.
        let mut next = 0;
        while next < self.work.len() {
            let slot = self.work[next];
            next += 1;
            let contact = input.contacts.at(slot);
            let Some((lower, upper)) = resting_pair(contact, input.solver_index, up) else {
                continue;
            };
            let carried = fraction * self.mass[upper as usize];
            let lower_mass = &mut self.mass[lower as usize];
            if *lower_mass > 0.0 && carried > *lower_mass {
                *lower_mass = carried;
                let lower_slot = if input.solver_index[contact.body_a as usize] == lower {
                    contact.body_a
                } else {
                    contact.body_b
                };
                // What rests under the lower body may now carry more too.
                self.work
                    .extend_from_slice(&input.bodies.at(lower_slot).contacts);
            }
        }
        for (index, &mass) in self.mass.iter().enumerate() {
            let constraint = arrays.contact_bodies[index];
            if constraint.inv_mass <= 0.0 || mass * constraint.inv_mass <= 1.0 {
                continue;
            }
            let slot = arrays.bodies[index].0;
            if !input.bodies.at(slot).joints.is_empty() {
                continue;
            }
            let params = arrays.params[index];
            self.scaled.push(ScaledBody {
                index: index as u32,
                constraint,
                params,
            });
            let scale = 1.0 / (mass * constraint.inv_mass);
            let c = &mut arrays.contact_bodies[index];
            c.inv_mass *= scale;
            c.inv_inertia *= scale;
            let p = &mut arrays.params[index];
            p.inv_mass *= scale;
            p.inv_inertia *= scale;
            p.linear_acceleration *= scale;
            p.angular_acceleration *= scale;
        }
    }

    /// How many bodies the last [`CarriedMass::scale_carrying_bodies`] scaled.
    pub fn scaled_count(&self) -> usize {
        self.scaled.len()
    }

    /// Gives the scaled bodies back the solver data they had, bit for bit, so that what
    /// finalize keeps for the next step is what an unscaled step would keep.
    pub fn restore(&mut self, arrays: &mut SolverArrays) {
        for s in self.scaled.drain(..) {
            arrays.contact_bodies[s.index as usize] = s.constraint;
            arrays.params[s.index as usize] = s.params;
        }
    }
}

/// The solver indices (lower, upper) of a solved contact in which one moving body rests on
/// another; `None` for a contact apart, switched off or a sensor's, against a body outside
/// the solver, or closer to level than [`RESTING_COS`].
fn resting_pair(contact: &Contact, solver_index: &[u32], up: Vec2) -> Option<(u32, u32)> {
    if !contact.touching || contact.sensor || !contact.enabled {
        return None;
    }
    let a = solver_index[contact.body_a as usize];
    let b = solver_index[contact.body_b as usize];
    if a == STATIC_BODY || b == STATIC_BODY {
        return None;
    }
    // The normal points from A to B.
    let lean = contact.manifold.normal.dot(up);
    if lean >= RESTING_COS {
        Some((a, b))
    } else if lean <= -RESTING_COS {
        Some((b, a))
    } else {
        None
    }
}
