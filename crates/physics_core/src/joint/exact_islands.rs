//! Exact solve of the equality rows of small joint trees.
//!
//! Soft rows settle where their bias balances the load, leaving a joint open by K F / w^2, and
//! solving rigid rows one at a time (Gauss-Seidel) overshoots on strongly coupled structures
//! such as a welded cantilever. For islands of joints that form a tree (no loop, counting all
//! static bodies as one ground node; Baraff's joint trees, from the ODE notes) with at most `MAX_EXACT_ROWS`
//! equality rows, all those rows are solved together each iteration:
//!
//!   A lambda = -(J v + bias),   A = J M^-1 J^T (dense, symmetric positive definite),
//!
//! with the rigid mass (no impulse leak) and the joint softness's bias rate on the position
//! error (and in the biased solve the pins' curvature, `CurvatureRow`, so a swing keeps its
//! speed), eliminated joint by joint from the leaves of the tree (`tree_solve.rs`: linear in
//! the joint count, no matrix formed). The rows are the point rows of revolute and rigid weld
//! joints (J as in `revolute.rs`), the weld angle row, and the prismatic perpendicular and
//! angle rows (J as in `prismatic.rs`). Limits, motors and springs stay in the joint's own rows.
//!
//! The elimination runs in f64. A chain of light links ending in a heavy body is the
//! hard case: along the straight chain the end can hardly move, so the last pivots of the
//! factorisation are the heavy body's tiny inverse mass left over after subtracting terms
//! thousands of times larger. In f32 that difference drowned in rounding from a mass ratio of
//! about 1000:1 and the pins tore apart; f64 keeps nine more digits. A solve that still cannot
//! be trusted (a pivot that is not clearly positive, a non-finite result, or a result that
//! does not satisfy the system) hands the island's joints back to their own soft rows for the
//! rest of the step: they then stretch as soft joints do, but never diverge.
//!
//! Which trees are solved this way (`mark_exact_islands`) follows where soft rows fail. A tree
//! that hangs from the world (a static or kinematic body, or another joint tying it to
//! something outside it) carries its whole weight and whatever pulls it through its pins, so
//! soft pins stretch along it; a tree with a heavy end defeats the sequential solve however it
//! is held. A free tree of similar masses, such as a ragdoll falling or lying on the ground,
//! loads its pins only with its own swing and its contacts: there the soft rows hold as well as
//! Box2D v3's do, at a fifth of the exact solve's cost.

use super::tree_solve::{
    EdgeBlocks, NO_PARENT, TreeEdge, TreeFactor, TreeWork, V3, elimination_order, factor_tree,
    jacobian_times, respond, row_diagonal, substitute,
};
use super::{JointConstraint, JointKind, RowContext};
use crate::math::{cross, left_perp};
use crate::solver::body_state::{BodyState, STATIC_BODY, read_state};
use bevy_math::Vec2;

/// Islands with more equality rows than this are left to the per-joint rows (a long chain
/// gains little from the exact solve, and its joints then run in the parallel joint stages).
pub(crate) const MAX_EXACT_ROWS: usize = 96;

/// Joints (indices into the step's joint constraints) whose equality rows are solved together.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ExactIsland {
    pub joints: Vec<usize>,
    /// The joints (by place in `joints`, with their rows) in the tree's elimination order.
    tree: Vec<TreeEdge>,
    /// The island's dynamic bodies by solver index, sorted; the tree's local body indices
    /// point here.
    bodies: Vec<u32>,
    /// Whether the tree hangs from something outside it: one of its joints holds it to a
    /// static body, or another joint (a mouse, distance, motor or spring joint, ...) ties one
    /// of its bodies to a body outside the tree. Its pins then carry that load.
    held: bool,
}

/// Number of equality rows a joint contributes to an exact island.
pub(crate) fn exact_rows(kind: &JointKind) -> usize {
    match kind {
        JointKind::Revolute(_) => 2,
        JointKind::Weld(w) if w.linear_hertz == 0.0 && w.angular_hertz == 0.0 => 3,
        JointKind::Prismatic(_) => 2,
        _ => 0,
    }
}

/// Groups the exactly solvable joints into islands through their dynamic bodies and returns
/// the islands that are trees small enough to solve exactly, each with its elimination order.
/// Which of them are solved exactly is decided each step by [`mark_exact_islands`].
pub(crate) fn build_exact_islands(
    joints: &mut [JointConstraint],
    body_count: usize,
) -> Vec<ExactIsland> {
    let mut parent: Vec<usize> = (0..body_count).collect();
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for c in joints.iter() {
        let (a, b) = (c.frame.index_a, c.frame.index_b);
        if exact_rows(&c.kind) > 0 && a != STATIC_BODY && b != STATIC_BODY {
            let (ra, rb) = (find(&mut parent, a as usize), find(&mut parent, b as usize));
            if ra != rb {
                parent[ra.max(rb)] = ra.min(rb);
            }
        }
    }
    // Trees tied to the world or to another island by a joint without exact rows: both ends'
    // islands carry what that joint pulls (a mouse joint's body A is the static target).
    let mut pulled = vec![false; body_count];
    for c in joints.iter() {
        let (a, b) = (c.frame.index_a, c.frame.index_b);
        if exact_rows(&c.kind) > 0 {
            continue;
        }
        let root =
            |parent: &mut Vec<usize>, x: u32| (x != STATIC_BODY).then(|| find(parent, x as usize));
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        if ra != rb {
            for r in [ra, rb].into_iter().flatten() {
                pulled[r] = true;
            }
        }
    }
    // Islands keyed by root body, in joint order (deterministic), with their row count, their
    // dynamic bodies and whether they hang from static bodies.
    struct Gathered {
        island: ExactIsland,
        rows: usize,
        bodies: Vec<u32>,
        grounded: bool,
        root: usize,
    }
    let mut by_root: Vec<Option<usize>> = vec![None; body_count];
    let mut gathered: Vec<Gathered> = Vec::new();
    for (i, c) in joints.iter().enumerate() {
        let rows = exact_rows(&c.kind);
        if rows == 0 {
            continue;
        }
        let (a, b) = (c.frame.index_a, c.frame.index_b);
        let body = if a != STATIC_BODY { a } else { b };
        if body == STATIC_BODY {
            continue;
        }
        let root = find(&mut parent, body as usize);
        let slot = *by_root[root].get_or_insert_with(|| {
            gathered.push(Gathered {
                island: ExactIsland::default(),
                rows: 0,
                bodies: Vec::new(),
                grounded: false,
                root,
            });
            gathered.len() - 1
        });
        let g = &mut gathered[slot];
        g.rows += rows;
        if g.rows > MAX_EXACT_ROWS {
            // Too big to be exact whatever else joins: stop collecting (a grid of ten thousand
            // pins would otherwise sort twenty thousand body indices every step).
            continue;
        }
        g.island.joints.push(i);
        g.grounded |= a == STATIC_BODY || b == STATIC_BODY;
        g.bodies
            .extend([a, b].into_iter().filter(|x| *x != STATIC_BODY));
    }
    let mut out = Vec::new();
    for mut g in gathered {
        if g.rows > MAX_EXACT_ROWS {
            continue;
        }
        g.bodies.sort_unstable();
        g.bodies.dedup();
        // Seed 003: the direct method is for joint trees. A loop (through the ground or not)
        // can make the rigid system singular, as a taut bridge pinned at both ends is: an
        // inextensible straight span cannot sag, so its tension has no bound. Loops keep the
        // soft per-joint rows.
        let nodes = g.bodies.len() + usize::from(g.grounded);
        let is_tree = g.island.joints.len() + 1 == nodes;
        if !is_tree {
            continue;
        }
        let ends: Vec<(u32, u32)> = g
            .island
            .joints
            .iter()
            .map(|&j| (joints[j].frame.index_a, joints[j].frame.index_b))
            .collect();
        let rows: Vec<u32> = g
            .island
            .joints
            .iter()
            .map(|&j| exact_rows(&joints[j].kind) as u32)
            .collect();
        if let Some(tree) = elimination_order(&ends, &rows, &g.bodies) {
            g.island.tree = tree;
            g.island.bodies = g.bodies;
            g.island.held = g.grounded || pulled[g.root];
            out.push(g.island);
        }
    }
    out
}

/// Marks the joints of the islands solved exactly this step (`WorldDef::exact_joint_mass_ratio`):
/// those that hang from something outside them (`ExactIsland::held`) and those whose heaviest
/// dynamic body is at least `mass_ratio` times their lightest. The others keep their soft
/// per-joint rows. A body of infinite mass (inverse mass 0) counts as heavier than any ratio
/// asks. An infinite ratio solves nothing exactly.
pub(crate) fn mark_exact_islands(
    islands: &[ExactIsland],
    joints: &mut [JointConstraint],
    mass_ratio: f32,
) {
    let any_exact = mass_ratio.is_finite();
    for island in islands {
        // The lightest body has the largest inverse mass, the heaviest the smallest.
        let (mut lightest, mut heaviest) = (0.0f32, f32::INFINITY);
        for &j in &island.joints {
            let f = &joints[j].frame;
            for (body, inv_mass) in [(f.index_a, f.inv_mass_a), (f.index_b, f.inv_mass_b)] {
                if body != STATIC_BODY {
                    lightest = lightest.max(inv_mass);
                    heaviest = heaviest.min(inv_mass);
                }
            }
        }
        // heaviest mass / lightest mass >= ratio; infinity times 0 is NaN: not exact.
        let exact = any_exact && (island.held || lightest >= mass_ratio * heaviest);
        for &j in &island.joints {
            joints[j].exact = exact;
        }
    }
}

/// What an island's kept system holds at the current pose and impulses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Kept {
    /// Nothing current: the rows must be gathered again.
    #[default]
    Nothing,
    /// The blocks, errors and masses.
    Rows,
    /// Those and their factorisation.
    Factored,
}

/// One island's system, kept between the stages of a step while the pose and the impulses
/// it was built from stay the same.
///
/// Within a substep the projection gathers the rows after the positions move; when they are
/// already closed, the relax solve uses those rows as they are. Between the relax of one
/// substep and the biased solve of the next only velocities change (gravity, warm starting),
/// so that solve reuses the relax's factorisation with its own right-hand side. The answers
/// are the same bits as from a system built afresh.
#[derive(Default)]
struct IslandSystem {
    /// Per tree joint (elimination order): its rows' Jacobian blocks on its child and parent.
    blocks: Vec<EdgeBlocks>,
    /// Per row (the island's row order, joint by joint): the position error C.
    errors: Vec<f32>,
    /// Per row: whether it is an angle row (no linear part), closed to its own tolerance.
    angular: Vec<bool>,
    /// Per row: what bends it as the bodies turn (`CurvatureRow`).
    curvature: Vec<CurvatureRow>,
    /// Per island body (local index): inverse mass and (stiffened) inverse inertia.
    inv_mass: Vec<(f64, f64)>,
    factor: TreeFactor,
    kept: Kept,
}

/// How a point row's error changes as the bodies turn at constant spin: the row's
/// component of each anchor and the island bodies (local indices) they turn with. Rows
/// without a turning anchor (angle rows, prismatic rows) keep zero components, and a body
/// outside the island (static or kinematic) counts as not turning.
///
/// A pin's error C = pB + rB - pA - rA is not linear in the rotations: at constant
/// velocities the anchors swing along arcs, and C'' = wA^2 rA - wB^2 rB. A velocity solve
/// that only makes J v = -bias moves the bodies along the tangents, off the arcs, and the
/// next solve at the new pose throws away the part of the velocity that points off them:
/// a pendulum loses (w h)^2 of its kinetic energy every substep (0.0033 rad of a 0.5 rad
/// swing in 10 s). The biased solve therefore asks for the velocity whose straight move over
/// the substep lands on the arc, J v = -bias - (h / 2) C''. That velocity leans inward by
/// half the substep's turn and is longer by the same factor the next pose's projection
/// takes off, so the swing keeps its speed (as Box2D v3's soft pins do, whose bias settles
/// at that same inward push).
#[derive(Clone, Copy, Default)]
struct CurvatureRow {
    local_a: u32,
    local_b: u32,
    ra: f32,
    rb: f32,
}

/// Buffers the island solve reuses across substeps and steps, so the solver loop allocates
/// nothing once they have grown to the largest island.
#[derive(Default)]
pub(crate) struct IslandScratch {
    /// Per exact island (same order): its kept system.
    systems: Vec<IslandSystem>,
    /// Per island body (local index): the summed moment h |lambda . r| of the pins pulling
    /// on it.
    stiffness: Vec<f32>,
    work: TreeWork,
    /// Per island body: the change W J^T x the last solution makes to its velocity (or, in a
    /// projection, its position).
    response: Vec<V3>,
    /// A x for the last solution, to check it against the right-hand side.
    product: Vec<f64>,
    rhs: Vec<f64>,
    solution: Vec<f64>,
}

impl IslandScratch {
    /// Forgets every kept system: a new step has new joint frames. `islands` is the step's
    /// exact island count.
    pub(crate) fn begin_step(&mut self, islands: usize) {
        self.systems.resize_with(islands, IslandSystem::default);
        for system in &mut self.systems {
            system.kept = Kept::Nothing;
        }
    }
}

/// A joint's equality rows at the current motion: per row the Jacobian (linear, angular) on
/// body A and on body B and the position error; and the current anchors.
struct JointRows {
    count: usize,
    ja: [(Vec2, f32); 3],
    jb: [(Vec2, f32); 3],
    errors: [f32; 3],
    ra: Vec2,
    rb: Vec2,
}

fn joint_rows(c: &JointConstraint, sa: &BodyState, sb: &BodyState) -> JointRows {
    let f = &c.frame;
    let (ra, rb, d) = f.current(sa, sb);
    let mut rows = JointRows {
        count: 0,
        ja: [(Vec2::ZERO, 0.0); 3],
        jb: [(Vec2::ZERO, 0.0); 3],
        errors: [0.0; 3],
        ra,
        rb,
    };
    let mut push = |ja: (Vec2, f32), jb: (Vec2, f32), error: f32| {
        rows.ja[rows.count] = ja;
        rows.jb[rows.count] = jb;
        rows.errors[rows.count] = error;
        rows.count += 1;
    };
    match &c.kind {
        JointKind::Revolute(_) | JointKind::Weld(_) => {
            // C = pB + rB - pA - rA: x: vB.x - wB rB.y - vA.x + wA rA.y;
            // y: vB.y + wB rB.x - vA.y - wA rA.x.
            push(
                (Vec2::new(-1.0, 0.0), ra.y),
                (Vec2::new(1.0, 0.0), -rb.y),
                d.x,
            );
            push(
                (Vec2::new(0.0, -1.0), -ra.x),
                (Vec2::new(0.0, 1.0), rb.x),
                d.y,
            );
        }
        JointKind::Prismatic(p) => {
            // C = perp . d: J = (-perp, -(d + rA) x perp) on A, (perp, rB x perp) on B.
            let axis = (sa.delta_rotation * f.rotation_a).rotate(p.local_axis_a);
            let perp = left_perp(axis);
            let (s1, s2) = (cross(d + ra, perp), cross(rb, perp));
            push((-perp, -s1), (perp, s2), perp.dot(d));
        }
        _ => {}
    }
    // C = angle B - angle A - reference: J = (0, -1), (0, 1).
    let reference = match &c.kind {
        JointKind::Weld(w) => Some(w.reference_angle),
        JointKind::Prismatic(p) => Some(p.reference_angle),
        _ => None,
    };
    if let Some(reference) = reference {
        let error = f.angle(sa, sb, reference);
        push((Vec2::ZERO, -1.0), (Vec2::ZERO, 1.0), error);
    }
    rows
}

/// Gathers an island's rows at the current motion as blocks of its tree, with each body's
/// inertia raised by the geometric stiffness of the pins pulling on it (`stiffened`).
fn island_system(
    island: &ExactIsland,
    joints: &[JointConstraint],
    states: &[BodyState],
    h: f32,
    system: &mut IslandSystem,
    stiffness: &mut Vec<f32>,
) {
    let IslandSystem {
        blocks,
        errors,
        angular,
        curvature,
        inv_mass,
        kept,
        ..
    } = system;
    *kept = Kept::Rows;
    let row_count: usize = island.tree.iter().map(|e| e.rows as usize).sum();
    errors.clear();
    errors.resize(row_count, 0.0);
    angular.clear();
    angular.resize(row_count, false);
    curvature.clear();
    curvature.resize(row_count, CurvatureRow::default());
    blocks.clear();
    inv_mass.clear();
    inv_mass.resize(island.bodies.len(), (0.0, 0.0));
    stiffness.clear();
    stiffness.resize(island.bodies.len(), 0.0);
    let wide = |j: (Vec2, f32)| [f64::from(j.0.x), f64::from(j.0.y), f64::from(j.1)];
    for edge in &island.tree {
        let c = &joints[island.joints[edge.joint as usize]];
        let f = &c.frame;
        let (sa, sb) = (read_state(states, f.index_a), read_state(states, f.index_b));
        let rows = joint_rows(c, &sa, &sb);
        let a = (&rows.ja, (f.inv_mass_a, f.inv_inertia_a), rows.ra);
        let b = (&rows.jb, (f.inv_mass_b, f.inv_inertia_b), rows.rb);
        let ((jc, mc, rc), (jp, mp, rp)) = if edge.child_is_a { (a, b) } else { (b, a) };
        let mut block = EdgeBlocks {
            // A pin's point rows: -I on A, I on B, so no linear cross terms (`joint_rows`).
            pin: matches!(c.kind, JointKind::Revolute(_)),
            ..EdgeBlocks::default()
        };
        let first = edge.first_row as usize;
        for r in 0..rows.count {
            block.child[r] = wide(jc[r]);
            block.parent[r] = wide(jp[r]);
            errors[first + r] = rows.errors[r];
            angular[first + r] = jc[r].0 == Vec2::ZERO && jp[r].0 == Vec2::ZERO;
        }
        let pins = matches!(c.kind, JointKind::Revolute(_) | JointKind::Weld(_));
        if pins {
            // The point rows are the x and y of C = pB + rB - pA - rA (`joint_rows`).
            let (local_a, local_b) = if edge.child_is_a {
                (edge.child, edge.parent)
            } else {
                (edge.parent, edge.child)
            };
            for (r, (ra, rb)) in [(rows.ra.x, rows.rb.x), (rows.ra.y, rows.rb.y)]
                .into_iter()
                .enumerate()
            {
                curvature[first + r] = CurvatureRow {
                    local_a,
                    local_b,
                    ra,
                    rb,
                };
            }
        }
        blocks.push(block);
        let lambda = c.impulses.linear;
        for (local, (m, i), r) in [(edge.child, mc, rc), (edge.parent, mp, rp)] {
            if local == NO_PARENT {
                continue;
            }
            inv_mass[local as usize] = (f64::from(m), f64::from(i));
            if pins {
                stiffness[local as usize] += h * lambda.dot(r).abs();
            }
        }
    }
    // Where the pins' geometric stiffness raises a body's inertia, the arcs its anchors swing
    // along are not followed either: its turn is left out of the curvature in the same
    // proportion.
    let kept_turn = |local: u32| -> f32 {
        if local == NO_PARENT {
            return 0.0;
        }
        let local = local as usize;
        unstiffened_share(inv_mass[local].1 as f32, stiffness[local])
    };
    for k in curvature.iter_mut() {
        k.ra *= kept_turn(k.local_a);
        k.rb *= kept_turn(k.local_b);
    }
    for (mass, &x) in inv_mass.iter_mut().zip(stiffness.iter()) {
        // The inertia came from an f32: the round trip is exact.
        mass.1 = f64::from(stiffened(mass.1 as f32, x));
    }
}

/// The inverse inertia of a body whose pins pull on it with impulses of moment `x`
/// (h |lambda . r| summed, kg m^2): 1 / (I + x^2 / I).
///
/// A pin's tension T pulling at lever arm r makes the body's rotation a spring of stiffness
/// |T . r| (the geometric stiffness, from the second derivative of C in the rotation), which
/// the step integrates explicitly, the tension's direction being taken at the start of the
/// substep. Its frequency w satisfies (w h)^2 = h |lambda . r| / I = x / I, so a light link
/// holding a heavy end (x far above I) rings faster than the substep can follow and whips
/// itself apart. Raising the inertia to I (1 + (x / I)^2) keeps (w h)^2 = (x/I) / (1 + (x/I)^2)
/// at or below 1/2 however large the tension, and changes nothing measurable where the
/// tension is small (a light link hanging under its neighbours: x / I around 0.02, inertia
/// up by 0.04 %). The implicit treatment of geometric stiffness (Andrews, Teichmann and Kry,
/// 2017) adds x itself; the square keeps lightly loaded chains as they were.
fn stiffened(inv_inertia: f32, x: f32) -> f32 {
    inv_inertia / inertia_growth(inv_inertia, x)
}

/// What share of a body's inverse inertia [`stiffened`] keeps: 1 / (1 + (x / I)^2).
fn unstiffened_share(inv_inertia: f32, x: f32) -> f32 {
    1.0 / inertia_growth(inv_inertia, x)
}

/// The factor [`stiffened`] raises the inertia by: 1 + (x / I)^2.
fn inertia_growth(inv_inertia: f32, x: f32) -> f32 {
    let ratio = x * inv_inertia;
    1.0 + ratio * ratio
}

/// Right-hand side of a velocity solve, -(J v + bias) + half_h (wB^2 rB - wA^2 rA), row
/// by row: `half_h` is half the substep for the biased solve (the turn of the anchors,
/// `CurvatureRow`) and zero for the relax.
fn velocity_rhs(
    island: &ExactIsland,
    system: &IslandSystem,
    states: &[BodyState],
    bias_rate: f32,
    half_h: f32,
    rhs: &mut Vec<f64>,
) {
    rhs.clear();
    rhs.resize(system.errors.len(), 0.0);
    let velocity = |local: u32| {
        let s = &states[island.bodies[local as usize] as usize];
        let (v, w) = (s.linear_velocity, s.angular_velocity);
        [f64::from(v.x), f64::from(v.y), f64::from(w)]
    };
    jacobian_times(&island.tree, &system.blocks, velocity, rhs);
    for (row, &error) in rhs.iter_mut().zip(&system.errors) {
        *row = -(*row + f64::from(bias_rate * error));
    }
    if half_h > 0.0 {
        let spin = |local: u32| {
            if local == NO_PARENT {
                0.0
            } else {
                states[island.bodies[local as usize] as usize].angular_velocity
            }
        };
        for (row, k) in rhs.iter_mut().zip(&system.curvature) {
            let (wa, wb) = (spin(k.local_a), spin(k.local_b));
            *row += f64::from(half_h * (wb * wb * k.rb - wa * wa * k.ra));
        }
    }
}

/// Adds each island body's `response` (W J^T lambda) to its velocity or, with `positions`,
/// to its position and rotation.
fn apply(island: &ExactIsland, response: &[V3], states: &mut [BodyState], positions: bool) {
    for (&body, d) in island.bodies.iter().zip(response) {
        let s = &mut states[body as usize];
        let linear = Vec2::new(d[0] as f32, d[1] as f32);
        if positions {
            s.delta_position += linear;
            s.delta_rotation = s.delta_rotation.integrate(d[2] as f32);
        } else {
            s.linear_velocity += linear;
            s.angular_velocity += d[2] as f32;
        }
    }
}

/// Whether the island's joints are still solved exactly this step (a failed solve hands them
/// back to their soft rows until the step ends).
fn trusted(island: &ExactIsland, joints: &[JointConstraint]) -> bool {
    island.joints.first().is_some_and(|&j| joints[j].exact)
}

/// Hands the island's joints back to their own soft rows for the rest of the step.
fn distrust(island: &ExactIsland, joints: &mut [JointConstraint]) {
    for &j in &island.joints {
        joints[j].exact = false;
    }
}

/// Solves every exact island once: rigid rows with the softness bias rate (relax: no bias).
pub(crate) fn solve_exact_islands(
    islands: &[ExactIsland],
    joints: &mut [JointConstraint],
    states: &mut [BodyState],
    bias_rate: f32,
    ctx: &RowContext,
    scratch: &mut IslandScratch,
) {
    let bias_rate = if ctx.use_bias { bias_rate } else { 0.0 };
    for (k, island) in islands.iter().enumerate() {
        if !trusted(island, joints) {
            continue;
        }
        let system = &mut scratch.systems[k];
        if system.kept == Kept::Nothing {
            island_system(
                island,
                joints,
                states,
                ctx.h,
                system,
                &mut scratch.stiffness,
            );
        }
        let half_h = if ctx.use_bias { 0.5 * ctx.h } else { 0.0 };
        velocity_rhs(island, system, states, bias_rate, half_h, &mut scratch.rhs);
        if !scratch.solve(k, island) {
            distrust(island, joints);
            continue;
        }
        apply(island, &scratch.response, states, false);
        if ctx.use_bias {
            // The impulses below weigh the next system's inertia (`stiffened`): this one is
            // spent. (Relaxed, it stays: the next substep's biased solve meets the same pose
            // and impulses.)
            scratch.systems[k].kept = Kept::Nothing;
            // Keep the biased solve's impulse per joint for reaction forces and breaking.
            let mut first = 0;
            for &j in &island.joints {
                let c = &mut joints[j];
                let count = exact_rows(&c.kind);
                let l = &scratch.solution[first..first + count];
                c.impulses.linear = Vec2::new(l[0] as f32, l[1] as f32);
                if count == 3 {
                    c.impulses.angular = l[2] as f32;
                }
                first += count;
            }
        }
    }
}

/// Most Newton steps of one projection (`project_exact_islands`).
const MAX_PROJECTION_STEPS: usize = 8;

/// Largest angle error (rad) an exact island's projection leaves.
const ANGULAR_PROJECTION_TOLERANCE: f32 = 1e-5;

/// Closes the islands' position errors: Newton steps A lambda = -C at the current pose, applied
/// to positions (velocities untouched), until every pin is closed to `tolerance` (angle rows to
/// `ANGULAR_PROJECTION_TOLERANCE`) or `MAX_PROJECTION_STEPS` are taken. Run after each position
/// integration, it removes the drift a velocity solve leaves on rotating bodies (anchors move
/// along arcs, not tangents).
///
/// C is not linear in the rotations, so one step leaves an error of the order of the squared
/// correction. Under a heavy end that matters: a 20-link chain holding a disk 1000 times a
/// link's mass tore apart at the bottom of its swing after 2 s with one step per substep (the
/// light links whip round, each step's leftover grew the next one's), and holds to 0.01 mm
/// for 10 s with steps repeated until closed. A resting island is already closed: it costs
/// one assembly and no solve.
pub(crate) fn project_exact_islands(
    islands: &[ExactIsland],
    joints: &mut [JointConstraint],
    states: &mut [BodyState],
    tolerance: f32,
    h: f32,
    scratch: &mut IslandScratch,
) {
    for (k, island) in islands.iter().enumerate() {
        for _ in 0..MAX_PROJECTION_STEPS {
            if !trusted(island, joints) {
                break;
            }
            let system = &mut scratch.systems[k];
            island_system(island, joints, states, h, system, &mut scratch.stiffness);
            let closed = system
                .errors
                .iter()
                .zip(&system.angular)
                .all(|(c, &angular)| {
                    let limit = if angular {
                        ANGULAR_PROJECTION_TOLERANCE
                    } else {
                        tolerance
                    };
                    c.abs() <= limit
                });
            if closed {
                break;
            }
            scratch.rhs.clear();
            scratch
                .rhs
                .extend(system.errors.iter().map(|&c| -f64::from(c)));
            if scratch.solve(k, island) {
                apply(island, &scratch.response, states, true);
                // The bodies moved: the rows are no longer the pose's.
                scratch.systems[k].kept = Kept::Nothing;
            } else {
                distrust(island, joints);
            }
        }
    }
}

impl IslandScratch {
    /// Solves island `k`'s kept system (its rows gathered) for `rhs` into `solution` and the
    /// bodies' `response`, factoring it first unless already factored; false when the answer
    /// cannot be trusted: a pivot is not clearly positive, or the result is not finite or does
    /// not satisfy the system to a millionth of its right-hand side.
    fn solve(&mut self, k: usize, island: &ExactIsland) -> bool {
        let system = &mut self.systems[k];
        let n = system.errors.len();
        if system.kept != Kept::Factored {
            // A tiny diagonal regularisation for redundant rows: a trillionth of the mean
            // diagonal.
            let trace: f64 = island
                .tree
                .iter()
                .zip(&system.blocks)
                .map(|(edge, block)| {
                    (0..edge.rows as usize)
                        .map(|r| row_diagonal(edge, block, &system.inv_mass, r))
                        .sum::<f64>()
                })
                .sum();
            let regularisation = 1e-12 * trace / n.max(1) as f64;
            let factored = factor_tree(
                &island.tree,
                &system.blocks,
                &system.inv_mass,
                regularisation,
                &mut system.factor,
                &mut self.work,
            );
            if !factored {
                system.kept = Kept::Nothing;
                return false;
            }
            system.kept = Kept::Factored;
        }
        self.solution.clear();
        self.solution.resize(n, 0.0);
        substitute(
            &island.tree,
            &system.blocks,
            &system.factor,
            &self.rhs,
            &mut self.solution,
            &mut self.work,
        );
        self.product.clear();
        self.product.resize(n, 0.0);
        respond(
            &island.tree,
            &system.blocks,
            &system.inv_mass,
            self.work.impulses(),
            &mut self.response,
            &mut self.product,
        );
        let scale = self.rhs.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let worst = self
            .product
            .iter()
            .zip(&self.rhs)
            .fold(0.0f64, |m, (ax, b)| m.max((ax - b).abs()));
        // `max` drops a NaN, so the finiteness test is the one that refuses it.
        worst <= 1e-6 * scale + f64::MIN_POSITIVE && self.solution.iter().all(|x| x.is_finite())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id::BodyId;
    use crate::joint::{JointBody, JointDef, JointFrame, JointImpulses, RevoluteJoint};
    use crate::math::Rot;
    use crate::solver::body_state::BodyState;
    use crate::solver::softness::Softness;

    /// A pin between two unit bodies 1 m apart (solver indices 0 and 1), at their midpoint.
    fn pinned_pair() -> Vec<JointConstraint> {
        let body = |index: u32, x: f32| JointBody {
            solver_index: index,
            inv_mass: 1.0,
            inv_inertia: 6.0,
            center: crate::position::to_position(Vec2::new(x, 0.0)),
            rotation: Rot::IDENTITY,
            local_center: Vec2::ZERO,
        };
        let id = |index| BodyId {
            index,
            generation: 0,
        };
        let kind = JointKind::Revolute(RevoluteJoint::default());
        let def = JointDef::new(
            id(0),
            id(1),
            Vec2::new(0.5, 0.0),
            Vec2::new(-0.5, 0.0),
            kind,
        );
        let frame = JointFrame::new(0, &def, &body(0, 0.0), &body(1, 1.0), Softness::RIGID);
        let mut joints = vec![JointConstraint {
            frame,
            kind,
            impulses: JointImpulses::default(),
            unwrapped_angles: (0.0, 0.0),
            exact: false,
        }];
        let islands = build_exact_islands(&mut joints, 2);
        assert_eq!(islands.len(), 1);
        // Equal masses: exact only when every tree is.
        mark_exact_islands(&islands, &mut joints, 10.0);
        assert!(!joints[0].exact);
        mark_exact_islands(&islands, &mut joints, 1.0);
        assert!(joints[0].exact);
        joints
    }

    /// A solve that cannot be trusted (here a body's velocity went non-finite) hands the
    /// island's joints back to their soft rows for the rest of the step and applies nothing,
    /// so the NaN reaches no other body through the island.
    #[test]
    fn an_untrusted_solve_hands_the_joints_back_to_their_soft_rows() {
        let mut joints = pinned_pair();
        let islands = build_exact_islands(&mut joints, 2);
        let mut states = vec![BodyState::AT_REST; 2];
        states[1].linear_velocity = Vec2::new(f32::NAN, 0.0);
        let ctx = RowContext {
            h: 1.0 / 240.0,
            inv_h: 240.0,
            use_bias: true,
        };
        let mut scratch = IslandScratch::default();
        scratch.begin_step(islands.len());
        solve_exact_islands(&islands, &mut joints, &mut states, 10.0, &ctx, &mut scratch);
        assert!(!joints[0].exact, "the pin is still solved exactly");
        assert_eq!(states[0], BodyState::AT_REST, "the NaN crossed the pin");
        // A good solve keeps the island exact and closes the pin's velocity error.
        let mut joints = pinned_pair();
        let mut states = vec![BodyState::AT_REST; 2];
        states[1].linear_velocity = Vec2::new(0.0, 1.0);
        scratch.begin_step(islands.len());
        solve_exact_islands(&islands, &mut joints, &mut states, 10.0, &ctx, &mut scratch);
        assert!(joints[0].exact);
        let (a, b) = (states[0], states[1]);
        // Point velocities at the pin: vA + wA x (0.5, 0) and vB + wB x (-0.5, 0).
        let at_a = a.linear_velocity + Vec2::new(0.0, 0.5 * a.angular_velocity);
        let at_b = b.linear_velocity + Vec2::new(0.0, -0.5 * b.angular_velocity);
        assert!(at_a.distance(at_b) < 1e-5, "{at_a} against {at_b}");
    }
}
