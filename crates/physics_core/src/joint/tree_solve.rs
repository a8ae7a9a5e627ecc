//! Linear-time solve of a joint tree's equality rows: A lambda = b with A = J W J^T, W the
//! bodies' inverse masses, eliminated joint by joint from the leaves to the root.
//!
//! The rows of one joint couple only to the rows of joints sharing a body with it. Root the
//! tree (at the ground when a joint holds it to a static body, else at any body) and eliminate
//! each body's joint to its parent, children before parents. When joint j between a child body
//! c and its parent p is eliminated, c has no other joint left, so the only rows it touches are
//! those of p's remaining joints k, and the Schur complement changes them by
//!
//!   A_kl -= (J_kp W_p J_jp^T) D_j^-1 (J_jp W_p J_lp^T),  D_j = J_jc W_c J_jc^T + J_jp W_p J_jp^T,
//!
//! which is every one of p's joints seeing p with the inverse mass
//!
//!   W_p <- W_p - W_p J_jp^T D_j^-1 J_jp W_p
//!
//! (the articulated inverse mass of p with c's branch hanging from it). So the factorisation is
//! one small block solve per joint with no fill-in: a body's 3x3 block (vx, vy, w) and a
//! joint's 1 to 3 rows, each row count compiled on its own so the loops unroll and skip the
//! unused rows; D_j is inverted outright (`invert`: one division, nothing for the next joint
//! to wait on but multiplications). The right-hand side is carried the
//! same way, as the velocity U_p each elimination leaves on p; back substitution walks the
//! joints root first with the impulse P_p the joints above have put on p:
//!
//!   forward: y_j = b_j - J_jc U_c - J_jp U_p,  G_j = D_j^-1 J_jp W_p,  U_p += G_j^T y_j
//!   back:    lambda_j = D_j^-1 y_j - G_j P_p,  P_p += J_jp^T lambda_j,  P_c += J_jc^T lambda_j
//!
//! [`factor_tree`] does the forward elimination of A (D_j, G_j) and [`substitute`] carries one
//! right-hand side through it, so one factorisation serves several solves of the same rows.
//! The dense factorisation it replaces cost rows^3 / 6 per solve plus an n^2 assembly; this is
//! about a hundred multiply-adds per two-row joint, in f64 for the same reason (a light chain
//! under a heavy end leaves pivots that are small differences of large terms). The substitution
//! also leaves J^T lambda on each body, from which the solve's velocity change W J^T lambda
//! and its check A lambda = J W J^T lambda follow without another pass over the rows.

// The block products index rows and columns as the formulas above do; iterator chains over
// 2x3 and 3x3 blocks would hide which entry meets which.
#![allow(clippy::needless_range_loop)]

use crate::solver::body_state::STATIC_BODY;

/// An f64 3-vector: a body's (vx, vy, w) or a joint's (up to) three rows.
pub(crate) type V3 = [f64; 3];
/// An f64 3x3 block, row-major.
pub(crate) type M3 = [[f64; 3]; 3];

/// The parent of a joint hung from a static body.
pub(crate) const NO_PARENT: u32 = u32::MAX;

/// One joint of a tree in elimination order: its rows and its bodies as local indices (into
/// the island's dynamic bodies), the child being the body further from the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TreeEdge {
    /// The joint's first row in the island's rows.
    pub first_row: u32,
    /// Its row count (1 to 3).
    pub rows: u32,
    /// The local body eliminated with this joint.
    pub child: u32,
    /// The local body on the root side, or [`NO_PARENT`] for a static body.
    pub parent: u32,
    /// Whether the child is the joint's body A (its rows' `ja`).
    pub child_is_a: bool,
    /// The joint's place in the joints the order was made for.
    pub joint: u32,
}

/// The joints of a tree in elimination order (children before parents). `ends` holds each
/// joint's (body A, body B) as solver indices ([`STATIC_BODY`] for a static one), `rows` each
/// joint's row count, `bodies` the tree's dynamic bodies sorted by solver index. The tree is
/// rooted at the ground if a joint holds it to a static body (at most one can: more would
/// close a loop through the ground), else at its first body. None if the joints do not form
/// one tree over these bodies.
pub(crate) fn elimination_order(
    ends: &[(u32, u32)],
    rows: &[u32],
    bodies: &[u32],
) -> Option<Vec<TreeEdge>> {
    let ground = bodies.len();
    let local = |b: u32| -> Option<usize> {
        if b == STATIC_BODY {
            Some(ground)
        } else {
            bodies.binary_search(&b).ok()
        }
    };
    let mut adjacency: Vec<Vec<usize>> = vec![Vec::new(); ground + 1];
    let mut first_rows = Vec::with_capacity(ends.len());
    let mut next_row = 0u32;
    for (k, &(a, b)) in ends.iter().enumerate() {
        let (la, lb) = (local(a)?, local(b)?);
        adjacency[la].push(k);
        adjacency[lb].push(k);
        first_rows.push(next_row);
        next_row += rows[k];
    }
    let root = if adjacency[ground].is_empty() {
        0
    } else {
        ground
    };
    // Breadth first from the root: each body is reached through its joint to its parent.
    let mut visited = vec![false; ground + 1];
    visited[root] = true;
    let mut queue = vec![root];
    let mut reached = Vec::with_capacity(ends.len());
    let mut head = 0;
    while let Some(&node) = queue.get(head) {
        head += 1;
        for &k in &adjacency[node] {
            let (la, lb) = (local(ends[k].0)?, local(ends[k].1)?);
            let other = if la == node { lb } else { la };
            if !visited[other] {
                visited[other] = true;
                queue.push(other);
                reached.push((other, k, node));
            }
        }
    }
    let every_body = queue.len() == ground + usize::from(root == ground);
    if reached.len() != ends.len() || !every_body {
        return None;
    }
    let edges = reached
        .iter()
        .rev()
        .map(|&(child, k, parent)| TreeEdge {
            first_row: first_rows[k],
            rows: rows[k],
            child: child as u32,
            parent: if parent == ground {
                NO_PARENT
            } else {
                parent as u32
            },
            child_is_a: local(ends[k].0) == Some(child),
            joint: k as u32,
        })
        .collect();
    Some(edges)
}

/// A joint's Jacobian blocks for one solve: its rows on the child's and the parent's
/// (vx, vy, w), unused rows zero.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EdgeBlocks {
    pub child: M3,
    pub parent: M3,
    /// Pin-shaped: two rows whose linear parts are signed unit vectors along their own axes,
    /// J = s [I, perp r] on each side (a pin's point rows, s = +-1), so each row has two
    /// nonzero entries of three. The products skip the zeros ([`row_dot`], [`column_dot`]);
    /// adding a product with an exact zero leaves a nonzero sum as it was, so the results
    /// are the bits the full products give (a result that is itself zero may differ in the
    /// sign of that zero, which no later step can tell apart).
    pub pin: bool,
}

/// A tree's factorisation: per joint, D_j^-1 and G_j = D_j^-1 J_jp W_p. Kept
/// while the rows stay the same, so several right-hand sides share one factorisation.
#[derive(Clone, Debug, Default)]
pub(crate) struct TreeFactor {
    inverses: Vec<M3>,
    g: Vec<M3>,
}

/// Buffers a factorisation and a substitution use and throw away.
#[derive(Default)]
pub(crate) struct TreeWork {
    /// Each body's inverse mass as the elimination has reduced it.
    w: Vec<M3>,
    /// Velocity the eliminated joints leave on each body (forward pass).
    u: Vec<V3>,
    /// Impulse the back-substituted joints put on each body.
    p: Vec<V3>,
    /// Per joint: D_j^-1 y_j.
    z: Vec<V3>,
}

/// Factors A = J W J^T + `regularisation` I for the tree `edges` (in elimination order) with
/// Jacobian `blocks` (index-aligned with `edges`) and the bodies' inverse masses `inv_mass`
/// ((linear, angular) per local body) into `factor`. False if a pivot is not clearly
/// positive (below a billionth of its row's own diagonal: dependent rows, or rounding ate it).
pub(crate) fn factor_tree(
    edges: &[TreeEdge],
    blocks: &[EdgeBlocks],
    inv_mass: &[(f64, f64)],
    regularisation: f64,
    factor: &mut TreeFactor,
    work: &mut TreeWork,
) -> bool {
    let w = &mut work.w;
    w.clear();
    w.extend(inv_mass.iter().map(|&(m, i)| diagonal([m, m, i])));
    factor.inverses.clear();
    factor.g.clear();
    for (edge, block) in edges.iter().zip(blocks) {
        let eliminated = match (edge.rows, block.pin) {
            (1, _) => eliminate::<1, false>(edge, block, inv_mass, regularisation, w),
            (2, true) => eliminate::<2, true>(edge, block, inv_mass, regularisation, w),
            (2, false) => eliminate::<2, false>(edge, block, inv_mass, regularisation, w),
            _ => eliminate::<3, false>(edge, block, inv_mass, regularisation, w),
        };
        let Some((inverse, g)) = eliminated else {
            return false;
        };
        factor.inverses.push(inverse);
        factor.g.push(g);
    }
    true
}

/// Row `r` of a joint's block on one body dotted with a body vector `v`: all three
/// products, or for a pin-shaped block (`PIN`, see [`EdgeBlocks::pin`]; `r` then 0 or 1)
/// the two that are not products with zero, in the same order.
#[inline(always)]
fn row_dot<const PIN: bool>(row: &V3, r: usize, v: &V3) -> f64 {
    if PIN {
        row[r] * v[r] + row[2] * v[2]
    } else {
        (0..3).map(|k| row[k] * v[k]).sum()
    }
}

/// Column `k` of a joint's `N`-row block on one body dotted with the joint's rows `x`: the
/// body-vector entry k of J^T x. A pin-shaped block (`PIN`) has one nonzero entry in each
/// linear column.
#[inline(always)]
fn column_dot<const N: usize, const PIN: bool>(block: &M3, k: usize, x: &[f64; N]) -> f64 {
    if PIN && k < 2 {
        block[k][k] * x[k]
    } else {
        (0..N).map(|r| block[r][k] * x[r]).sum()
    }
}

/// Eliminates one joint of `N` rows (its blocks' first `N` rows are used, the rest of the
/// returned blocks is zero): D_j = J_jc W_c J_jc^T + J_jp W_p J_jp^T + regularisation I,
/// its inverse, G_j = D_j^-1 J_jp W_p, and W_p reduced by (J_jp W_p)^T G_j in `w`.
/// Written for a fixed row count so the small loops unroll and skip the padding rows, and
/// for pin-shaped blocks (`PIN`) apart so they skip their zero entries too.
fn eliminate<const N: usize, const PIN: bool>(
    edge: &TreeEdge,
    block: &EdgeBlocks,
    inv_mass: &[(f64, f64)],
    regularisation: f64,
    w: &mut [M3],
) -> Option<(M3, M3)> {
    debug_assert!(!PIN || is_pin_shaped(block), "a pin edge with cross terms");
    let c = edge.child as usize;
    let parent = (edge.parent != NO_PARENT).then_some(edge.parent as usize);
    // J W for one side: N rows of three; W is symmetric, so its column k is its row k.
    let times_w = |j: &M3, w: &M3| -> [V3; N] {
        std::array::from_fn(|r| std::array::from_fn(|k| row_dot::<PIN>(&j[r], r, &w[k])))
    };
    let jc_wc = times_w(&block.child, &w[c]);
    let mut d = [[0.0; 3]; 3];
    for r in 0..N {
        for s in 0..=r {
            d[r][s] = row_dot::<PIN>(&block.child[s], s, &jc_wc[r]);
        }
    }
    let jp_wp = parent.map(|q| {
        let jp_wp = times_w(&block.parent, &w[q]);
        for r in 0..N {
            for s in 0..=r {
                d[r][s] += row_dot::<PIN>(&block.parent[s], s, &jp_wp[r]);
            }
        }
        jp_wp
    });
    for (r, row) in d.iter_mut().enumerate().take(N) {
        row[r] += regularisation;
    }
    // The row's own diagonal, before any elimination, for the pivot test.
    let inverse = invert::<N>(&d, |r| row_diagonal(edge, block, inv_mass, r))?;
    let mut g = [[0.0; 3]; 3];
    if let (Some(q), Some(jp_wp)) = (parent, jp_wp) {
        for (r, row) in g.iter_mut().enumerate().take(N) {
            for (k, x) in row.iter_mut().enumerate() {
                *x = (0..N).map(|m| inverse[r][m] * jp_wp[m][k]).sum();
            }
        }
        // W_p -= (J_jp W_p)^T G_j, symmetric: the lower half, mirrored.
        let wq = &mut w[q];
        for i in 0..3 {
            for j in 0..=i {
                let reduction: f64 = (0..N).map(|r| jp_wp[r][i] * g[r][j]).sum();
                wq[i][j] -= reduction;
                wq[j][i] = wq[i][j];
            }
        }
    }
    Some((inverse, g))
}

/// Solves A x = rhs with a factorisation of A from [`factor_tree`] (the same `edges` and
/// `blocks`), writing x to `solution` (rows indexed as in `rhs`). Leaves J^T x, the impulse
/// on each local body, in `work` ([`TreeWork::impulses`]).
pub(crate) fn substitute(
    edges: &[TreeEdge],
    blocks: &[EdgeBlocks],
    factor: &TreeFactor,
    rhs: &[f64],
    solution: &mut [f64],
    work: &mut TreeWork,
) {
    let bodies = edges.len() + 1;
    let TreeWork { u, p, z, .. } = work;
    u.clear();
    u.resize(bodies, [0.0; 3]);
    p.clear();
    p.resize(bodies, [0.0; 3]);
    z.clear();
    for (k, (edge, block)) in edges.iter().zip(blocks).enumerate() {
        let (inverse, g) = (&factor.inverses[k], &factor.g[k]);
        let zk = match (edge.rows, block.pin) {
            (1, _) => forward::<1, false>(edge, block, inverse, g, rhs, u),
            (2, true) => forward::<2, true>(edge, block, inverse, g, rhs, u),
            (2, false) => forward::<2, false>(edge, block, inverse, g, rhs, u),
            _ => forward::<3, false>(edge, block, inverse, g, rhs, u),
        };
        z.push(zk);
    }
    for (k, (edge, block)) in edges.iter().zip(blocks).enumerate().rev() {
        let g = &factor.g[k];
        match (edge.rows, block.pin) {
            (1, _) => back::<1, false>(edge, block, g, z[k], solution, p),
            (2, true) => back::<2, true>(edge, block, g, z[k], solution, p),
            (2, false) => back::<2, false>(edge, block, g, z[k], solution, p),
            _ => back::<3, false>(edge, block, g, z[k], solution, p),
        }
    }
}

/// Forward pass over one joint of `N` rows: y_j = b_j - J_jc U_c - J_jp U_p, U_p += G_j^T y_j;
/// returns D_j^-1 y_j.
fn forward<const N: usize, const PIN: bool>(
    edge: &TreeEdge,
    block: &EdgeBlocks,
    inverse: &M3,
    g: &M3,
    rhs: &[f64],
    u: &mut [V3],
) -> V3 {
    let (c, first) = (edge.child as usize, edge.first_row as usize);
    let mut y: [f64; N] =
        std::array::from_fn(|r| rhs[first + r] - row_dot::<PIN>(&block.child[r], r, &u[c]));
    if edge.parent != NO_PARENT {
        let q = edge.parent as usize;
        for (r, yr) in y.iter_mut().enumerate() {
            *yr -= row_dot::<PIN>(&block.parent[r], r, &u[q]);
        }
        for k in 0..3 {
            u[q][k] += (0..N).map(|r| g[r][k] * y[r]).sum::<f64>();
        }
    }
    let x = times::<N>(inverse, y);
    std::array::from_fn(|r| if r < N { x[r] } else { 0.0 })
}

/// Back pass over one joint of `N` rows: lambda_j = D_j^-1 y_j - G_j P_p, written to its rows
/// of `solution`; P_p += J_jp^T lambda_j, P_c += J_jc^T lambda_j.
fn back<const N: usize, const PIN: bool>(
    edge: &TreeEdge,
    block: &EdgeBlocks,
    g: &M3,
    z: V3,
    solution: &mut [f64],
    p: &mut [V3],
) {
    let (c, first) = (edge.child as usize, edge.first_row as usize);
    let mut x: [f64; N] = std::array::from_fn(|r| z[r]);
    if edge.parent != NO_PARENT {
        let q = edge.parent as usize;
        for (r, xr) in x.iter_mut().enumerate() {
            *xr -= (0..3).map(|k| g[r][k] * p[q][k]).sum::<f64>();
        }
        for k in 0..3 {
            p[q][k] += column_dot::<N, PIN>(&block.parent, k, &x);
        }
    }
    for k in 0..3 {
        p[c][k] += column_dot::<N, PIN>(&block.child, k, &x);
    }
    solution[first..first + N].copy_from_slice(&x);
}

impl TreeWork {
    /// J^T x on each local body after [`substitute`]: the impulse the solution puts on it.
    pub(crate) fn impulses(&self) -> &[V3] {
        &self.p
    }
}

/// The bodies' velocity changes `dv` = W `impulses` and their rows' response J dv, which is
/// A x when `impulses` is J^T x, into `out` (rows as the tree's).
pub(crate) fn respond(
    edges: &[TreeEdge],
    blocks: &[EdgeBlocks],
    inv_mass: &[(f64, f64)],
    impulses: &[V3],
    dv: &mut Vec<V3>,
    out: &mut [f64],
) {
    dv.clear();
    dv.extend(
        impulses
            .iter()
            .zip(inv_mass)
            .map(|(p, &(m, i))| [m * p[0], m * p[1], i * p[2]]),
    );
    jacobian_times(edges, blocks, |b| dv[b as usize], out);
}

/// Each row's J v, for `v(b)` the (vx, vy, w) of local body `b` (a static parent's is zero),
/// into `out` (rows as the tree's).
pub(crate) fn jacobian_times(
    edges: &[TreeEdge],
    blocks: &[EdgeBlocks],
    v: impl Fn(u32) -> V3,
    out: &mut [f64],
) {
    for (edge, block) in edges.iter().zip(blocks) {
        let (first, n) = (edge.first_row as usize, edge.rows as usize);
        let vc = v(edge.child);
        let vp = if edge.parent != NO_PARENT {
            v(edge.parent)
        } else {
            [0.0; 3]
        };
        if block.pin && n == 2 {
            // Each linear column of a pin's rows has one nonzero entry (`EdgeBlocks::pin`).
            for r in 0..2 {
                let linear = block.child[r][r] * vc[r] + block.parent[r][r] * vp[r];
                out[first + r] = linear + (block.child[r][2] * vc[2] + block.parent[r][2] * vp[2]);
            }
            continue;
        }
        for r in 0..n {
            out[first + r] = (0..3)
                .map(|k| block.child[r][k] * vc[k] + block.parent[r][k] * vp[k])
                .sum();
        }
    }
}

/// Whether both of `block`'s sides have the shape [`EdgeBlocks::pin`] promises: no linear
/// entry off its own row's axis, no third row.
fn is_pin_shaped(block: &EdgeBlocks) -> bool {
    [&block.child, &block.parent]
        .iter()
        .all(|j| j[0][1] == 0.0 && j[1][0] == 0.0 && j[2] == [0.0; 3])
}

/// Row `r` of joint `edge`'s own diagonal entry of A = J W J^T, before any elimination.
pub(crate) fn row_diagonal(
    edge: &TreeEdge,
    block: &EdgeBlocks,
    inv_mass: &[(f64, f64)],
    r: usize,
) -> f64 {
    let mut a = weighted_square(block.child[r], inv_mass[edge.child as usize]);
    if edge.parent != NO_PARENT {
        a += weighted_square(block.parent[r], inv_mass[edge.parent as usize]);
    }
    a
}

/// A x for the tree's A = J W J^T (unreduced inverse masses), into `out`, without forming A:
/// the impulses J^T x on each body, through W, back through J. `impulses` is a buffer.
#[cfg(test)]
pub(crate) fn multiply(
    edges: &[TreeEdge],
    blocks: &[EdgeBlocks],
    inv_mass: &[(f64, f64)],
    x: &[f64],
    impulses: &mut Vec<V3>,
    out: &mut [f64],
) {
    impulses.clear();
    impulses.resize(inv_mass.len(), [0.0; 3]);
    for (edge, block) in edges.iter().zip(blocks) {
        let (first, n) = (edge.first_row as usize, edge.rows as usize);
        for r in 0..n {
            for k in 0..3 {
                impulses[edge.child as usize][k] += block.child[r][k] * x[first + r];
                if edge.parent != NO_PARENT {
                    impulses[edge.parent as usize][k] += block.parent[r][k] * x[first + r];
                }
            }
        }
    }
    let mut dv = Vec::new();
    respond(edges, blocks, inv_mass, impulses, &mut dv, out);
}

/// j W j^T for one row j = (vx, vy, w) and a diagonal inverse mass (linear, angular).
fn weighted_square(j: V3, (m, i): (f64, f64)) -> f64 {
    m * (j[0] * j[0] + j[1] * j[1]) + i * j[2] * j[2]
}

fn diagonal(d: V3) -> M3 {
    [[d[0], 0.0, 0.0], [0.0, d[1], 0.0], [0.0, 0.0, d[2]]]
}

/// The inverse of the symmetric positive definite `N` x `N` block in `d`'s lower half (the
/// full block returned, the rest zero), or None if one of its pivots is not clearly positive:
/// at or below a billionth of `unreduced(row)` (NaN fails too).
///
/// The pivots are the ones Gaussian elimination (or a Cholesky factor) meets: d00, then the
/// leading 2x2 determinant over d00, then the 3x3 determinant over the 2x2 one; the tests are
/// written with the determinants multiplied out. The inverse is the adjugate over the
/// determinant: one division, and no chain of dependent square roots and divisions for the
/// next joint's elimination to wait on.
fn invert<const N: usize>(d: &M3, unreduced: impl Fn(usize) -> f64) -> Option<M3> {
    let clearly =
        |pivot_times: f64, scale: f64, r: usize| pivot_times > 1e-9 * unreduced(r) * scale;
    let mut inverse = [[0.0; 3]; 3];
    match N {
        1 => {
            if !clearly(d[0][0], 1.0, 0) {
                return None;
            }
            inverse[0][0] = 1.0 / d[0][0];
        }
        2 => {
            let (a, b, c) = (d[0][0], d[1][0], d[1][1]);
            let det = a * c - b * b;
            if !clearly(a, 1.0, 0) || !clearly(det, a, 1) {
                return None;
            }
            let r = 1.0 / det;
            inverse[0] = [c * r, -b * r, 0.0];
            inverse[1] = [-b * r, a * r, 0.0];
        }
        _ => {
            let (a, b, c) = (d[0][0], d[1][0], d[1][1]);
            let (e, f, g) = (d[2][0], d[2][1], d[2][2]);
            let det2 = a * c - b * b;
            // Cofactors of the symmetric [[a b e] [b c f] [e f g]].
            let c00 = c * g - f * f;
            let c01 = e * f - b * g;
            let c02 = b * f - c * e;
            let c11 = a * g - e * e;
            let c12 = b * e - a * f;
            let c22 = det2;
            let det3 = a * c00 + b * c01 + e * c02;
            if !clearly(a, 1.0, 0) || !clearly(det2, a, 1) || !clearly(det3, det2, 2) {
                return None;
            }
            let r = 1.0 / det3;
            inverse = [
                [c00 * r, c01 * r, c02 * r],
                [c01 * r, c11 * r, c12 * r],
                [c02 * r, c12 * r, c22 * r],
            ];
        }
    }
    Some(inverse)
}

/// The first `N` rows of `inverse` times `y`.
fn times<const N: usize>(inverse: &M3, y: [f64; N]) -> [f64; N] {
    std::array::from_fn(|r| (0..N).map(|k| inverse[r][k] * y[k]).sum())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dense A = J W J^T for the same tree, to check against.
    fn dense(edges: &[TreeEdge], blocks: &[EdgeBlocks], inv_mass: &[(f64, f64)]) -> Vec<Vec<f64>> {
        let n: usize = edges.iter().map(|e| e.rows as usize).sum();
        let mut columns = vec![vec![0.0; n]; n];
        let mut impulses = Vec::new();
        for (k, column) in columns.iter_mut().enumerate() {
            let mut unit = vec![0.0; n];
            unit[k] = 1.0;
            multiply(edges, blocks, inv_mass, &unit, &mut impulses, column);
        }
        columns
    }

    /// A small deterministic generator for the test trees.
    fn numbers(seed: u64) -> impl FnMut() -> f64 {
        let mut state = seed;
        move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        }
    }

    /// Random (linear, angular) inverse masses of `count` bodies, body `heavy` a thousand
    /// times heavier than the rest.
    fn inverse_masses(
        random: &mut impl FnMut() -> f64,
        count: usize,
        heavy: usize,
    ) -> Vec<(f64, f64)> {
        (0..count)
            .map(|k| {
                let scale = if k == heavy { 1e-3 } else { 1.0 };
                (
                    scale * (1.0 + random().abs()),
                    scale * (2.0 + random().abs()),
                )
            })
            .collect()
    }

    /// A branching tree (a ragdoll's shape: a spine with limbs, one limb hung from the ground)
    /// with random Jacobians and masses down to a thousandth: the tree solve agrees with the
    /// dense system it stands for.
    #[test]
    fn the_tree_solve_satisfies_the_dense_system() {
        // Bodies 0..7 (solver indices 10..17); joints as (A, B) pairs, 2 or 3 rows each.
        let bodies: Vec<u32> = (10..18).collect();
        let ends = [
            (10, 11),
            (11, 12),
            (12, 13),
            (11, 14),
            (14, 15),
            (12, 16),
            (17, 16),
            (STATIC_BODY, 10),
        ];
        let rows = [2, 2, 3, 2, 1, 3, 2, 2];
        let edges = elimination_order(&ends, &rows, &bodies).unwrap();
        assert_eq!(edges.len(), ends.len());
        assert_eq!(
            edges.last().unwrap().parent,
            NO_PARENT,
            "rooted at the ground"
        );
        let mut random = numbers(7);
        let inv_mass = inverse_masses(&mut random, bodies.len(), 7);
        let blocks: Vec<EdgeBlocks> = edges
            .iter()
            .map(|e| {
                let mut b = EdgeBlocks::default();
                for r in 0..e.rows as usize {
                    b.child[r] = [random(), random(), random()];
                    b.parent[r] = [random(), random(), random()];
                }
                b
            })
            .collect();
        let n: usize = rows.iter().sum::<u32>() as usize;
        let rhs: Vec<f64> = (0..n).map(|_| random()).collect();
        let mut x = vec![0.0; n];
        let (mut factor, mut work) = (TreeFactor::default(), TreeWork::default());
        assert!(factor_tree(
            &edges,
            &blocks,
            &inv_mass,
            0.0,
            &mut factor,
            &mut work
        ));
        substitute(&edges, &blocks, &factor, &rhs, &mut x, &mut work);
        let a = dense(&edges, &blocks, &inv_mass);
        for (i, b) in rhs.iter().enumerate() {
            let ax: f64 = (0..n).map(|j| a[j][i] * x[j]).sum();
            assert!((ax - b).abs() < 1e-9, "row {i}: {ax} against {b}");
        }
    }

    /// A ragdoll-shaped tree of pins (one hung from the ground) with masses down to a
    /// thousandth: the pin-shaped products (`EdgeBlocks::pin`) give the same bits as the full
    /// ones, in the factorisation, the solution, the impulses and J v.
    #[test]
    fn pin_shaped_products_give_the_bits_of_the_full_ones() {
        let bodies: Vec<u32> = (0..8).collect();
        let ends = [
            (0, 1),
            (1, 2),
            (2, 3),
            (1, 4),
            (4, 5),
            (2, 6),
            (7, 6),
            (STATIC_BODY, 0),
        ];
        let edges = elimination_order(&ends, &[2; 8], &bodies).unwrap();
        let mut random = numbers(11);
        let inv_mass = inverse_masses(&mut random, bodies.len(), 5);
        // A pin's rows as `joint_rows` makes them: -I on body A, I on B, angular -perp(rA)
        // and perp(rB).
        let pins: Vec<EdgeBlocks> = edges
            .iter()
            .map(|e| {
                let (ra, rb) = ([random(), random()], [random(), random()]);
                let on_a = [[-1.0, 0.0, ra[1]], [0.0, -1.0, -ra[0]], [0.0; 3]];
                let on_b = [[1.0, 0.0, -rb[1]], [0.0, 1.0, rb[0]], [0.0; 3]];
                let (child, parent) = if e.child_is_a {
                    (on_a, on_b)
                } else {
                    (on_b, on_a)
                };
                EdgeBlocks {
                    child,
                    parent,
                    pin: true,
                }
            })
            .collect();
        let full: Vec<EdgeBlocks> = pins
            .iter()
            .map(|b| EdgeBlocks { pin: false, ..*b })
            .collect();
        let rhs: Vec<f64> = (0..16).map(|_| random()).collect();
        let velocities: Vec<V3> = (0..8).map(|_| [random(), random(), random()]).collect();
        let run = |blocks: &[EdgeBlocks]| {
            let (mut factor, mut work) = (TreeFactor::default(), TreeWork::default());
            assert!(factor_tree(
                &edges,
                blocks,
                &inv_mass,
                1e-12,
                &mut factor,
                &mut work
            ));
            let mut x = vec![0.0; 16];
            substitute(&edges, blocks, &factor, &rhs, &mut x, &mut work);
            let mut jv = vec![0.0; 16];
            jacobian_times(&edges, blocks, |b| velocities[b as usize], &mut jv);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            let flat = |m: &[M3]| m.iter().flatten().flatten().copied().collect::<Vec<_>>();
            let impulses: Vec<f64> = work.impulses().iter().flatten().copied().collect();
            (
                bits(&flat(&factor.inverses)),
                bits(&flat(&factor.g)),
                bits(&x),
                bits(&impulses),
                bits(&jv),
            )
        };
        assert_eq!(run(&pins), run(&full));
    }

    /// Joints that do not make one tree over the bodies (a loop, a body left out) are refused.
    #[test]
    fn loops_and_disconnected_bodies_are_not_trees() {
        let bodies = [1, 2, 3];
        let loop_ends = [(1, 2), (2, 3), (3, 1)];
        assert!(elimination_order(&loop_ends, &[2, 2, 2], &bodies).is_none());
        let apart = [(1, 2)];
        assert!(elimination_order(&apart, &[2], &bodies).is_none());
        let through_ground = [(STATIC_BODY, 1), (1, 2), (2, 3), (3, STATIC_BODY)];
        assert!(elimination_order(&through_ground, &[2, 2, 2, 2], &bodies).is_none());
    }

    /// Two copies of one joint make dependent rows: refused, not solved into huge impulses.
    #[test]
    fn dependent_rows_are_refused() {
        let bodies = [1, 2];
        let edges = elimination_order(&[(1, 2)], &[2], &bodies).unwrap();
        let row = [1.0, 0.0, 0.5];
        let block = EdgeBlocks {
            child: [row, row, [0.0; 3]],
            parent: [row, row, [0.0; 3]],
            pin: false,
        };
        let factored = factor_tree(
            &edges,
            &[block],
            &[(1.0, 1.0), (1.0, 1.0)],
            1e-12,
            &mut TreeFactor::default(),
            &mut TreeWork::default(),
        );
        assert!(!factored);
    }
}
