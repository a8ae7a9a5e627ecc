//! Exact solve of the equality rows of small joint trees.
//!
//! Soft rows settle where their bias balances the load, leaving a joint open by K F / w^2, and
//! solving rigid rows one at a time (Gauss-Seidel) overshoots on strongly coupled structures
//! such as a welded cantilever. For islands of joints that form a tree (no loop, counting all
//! static bodies as one ground node; seed 003's joint trees) with at most `MAX_EXACT_ROWS`
//! equality rows, all those rows are solved together each iteration:
//!
//!   A lambda = -(J v + bias),   A = J M^-1 J^T (dense, symmetric positive definite),
//!
//! with the rigid mass (no impulse leak) and the joint softness's bias rate on the position
//! error, by Cholesky factorisation. The rows are the point rows of revolute and rigid weld
//! joints (J as in `revolute.rs`), the weld angle row, and the prismatic perpendicular and
//! angle rows (J as in `prismatic.rs`). Limits, motors and springs stay in the joint's own rows.

use super::{JointConstraint, JointKind, RowContext};
use crate::math::{cross, left_perp};
use crate::solver::body_state::{BodyState, STATIC_BODY, read_state, write_state};
use bevy_math::Vec2;

/// Islands with more equality rows than this are left to the per-joint rows (the dense
/// factorisation costs rows^3 / 3 per iteration).
pub(crate) const MAX_EXACT_ROWS: usize = 96;

/// Joints (indices into the step's joint constraints) whose equality rows are solved together.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ExactIsland {
    pub joints: Vec<usize>,
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

/// Groups the exactly solvable joints into islands through their dynamic bodies, marks the
/// joints of islands small enough as exact, and returns those islands.
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
    // Islands keyed by root body, in joint order (deterministic), with their row count, their
    // dynamic bodies and whether they hang from static bodies.
    struct Gathered {
        island: ExactIsland,
        rows: usize,
        bodies: Vec<u32>,
        grounded: bool,
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
        if is_tree {
            for &j in &g.island.joints {
                joints[j].exact = true;
            }
            out.push(g.island);
        }
    }
    out
}

/// Buffers the island solve reuses across substeps and steps, so the solver loop allocates
/// nothing once they have grown to the largest island.
#[derive(Default)]
pub(crate) struct IslandScratch {
    rows: Vec<Row>,
    matrix: Vec<f32>,
    rhs: Vec<f32>,
}

/// One constraint row: Jacobian blocks (vx, vy, w) on A and B, and the position error.
#[derive(Clone, Copy)]
struct Row {
    a: u32,
    b: u32,
    ja: (Vec2, f32),
    jb: (Vec2, f32),
    c: f32,
    inv_mass_a: f32,
    inv_inertia_a: f32,
    inv_mass_b: f32,
    inv_inertia_b: f32,
}

fn rows_of(c: &JointConstraint, states: &[BodyState], out: &mut Vec<Row>) {
    let f = &c.frame;
    let (sa, sb) = (read_state(states, f.index_a), read_state(states, f.index_b));
    let (ra, rb, d) = f.current(&sa, &sb);
    let base = Row {
        a: f.index_a,
        b: f.index_b,
        ja: (Vec2::ZERO, 0.0),
        jb: (Vec2::ZERO, 0.0),
        c: 0.0,
        inv_mass_a: f.inv_mass_a,
        inv_inertia_a: f.inv_inertia_a,
        inv_mass_b: f.inv_mass_b,
        inv_inertia_b: f.inv_inertia_b,
    };
    let point = |out: &mut Vec<Row>| {
        // x: vB.x - wB rB.y - vA.x + wA rA.y;  y: vB.y + wB rB.x - vA.y - wA rA.x.
        out.push(Row {
            ja: (Vec2::new(-1.0, 0.0), ra.y),
            jb: (Vec2::new(1.0, 0.0), -rb.y),
            c: d.x,
            ..base
        });
        out.push(Row {
            ja: (Vec2::new(0.0, -1.0), -ra.x),
            jb: (Vec2::new(0.0, 1.0), rb.x),
            c: d.y,
            ..base
        });
    };
    let angle = |out: &mut Vec<Row>, reference: f32| {
        out.push(Row {
            ja: (Vec2::ZERO, -1.0),
            jb: (Vec2::ZERO, 1.0),
            c: f.angle(&sa, &sb, reference),
            ..base
        });
    };
    match &c.kind {
        JointKind::Revolute(_) => point(out),
        JointKind::Weld(w) => {
            point(out);
            angle(out, w.reference_angle);
        }
        JointKind::Prismatic(p) => {
            let axis = (sa.delta_rotation * f.rotation_a).rotate(p.local_axis_a);
            let perp = left_perp(axis);
            let (s1, s2) = (cross(d + ra, perp), cross(rb, perp));
            out.push(Row {
                ja: (-perp, -s1),
                jb: (perp, s2),
                c: perp.dot(d),
                ..base
            });
            angle(out, p.reference_angle);
        }
        _ => {}
    }
}

/// Assembles A = J M^-1 J^T for the rows into `matrix` (row-major n x n).
fn assemble(rows: &[Row], matrix: &mut Vec<f32>) {
    let n = rows.len();
    matrix.clear();
    matrix.resize(n * n, 0.0);
    let dot = |x: (Vec2, f32), y: (Vec2, f32), m: f32, i: f32| m * x.0.dot(y.0) + i * x.1 * y.1;
    for r in 0..n {
        for s in 0..=r {
            let (p, q) = (&rows[r], &rows[s]);
            let mut v = 0.0;
            for (body, jp, m, i) in [
                (p.a, p.ja, p.inv_mass_a, p.inv_inertia_a),
                (p.b, p.jb, p.inv_mass_b, p.inv_inertia_b),
            ] {
                if body == STATIC_BODY {
                    continue;
                }
                if q.a == body {
                    v += dot(jp, q.ja, m, i);
                }
                if q.b == body {
                    v += dot(jp, q.jb, m, i);
                }
            }
            matrix[r * n + s] = v;
            matrix[s * n + r] = v;
        }
    }
}

/// Gathers an island's rows at the current motion and assembles its matrix.
fn island_system(
    island: &ExactIsland,
    joints: &[JointConstraint],
    states: &[BodyState],
    rows: &mut Vec<Row>,
    matrix: &mut Vec<f32>,
) {
    rows.clear();
    for &j in &island.joints {
        rows_of(&joints[j], states, rows);
    }
    assemble(rows, matrix);
}

/// Applies the row impulses `lambdas` to velocities (or, with `positions`, to positions).
fn apply(rows: &[Row], lambdas: &[f32], states: &mut [BodyState], positions: bool) {
    for (row, lambda) in rows.iter().zip(lambdas) {
        for (body, j, m, i) in [
            (row.a, row.ja, row.inv_mass_a, row.inv_inertia_a),
            (row.b, row.jb, row.inv_mass_b, row.inv_inertia_b),
        ] {
            if body == STATIC_BODY {
                continue;
            }
            let mut s = read_state(states, body);
            if positions {
                s.delta_position += m * lambda * j.0;
                s.delta_rotation = s.delta_rotation.integrate(i * lambda * j.1);
            } else {
                s.linear_velocity += m * lambda * j.0;
                s.angular_velocity += i * lambda * j.1;
            }
            write_state(states, body, s);
        }
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
    let IslandScratch { rows, matrix, rhs } = scratch;
    for island in islands {
        island_system(island, joints, states, rows, matrix);
        // Right-hand side: -(J v + bias).
        rhs.clear();
        rhs.extend(rows.iter().map(|row| {
            let (sa, sb) = (read_state(states, row.a), read_state(states, row.b));
            let jv = row.ja.0.dot(sa.linear_velocity)
                + row.ja.1 * sa.angular_velocity
                + row.jb.0.dot(sb.linear_velocity)
                + row.jb.1 * sb.angular_velocity;
            let bias = if ctx.use_bias { bias_rate * row.c } else { 0.0 };
            -(jv + bias)
        }));
        if !cholesky_solve(matrix, rows.len(), rhs) {
            continue;
        }
        apply(rows, rhs, states, false);
        if ctx.use_bias {
            // Keep the biased solve's impulse per joint for reaction forces and breaking.
            let mut k = 0;
            for &j in &island.joints {
                let c = &mut joints[j];
                let count = exact_rows(&c.kind);
                let l = &rhs[k..k + count];
                c.impulses.linear = Vec2::new(l[0], l[1]);
                if count == 3 {
                    c.impulses.angular = l[2];
                }
                k += count;
            }
        }
    }
}

/// Closes the islands' position errors exactly: A lambda = -C at the current pose, applied to
/// positions (velocities untouched). Run after each position integration, it removes the
/// drift a velocity solve leaves on rotating bodies (anchors move along arcs, not tangents).
pub(crate) fn project_exact_islands(
    islands: &[ExactIsland],
    joints: &[JointConstraint],
    states: &mut [BodyState],
    scratch: &mut IslandScratch,
) {
    let IslandScratch { rows, matrix, rhs } = scratch;
    for island in islands {
        island_system(island, joints, states, rows, matrix);
        rhs.clear();
        rhs.extend(rows.iter().map(|row| -row.c));
        if cholesky_solve(matrix, rows.len(), rhs) {
            apply(rows, rhs, states, true);
        }
    }
}

/// Solves A x = b in place for symmetric positive definite A (row-major n x n), with a tiny
/// diagonal regularisation for redundant rows. Returns false if A is not positive definite.
fn cholesky_solve(a: &mut [f32], n: usize, b: &mut [f32]) -> bool {
    let trace: f32 = (0..n).map(|i| a[i * n + i]).sum();
    let epsilon = 1e-6 * trace / n.max(1) as f32;
    for i in 0..n {
        a[i * n + i] += epsilon;
    }
    for j in 0..n {
        let mut d = a[j * n + j];
        for k in 0..j {
            d -= a[j * n + k] * a[j * n + k];
        }
        if d <= 0.0 {
            return false;
        }
        let d = d.sqrt();
        a[j * n + j] = d;
        for i in j + 1..n {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = s / d;
        }
    }
    for i in 0..n {
        let mut s = b[i];
        for k in 0..i {
            s -= a[i * n + k] * b[k];
        }
        b[i] = s / a[i * n + i];
    }
    for i in (0..n).rev() {
        let mut s = b[i];
        for k in i + 1..n {
            s -= a[k * n + i] * b[k];
        }
        b[i] = s / a[i * n + i];
    }
    true
}

#[cfg(test)]
mod tests {
    use super::cholesky_solve;

    #[test]
    fn cholesky_solves_a_symmetric_positive_definite_system() {
        let mut a = vec![4.0, 2.0, 0.0, 2.0, 5.0, 1.0, 0.0, 1.0, 3.0];
        let mut b = vec![6.0, 8.0, 4.0];
        assert!(cholesky_solve(&mut a, 3, &mut b));
        // Exact solution of [[4,2,0],[2,5,1],[0,1,3]] x = [6,8,4] is (1, 1, 1).
        for x in b {
            assert!((x - 1.0).abs() < 1e-4, "{x}");
        }
    }
}
