//! World settings: gravity, substeps, contact softness, tolerances and the length unit.

use crate::constants::LINEAR_SLOP;
use bevy_math::Vec2;
use serde::{Deserialize, Serialize};

use crate::mix_rule::MixRule;

/// The contact stiffness cap as a fraction of the substep rate: `contact_hertz` above
/// `CONTACT_HERTZ_PER_SUBSTEP_RATE * substep_count / dt` is lowered to it, and static contacts
/// get twice the capped value.
///
/// A soft contact of angular frequency w = 2 pi f, stepped with substep h, is solved
/// implicitly, so any w is stable for one contact alone; what a cap guards is a pile, where a
/// Gauss-Seidel sweep passes each push on before the neighbours answer. Box2D v3 caps at an
/// eighth (w h = 0.79, 30 Hz at 60 Hz with 4 substeps). Three sixteenths (w h = 1.18, 1.5 times
/// Box2D's) admits the 45 Hz default: the resting overlap under a load goes as g / w^2, so the
/// 400-ball pile, the pyramids and heavy boxes on light ones sink 0.44 times as deep, while
/// towers stand as still and no stress scene gains energy (BENCHMARKS.md, "Contacts at 45
/// Hz").
pub const CONTACT_HERTZ_PER_SUBSTEP_RATE: f32 = 0.1875;

/// Everything that configures a world. Lengths and speeds marked "(m)" are given in metres
/// and multiplied by `length_units_per_meter`, so a game measuring in pixels sets that one
/// number and keeps the same behaviour; gravity is in the game's own units.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorldDef {
    /// Gravity acceleration, in world units per second squared.
    pub gravity: Vec2,
    /// Solver substeps per step. More substeps: stiffer stacks and joints, more cost.
    pub substep_count: u32,
    /// Contact stiffness in hertz, capped at [`CONTACT_HERTZ_PER_SUBSTEP_RATE`] of the substep
    /// rate (Box2D v3's default is 30 Hz with a cap of an eighth; here 45 Hz, so that
    /// resting contacts sink 0.44 times as deep).
    pub contact_hertz: f32,
    /// Contact damping ratio (1 is critical; the default is heavily over-damped for rest).
    pub contact_damping_ratio: f32,
    /// Joint stiffness in hertz (capped at a quarter of the substep rate).
    pub joint_hertz: f32,
    /// Joint damping ratio.
    pub joint_damping_ratio: f32,
    /// (m/s) Approach speed below which contacts do not bounce.
    pub restitution_threshold: f32,
    /// (m/s) Approach speed above which shapes with hit events enabled report a hit.
    pub hit_event_threshold: f32,
    /// (m/s) The fastest speed at which overlap is pushed apart (Box2D v3's default is 3 m/s;
    /// here 2, as 45 Hz contacts reach the limit at two thirds of the overlap 30 Hz ones do).
    pub max_contact_push_speed: f32,
    /// (m) Overlap allowed at rest, which keeps contacts persistent.
    pub linear_slop: f32,
    /// (m) How far apart shapes get contact points before they touch.
    pub speculative_distance: f32,
    /// (m) Most slack a moving shape's broadphase box gets beyond the speculative distance:
    /// each shape gets an eighth of its extent, at most this (Box2D v3's rule). More slack
    /// replaces fewer boxes per step but keeps more contacts alive.
    pub aabb_margin: f32,
    /// (m) Touching shapes that moved less than this relative to each other since their
    /// manifold was computed keep it, with only its separations updated, instead of
    /// recomputing it (as Box2D v3 does; shapes still apart: the tighter of this and the
    /// speculative distance). Zero recomputes every manifold every step.
    pub contact_recycle_distance: f32,
    /// (m/s) Speed limit of any body, a guard against explosions.
    pub max_linear_speed: f32,
    /// World units per metre: 1 for metres, for example 100 for a game in pixels.
    pub length_units_per_meter: f32,
    /// Lets islands of bodies at rest fall asleep (they then cost nothing per step).
    pub enable_sleep: bool,
    /// (m/s) Bodies slower than this (and turning slower than `sleep_angular_speed`) count as
    /// resting.
    pub sleep_linear_speed: f32,
    /// Turning speed below which a body counts as resting (rad/s).
    pub sleep_angular_speed: f32,
    /// Seconds an island's bodies must all rest before it sleeps.
    pub time_to_sleep: f32,
    /// Solve two-point manifolds that hold up a body on their own (its centre of mass between
    /// the two points) with the 2x2 block solver (cedarcantab) in both passes, in the SIMD
    /// lanes with every other contact (`solver/wide_contacts/block.rs`), at about the
    /// point-by-point solve's speed. Awake towers then stand still (no lean over 30 s, where
    /// Box2D v3's sequential points lean 1.2 to 2.5 cm, and 1 cm where alternating 1 cm
    /// offsets make it lean 19 cm); piles of circles (one-point manifolds) and bodies
    /// bridging two supports, such as a pyramid's boxes, are solved point by point in listed
    /// order (without it they are solved together by default). Off by default: overlap
    /// recovery comes out 3.51 m/s against 3.48 in Box2D's order and 3.04 with
    /// `solve_points_together` (the default), and the pyramid 0.0307 m from where it was
    /// built against 0.0306 (`bench_compare --fidelity`, the block solver column). On, it
    /// takes the place of `solve_points_together`.
    pub enable_block_solver: bool,
    /// Solve the deeper of a two-point manifold's points first, in both the biased and the
    /// relaxing pass, instead of always the first listed point as Box2D v3 does (off, the
    /// default; on, it takes the place of `solve_points_together`). In a sequential solve
    /// the point solved first takes more than its share of
    /// the load; always the same point, that share is a small turn every substep, which is
    /// what makes Box2D's awake towers lean (1.2 to 2.5 cm over 30 s, 19 cm with alternating
    /// 1 cm offsets). The deeper point first turns that share against the tilt: the same
    /// towers lean 0.5 to 1.6 mm, 3.6 cm with offsets, the pyramid settles a little nearer
    /// where it was built and an overlap is pushed out more gently (`bench_compare
    /// --fidelity`, its column).
    ///
    /// A manifold either of whose points approached faster than `restitution_threshold`
    /// this step is struck, not resting, and keeps the listed order: under a blow the first
    /// point's larger share is a large impulse, which turned the struck body past level
    /// and rocked it (a box 400 times a crate's mass landing at 17 m/s on two crates,
    /// Solver2D's high mass ratio 2, slid 22 cm off its line; it now stays within 2.8 cm,
    /// 2.6 cm in Box2D's order). Each step holds a manifold's points in the order its
    /// separations start the step with, so that groups of SIMD lanes more often agree on the
    /// order: 0 to 5% more time a step on scenes of boxes (`bench_compare --deeper-first`,
    /// 4 to 11% when every pass chose the order from the listed one). Off by
    /// default: Solver2D's high mass ratio 1 sinks 0.1 mm further, and offset towers still
    /// lean centimetres. For awake towers points together (the default) and the block solver
    /// hold better still (under 0.1 mm, offsets 0.97 and 1.04 cm; the block pushes overlap
    /// out faster, 3.51 m/s); with
    /// `enable_block_solver` on, this setting is ignored.
    pub solve_deeper_point_first: bool,
    /// Solve a two-point manifold's points together where they couple loosely (on, the
    /// default): in the biased pass both normal impulses come from the manifold's 2x2
    /// problem solved exactly, and when relaxing each point's update is computed from the
    /// same velocities before both are applied (one Jacobi step, damped where the two rows
    /// push each other; `solver/points_together.rs`). Off, every manifold is solved one point at a time, the
    /// first listed point first, as Box2D v3 does: the point solved first takes more than
    /// its share, a small turn every substep that makes awake towers lean 1.2 to 2.5 cm over
    /// 30 s (19 cm with alternating 1 cm offsets). Together, the same towers stand still and
    /// the offset one drifts 1.0 cm, a pyramid settles as near where it was built (0.0306 m
    /// as written, 0.0298 against 0.0301 over four creation orders), a 100-row pyramid
    /// leans less (its top 0.23 and 0.09 m against 0.27 and 0.26 m in 500 steps, as built
    /// and mirrored) and an overlap is pushed out
    /// more gently (3.04 against 3.48 m/s),
    /// at 1 to 7 % more time a step on scenes of boxes (`bench_compare --fidelity` and
    /// `--listed`). Manifolds whose rows couple strongly (points that nearly coincide as
    /// the bodies see them: a small contact patch, a box a fifth as wide as tall) keep the
    /// listed order. With `enable_block_solver` or `solve_deeper_point_first` on, this
    /// setting is ignored.
    pub solve_points_together: bool,
    /// Islands of touching bodies (static and kinematic bodies do not join them) with at most
    /// this many bodies have their contacts' normal impulses solved together, rigidly and
    /// exactly (`solver/exact_contacts.rs`), instead of one soft point at a time. A heavy
    /// body on light ones then rests on its contacts instead of sinking into them (Box2D's
    /// soft contacts let Solver2D's high mass ratio scenes sink 8 to 22 cm). 0, the default,
    /// keeps Box2D v3's soft contacts everywhere. The cost grows with the cube of an island's
    /// contact points: 0.01 ms per step for a big box on two crates, 1.5 ms per step for a
    /// pyramid of 55 boxes (Box2D's soft solve: 0.03 ms), so keep the limit to the islands
    /// that need it.
    pub exact_contact_island_bodies: u32,
    /// Which joint trees (revolute, rigid weld and prismatic joints, no loop, small enough:
    /// `joint/exact_islands.rs`) have their joints solved together and exactly, in linear time
    /// along the tree (`joint/tree_solve.rs`), instead of Box2D v3's soft rows one joint at a
    /// time. Exact trees keep their pins closed to 0.01 mm however they swing and whatever
    /// they carry; soft rows open by millimetres in a whip, and let a chain hanging from the
    /// world stretch under its own weight and a light chain holding a heavy end tear
    /// (sequential impulses converge well under about 10:1, Box2D's own advice).
    ///
    /// A tree is solved exactly when it hangs from something outside it (a joint to a static
    /// or kinematic body, or a mouse, distance, motor or spring joint to a body outside the
    /// tree), or when its heaviest body is at least this many times its lightest. A free tree
    /// of similar masses, such as a ragdoll, keeps the soft rows: its pins carry only its own
    /// swing and its contacts, and hold as Box2D's do. The exact solve costs about five times
    /// the soft rows (a ragdoll of 12 bones: some 20 microseconds a step against 4), so crowds
    /// of ragdolls run at Box2D's cost. 10 is the default; 1 solves every tree exactly;
    /// infinity solves none exactly, held or not.
    pub exact_joint_mass_ratio: f32,
    /// A moving body carrying a heavier one is solved with at least this fraction of the
    /// mass resting on it, passed down the stack (`world/step/carried_mass.rs`): its contacts
    /// then hold a heavy body up instead of letting it sink in. Soft contacts settle at a
    /// depth of the load over the lighter body's stiffness, so Box2D v3's let a box 400 times
    /// a crate's mass sink 8 cm into two crates. Weights, forces and contact forces stay as
    /// they are; only how far a loaded body moves under a blow changes. Scaling starts only
    /// where two touching moving bodies' masses differ more than four times; elsewhere the
    /// step is the same as without it, to the bit (Box2D v3's, in Box2D's point order). 0.8
    /// by default; 0 switches it off (Box2D v3's soft
    /// contacts under any load); it must be below 1.
    pub carried_mass_fraction: f32,
    /// How shape frictions combine.
    pub friction_mixing: MixRule,
    /// How shape restitutions combine.
    pub restitution_mixing: MixRule,
    /// Most bodies the world holds: [`World::create_body`](super::World::create_body) refuses
    /// more with [`WorldError::TooManyBodies`](super::WorldError::TooManyBodies). A bound on
    /// memory (about 0.7 KB per body with a shape and its contacts) when a game, a level file
    /// or a peer asks for millions.
    pub max_bodies: u32,
}

impl Default for WorldDef {
    fn default() -> Self {
        WorldDef {
            gravity: Vec2::new(0.0, -10.0),
            substep_count: 4,
            contact_hertz: 45.0,
            contact_damping_ratio: 10.0,
            joint_hertz: 60.0,
            joint_damping_ratio: 2.0,
            restitution_threshold: 1.0,
            hit_event_threshold: 1.0,
            max_contact_push_speed: 2.0,
            linear_slop: LINEAR_SLOP,
            speculative_distance: 4.0 * LINEAR_SLOP,
            aabb_margin: 0.05,
            contact_recycle_distance: 10.0 * LINEAR_SLOP,
            max_linear_speed: 400.0,
            length_units_per_meter: 1.0,
            enable_sleep: true,
            sleep_linear_speed: 0.05,
            sleep_angular_speed: 2.0 * std::f32::consts::PI / 180.0,
            time_to_sleep: 0.5,
            enable_block_solver: false,
            solve_deeper_point_first: false,
            solve_points_together: true,
            exact_contact_island_bodies: 0,
            exact_joint_mass_ratio: 10.0,
            carried_mass_fraction: 0.8,
            friction_mixing: MixRule::GeometricMean,
            restitution_mixing: MixRule::Max,
            max_bodies: 1 << 20,
        }
    }
}

/// The def's tolerances converted to world units.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Tolerances {
    pub linear_slop: f32,
    pub speculative_distance: f32,
    pub aabb_margin: f32,
    pub contact_recycle_distance: f32,
    pub restitution_threshold: f32,
    pub max_contact_push_speed: f32,
    pub max_linear_speed: f32,
    pub sleep_linear_speed: f32,
    pub hit_event_threshold: f32,
}

impl WorldDef {
    /// Checks that every number is finite and in range.
    pub fn validate(&self) -> Result<(), super::WorldError> {
        use super::WorldError::InvalidSetting;
        let finite = [
            ("gravity is NaN or infinite", self.gravity.x),
            ("gravity is NaN or infinite", self.gravity.y),
            ("contact_hertz is NaN or infinite", self.contact_hertz),
            (
                "contact_damping_ratio is NaN or infinite",
                self.contact_damping_ratio,
            ),
            ("joint_hertz is NaN or infinite", self.joint_hertz),
            (
                "joint_damping_ratio is NaN or infinite",
                self.joint_damping_ratio,
            ),
            (
                "restitution_threshold is NaN or infinite",
                self.restitution_threshold,
            ),
            (
                "hit_event_threshold is NaN or infinite",
                self.hit_event_threshold,
            ),
            (
                "max_contact_push_speed is NaN or infinite",
                self.max_contact_push_speed,
            ),
            ("linear_slop is NaN or infinite", self.linear_slop),
            (
                "speculative_distance is NaN or infinite",
                self.speculative_distance,
            ),
            ("aabb_margin is NaN or infinite", self.aabb_margin),
            (
                "contact_recycle_distance is NaN or infinite",
                self.contact_recycle_distance,
            ),
            ("max_linear_speed is NaN or infinite", self.max_linear_speed),
            (
                "length_units_per_meter is NaN or infinite",
                self.length_units_per_meter,
            ),
            (
                "sleep_linear_speed is NaN or infinite",
                self.sleep_linear_speed,
            ),
            (
                "sleep_angular_speed is NaN or infinite",
                self.sleep_angular_speed,
            ),
            ("time_to_sleep is NaN or infinite", self.time_to_sleep),
        ];
        if let Some((what, _)) = finite.iter().find(|(_, x)| !x.is_finite()) {
            return Err(InvalidSetting(what));
        }
        if self.substep_count == 0 {
            return Err(InvalidSetting("substep_count must be at least 1"));
        }
        if self.length_units_per_meter <= 0.0 {
            return Err(InvalidSetting("length_units_per_meter must be positive"));
        }
        if self.contact_hertz <= 0.0 || self.joint_hertz <= 0.0 {
            return Err(InvalidSetting("stiffness in hertz must be positive"));
        }
        let non_negative = [
            self.contact_damping_ratio,
            self.joint_damping_ratio,
            self.restitution_threshold,
            self.hit_event_threshold,
            self.max_contact_push_speed,
            self.linear_slop,
            self.speculative_distance,
            self.aabb_margin,
            self.contact_recycle_distance,
            self.sleep_linear_speed,
            self.sleep_angular_speed,
            self.time_to_sleep,
        ];
        if non_negative.iter().any(|x| *x < 0.0) {
            return Err(InvalidSetting(
                "damping ratios, speeds and tolerances must not be negative",
            ));
        }
        if self.max_linear_speed <= 0.0 {
            return Err(InvalidSetting("max_linear_speed must be positive"));
        }
        // Infinity is allowed (no tree is solved exactly); NaN is refused.
        let ratio = self.exact_joint_mass_ratio;
        if ratio.is_nan() || ratio < 1.0 {
            return Err(InvalidSetting(
                "exact_joint_mass_ratio must be at least 1 (or infinite)",
            ));
        }
        let fraction = self.carried_mass_fraction;
        if !(0.0..1.0).contains(&fraction) {
            return Err(InvalidSetting(
                "carried_mass_fraction must be at least 0 and below 1",
            ));
        }
        Ok(())
    }

    pub(crate) fn tolerances(&self) -> Tolerances {
        let unit = self.length_units_per_meter;
        Tolerances {
            linear_slop: self.linear_slop * unit,
            speculative_distance: self.speculative_distance * unit,
            aabb_margin: self.aabb_margin * unit,
            contact_recycle_distance: self.contact_recycle_distance * unit,
            restitution_threshold: self.restitution_threshold * unit,
            max_contact_push_speed: self.max_contact_push_speed * unit,
            max_linear_speed: self.max_linear_speed * unit,
            sleep_linear_speed: self.sleep_linear_speed * unit,
            hit_event_threshold: self.hit_event_threshold * unit,
        }
    }
}
