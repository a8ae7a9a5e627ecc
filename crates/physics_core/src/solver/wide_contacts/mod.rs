//! The coloured contact constraints solved in SIMD lanes, four or eight at a time, the width
//! chosen when the world is created.
//!
//! - `kernel.rs`: the solve itself, written once over a `Lanes` type and compiled once per
//!   width (with `block.rs`, the two-point block solve in lanes).
//! - `four.rs`: four lanes of `wide::f32x4` (SSE2 on x86-64, NEON on aarch64), on every
//!   machine.
//! - `eight.rs` and `avx8.rs`: eight lanes in AVX registers, on x86-64 processors with AVX2,
//!   found at run time: a default build ships both and uses the wider one where the
//!   processor has it, with no `-C target-cpu` flag.
//! - this file: the layout of a step's constraints in groups of either width, and the
//!   choice between them ([`ContactLanes`]).
//!
//! Both widths give the same bits (the kernel's note on operation order), so the choice
//! changes the speed only: a world may switch between them at any step, and peers on
//! different processors stay in step.

use super::contact_solver::{
    ConstraintBody, ContactSolveSettings, ContactSurface, SolvedPoint, TwoPoints,
};
use super::graph_coloring::GraphColoring;
use crate::collision::Manifold;
use crate::parallel::shared::StatesView;
use std::ops::Range;

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx8;
#[cfg(target_arch = "x86_64")]
mod eight;
mod four;

/// Marks an empty lane in [`WideContacts::lanes`].
pub(crate) const EMPTY_LANE: u32 = u32::MAX;

/// Which SIMD path solves the coloured contacts. Both give the same bits; only the speed
/// differs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ContactLanes {
    /// The widest path this processor runs: eight lanes with AVX2, four otherwise. Decided
    /// once, when the world is created or this is set.
    #[default]
    Detect,
    /// Four lanes (SSE2 on x86-64, NEON on aarch64): every processor has them.
    Four,
    /// Eight lanes in AVX registers: x86-64 processors with AVX2 only.
    Eight,
}

impl ContactLanes {
    /// Whether this processor can run `self` (always, for [`ContactLanes::Detect`] and
    /// [`ContactLanes::Four`]).
    pub fn is_supported(self) -> bool {
        match self {
            ContactLanes::Detect | ContactLanes::Four => true,
            ContactLanes::Eight => eight_lanes_supported(),
        }
    }

    /// The path [`ContactLanes::Detect`] picks on this processor (`self` for the others).
    pub fn resolve(self) -> ContactLanes {
        match self {
            ContactLanes::Detect if eight_lanes_supported() => ContactLanes::Eight,
            ContactLanes::Detect => ContactLanes::Four,
            other => other,
        }
    }
}

/// Whether this processor runs the eight-lane path: x86-64 with AVX2 (the answer is
/// cached by the standard library after the first call).
fn eight_lanes_supported() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// One width's group of [`N`] constraints of a colour, and the solve over such groups.
/// Implemented by `four::WideConstraint` and `eight::WideConstraint`.
pub(crate) trait LaneGroup<const N: usize>: Copy + Default + Send + Sync {
    /// Makes every lane empty: zero masses and impulses between fixed bodies.
    fn clear(&mut self);

    /// Builds the constraint of a touching manifold straight into lane `lane`.
    #[allow(clippy::too_many_arguments)]
    fn prepare_lane(
        &mut self,
        lane: usize,
        manifold: &Manifold,
        surface: &ContactSurface,
        a: &ConstraintBody,
        b: &ConstraintBody,
        settings: &ContactSolveSettings,
    );

    /// Once their lanes are prepared: notes in each group which lanes have their two points
    /// solved together, as `two_points` decides (the block solver's,
    /// `block_solver::BlockMatrix::for_points`, or those whose rows couple loosely,
    /// `points_together::together_matrix`, in lanes).
    fn mark_blocks(groups: &mut [Self], two_points: TwoPoints);

    /// The impulses and restitution data of lane `lane`.
    fn lane_results(&self, lane: usize) -> [SolvedPoint; 2];

    /// Warm starts groups of one colour.
    fn warm_start(groups: &[Self], states: &mut StatesView);

    /// Solves groups of one colour once: with bias or rigid (`use_bias`), two-point
    /// manifolds as `two_points` says.
    fn solve(
        groups: &mut [Self],
        states: &mut StatesView,
        inv_h: f32,
        use_bias: bool,
        max_push_speed: f32,
        two_points: TwoPoints,
    );

    /// Applies restitution to groups of one colour.
    fn restitution(groups: &mut [Self], states: &mut StatesView, threshold: f32);
}

/// The coloured contact constraints of a step in groups of `N` lanes.
pub(crate) struct WideContacts<const N: usize, G> {
    pub groups: Vec<G>,
    /// Constraint index of every lane of every group (`EMPTY_LANE` for padding, always at
    /// the end of a group).
    pub lanes: Vec<[u32; N]>,
    /// Groups of each colour, in colour order.
    pub colors: Vec<Range<usize>>,
    /// The layout's scratch: a colour's constraints with their rank (their share, or with
    /// `block_first` twice their share and one more unless named), kept for its allocation.
    ranked_scratch: Vec<(usize, u32)>,
}

impl<const N: usize, G> Default for WideContacts<N, G> {
    fn default() -> Self {
        WideContacts {
            groups: Vec::new(),
            lanes: Vec::new(),
            colors: Vec::new(),
            ranked_scratch: Vec::new(),
        }
    }
}

impl<const N: usize, G: LaneGroup<N>> WideContacts<N, G> {
    /// Lays the coloured constraints out in groups of `N`, colour by colour, and sets
    /// `positions[k]` of each laid-out constraint `k` to `N * group + lane`; the groups
    /// are filled lane by lane by [`LaneGroup::prepare_lane`].
    ///
    /// Within a colour, the constraints come by the worker share of the bodies they move
    /// (`share_of(k)`, below `shares`), in constraint order within a share. The colour stages
    /// hand each worker its share of every colour's groups (`parallel/stages.rs`) and the
    /// body stages its share of the bodies, so a worker mostly moves the bodies it
    /// integrates, in its own cache, rather than bodies the other core wrote a colour ago.
    /// The order within a colour changes no result: no two of its constraints move the same
    /// body, and a lane reads and writes only its own bodies, so any order gives the same
    /// bits.
    ///
    /// With `block_first`, each share's constraints it names come first: the block solver's
    /// likely blocks (`block_solver::holds_a_centre`) then fill groups of their own, and a
    /// group of blocks does not also run the point-by-point solve for one or two lanes, nor
    /// a group of points the block's. Only the grouping follows it, never a result.
    pub fn layout(
        &mut self,
        coloring: &GraphColoring,
        positions: &mut [u32],
        shares: usize,
        share_of: &dyn Fn(u32) -> usize,
        block_first: Option<&dyn Fn(u32) -> bool>,
    ) {
        self.lanes.clear();
        self.colors.clear();
        let mut later = std::mem::take(&mut self.ranked_scratch);
        for color in &coloring.colors {
            let start = self.lanes.len();
            let mut lanes = [EMPTY_LANE; N];
            let mut filled = 0;
            let mut place = |k: u32, laid: &mut Vec<[u32; N]>| {
                lanes[filled] = k;
                positions[k as usize] = (N * laid.len() + filled) as u32;
                filled += 1;
                if filled == N {
                    laid.push(lanes);
                    lanes = [EMPTY_LANE; N];
                    filled = 0;
                }
            };
            later.clear();
            if let Some(block_first) = block_first {
                // By share, and within one the likely blocks first, in constraint order.
                for &k in color {
                    let share = if shares > 1 { share_of(k) } else { 0 };
                    later.push((2 * share + usize::from(!block_first(k)), k));
                }
                // Constraint indices are unique: an unstable sort by (rank, k) keeps
                // constraint order within a rank, without the stable sort's allocation.
                later.sort_unstable();
                for &(_, k) in later.iter() {
                    place(k, &mut self.lanes);
                }
            } else {
                // The first share's constraints at once, the others' kept with their share.
                for &k in color {
                    let share = if shares > 1 { share_of(k) } else { 0 };
                    if share == 0 {
                        place(k, &mut self.lanes);
                    } else {
                        later.push((share, k));
                    }
                }
                for share in 1..shares {
                    for &(_, k) in later.iter().filter(|(s, _)| *s == share) {
                        place(k, &mut self.lanes);
                    }
                }
            }
            if filled > 0 {
                self.lanes.push(lanes);
            }
            if self.lanes.len() > start {
                self.colors.push(start..self.lanes.len());
            }
        }
        self.ranked_scratch = later;
        self.groups.resize(self.lanes.len(), G::default());
    }
}

/// A step's contact groups in the width the world runs.
pub(crate) enum ContactGroups {
    /// Groups of four lanes.
    Four(four::Contacts),
    /// Groups of eight AVX lanes; only built on a processor with AVX2.
    #[cfg(target_arch = "x86_64")]
    Eight(eight::Contacts),
}

impl Default for ContactGroups {
    /// Empty groups of the widest path this processor runs.
    fn default() -> Self {
        ContactGroups::new(ContactLanes::Detect).unwrap_or(ContactGroups::Four(Default::default()))
    }
}

impl ContactGroups {
    /// Empty groups of the width `lanes` asks for; `None` when this processor cannot run it.
    pub fn new(lanes: ContactLanes) -> Option<ContactGroups> {
        match lanes.resolve() {
            ContactLanes::Four => Some(ContactGroups::Four(Default::default())),
            #[cfg(target_arch = "x86_64")]
            ContactLanes::Eight if eight_lanes_supported() => {
                Some(ContactGroups::Eight(Default::default()))
            }
            _ => None,
        }
    }

    /// The width these groups have: [`ContactLanes::Four`] or [`ContactLanes::Eight`].
    pub fn lanes(&self) -> ContactLanes {
        match self {
            ContactGroups::Four(_) => ContactLanes::Four,
            #[cfg(target_arch = "x86_64")]
            ContactGroups::Eight(_) => ContactLanes::Eight,
        }
    }

    /// Lays the coloured constraints out in groups ([`WideContacts::layout`]).
    pub fn layout(
        &mut self,
        coloring: &GraphColoring,
        positions: &mut [u32],
        shares: usize,
        share_of: &dyn Fn(u32) -> usize,
        block_first: Option<&dyn Fn(u32) -> bool>,
    ) {
        match self {
            ContactGroups::Four(w) => w.layout(coloring, positions, shares, share_of, block_first),
            #[cfg(target_arch = "x86_64")]
            ContactGroups::Eight(w) => w.layout(coloring, positions, shares, share_of, block_first),
        }
    }

    /// Lanes in all groups, empty ones included: where the overflow starts among the
    /// constraint positions.
    pub fn lane_count(&self) -> usize {
        match self {
            ContactGroups::Four(w) => 4 * w.lanes.len(),
            #[cfg(target_arch = "x86_64")]
            ContactGroups::Eight(w) => 8 * w.lanes.len(),
        }
    }
}
