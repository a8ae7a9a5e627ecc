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
//! one small block solve per joint with no fill-in: 3x3 blocks (a body's vx, vy, w; a joint's
//! at most three rows, unused rows padded with an identity). The right-hand side is carried the
//! same way, as the velocity U_p each elimination leaves on p; back substitution walks the
//! joints root first with the impulse P_p the joints above have put on p:
//!
//!   forward: y_j = b_j - J_jc U_c - J_jp U_p,  G_j = D_j^-1 J_jp W_p,  U_p += G_j^T y_j
//!   back:    lambda_j = D_j^-1 y_j - G_j P_p,  P_p += J_jp^T lambda_j,  P_c += J_jc^T lambda_j
//!
//! [`factor_tree`] does the forward elimination of A (D_j, G_j) and [`substitute`] carries one
//! right-hand side through it, so one factorisation serves several solves of the same rows.
//! The dense factorisation it replaces cost rows^3 / 6 per solve plus an n^2 assembly; this is
//! a few hundred operations per joint, in f64 for the same reason (a light chain under a heavy
//! end leaves pivots that are small differences of large terms).

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
}

/// A tree's factorisation: per joint, the factor of D_j and G_j = D_j^-1 J_jp W_p. Kept
/// while the rows stay the same, so several right-hand sides share one factorisation.
#[derive(Clone, Debug, Default)]
pub(crate) struct TreeFactor {
    factors: Vec<M3>,
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
    factor.factors.clear();
    factor.g.clear();
    for (edge, block) in edges.iter().zip(blocks) {
        let (c, n) = (edge.child as usize, edge.rows as usize);
        let parent = (edge.parent != NO_PARENT).then_some(edge.parent as usize);
        // The row's own diagonal, before any elimination, for the pivot test.
        let unreduced = |r: usize| {
            let mut a = weighted_square(block.child[r], inv_mass[c]);
            if let Some(q) = parent {
                a += weighted_square(block.parent[r], inv_mass[q]);
            }
            a
        };
        let jc_wc = mul(&block.child, &w[c]);
        let mut d = mul_transposed(&jc_wc, &block.child);
        let jp_wp = match parent {
            Some(q) => {
                let jp_wp = mul(&block.parent, &w[q]);
                add_assign(&mut d, &mul_transposed(&jp_wp, &block.parent));
                jp_wp
            }
            None => [[0.0; 3]; 3],
        };
        for (r, row) in d.iter_mut().enumerate() {
            if r < n {
                row[r] += regularisation;
            } else {
                *row = [0.0; 3];
                row[r] = 1.0;
            }
        }
        for r in n..3 {
            for row in d.iter_mut().take(n) {
                row[r] = 0.0;
            }
        }
        let Some(l) = cholesky(&d, n, unreduced) else {
            return false;
        };
        let gj = match parent {
            Some(q) => {
                let gj = solve_columns(&l, &jp_wp);
                sub_assign(&mut w[q], &transposed_mul(&jp_wp, &gj));
                gj
            }
            None => [[0.0; 3]; 3],
        };
        factor.factors.push(l);
        factor.g.push(gj);
    }
    true
}

/// Solves A x = rhs with a factorisation of A from [`factor_tree`] (the same `edges` and
/// `blocks`), writing x to `solution` (rows indexed as in `rhs`).
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
        let (c, n) = (edge.child as usize, edge.rows as usize);
        let first = edge.first_row as usize;
        let mut y = [0.0; 3];
        y[..n].copy_from_slice(&rhs[first..first + n]);
        sub_assign_vec(&mut y, &mul_vec(&block.child, &u[c]));
        if edge.parent != NO_PARENT {
            let q = edge.parent as usize;
            sub_assign_vec(&mut y, &mul_vec(&block.parent, &u[q]));
            add_assign_vec(&mut u[q], &transposed_mul_vec(&factor.g[k], &y));
        }
        z.push(solve_vec(&factor.factors[k], y));
    }
    for (k, (edge, block)) in edges.iter().zip(blocks).enumerate().rev() {
        let (c, n) = (edge.child as usize, edge.rows as usize);
        let mut x = z[k];
        if edge.parent != NO_PARENT {
            let q = edge.parent as usize;
            sub_assign_vec(&mut x, &mul_vec(&factor.g[k], &p[q]));
            add_assign_vec(&mut p[q], &transposed_mul_vec(&block.parent, &x));
        }
        add_assign_vec(&mut p[c], &transposed_mul_vec(&block.child, &x));
        let first = edge.first_row as usize;
        solution[first..first + n].copy_from_slice(&x[..n]);
    }
}

/// A x for the tree's A = J W J^T (unreduced inverse masses), into `out`, without forming A:
/// the impulses J^T x on each body, through W, back through J. `impulses` is a buffer.
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
    let rows_of = |edge: &TreeEdge, values: &[f64]| {
        let (first, n) = (edge.first_row as usize, edge.rows as usize);
        let mut v = [0.0; 3];
        v[..n].copy_from_slice(&values[first..first + n]);
        v
    };
    for (edge, block) in edges.iter().zip(blocks) {
        let xe = rows_of(edge, x);
        let c = edge.child as usize;
        add_assign_vec(&mut impulses[c], &transposed_mul_vec(&block.child, &xe));
        if edge.parent != NO_PARENT {
            let q = edge.parent as usize;
            add_assign_vec(&mut impulses[q], &transposed_mul_vec(&block.parent, &xe));
        }
    }
    for (impulse, &(m, i)) in impulses.iter_mut().zip(inv_mass) {
        *impulse = [m * impulse[0], m * impulse[1], i * impulse[2]];
    }
    for (edge, block) in edges.iter().zip(blocks) {
        let mut ax = mul_vec(&block.child, &impulses[edge.child as usize]);
        if edge.parent != NO_PARENT {
            add_assign_vec(
                &mut ax,
                &mul_vec(&block.parent, &impulses[edge.parent as usize]),
            );
        }
        let (first, n) = (edge.first_row as usize, edge.rows as usize);
        out[first..first + n].copy_from_slice(&ax[..n]);
    }
}

/// j W j^T for one row j = (vx, vy, w) and a diagonal inverse mass (linear, angular).
fn weighted_square(j: V3, (m, i): (f64, f64)) -> f64 {
    m * (j[0] * j[0] + j[1] * j[1]) + i * j[2] * j[2]
}

fn diagonal(d: V3) -> M3 {
    [[d[0], 0.0, 0.0], [0.0, d[1], 0.0], [0.0, 0.0, d[2]]]
}

/// a b.
fn mul(a: &M3, b: &M3) -> M3 {
    std::array::from_fn(|i| std::array::from_fn(|j| (0..3).map(|k| a[i][k] * b[k][j]).sum()))
}

/// a b^T.
fn mul_transposed(a: &M3, b: &M3) -> M3 {
    std::array::from_fn(|i| std::array::from_fn(|j| (0..3).map(|k| a[i][k] * b[j][k]).sum()))
}

/// a^T b.
fn transposed_mul(a: &M3, b: &M3) -> M3 {
    std::array::from_fn(|i| std::array::from_fn(|j| (0..3).map(|k| a[k][i] * b[k][j]).sum()))
}

/// a v.
fn mul_vec(a: &M3, v: &V3) -> V3 {
    std::array::from_fn(|i| (0..3).map(|k| a[i][k] * v[k]).sum())
}

/// a^T v.
fn transposed_mul_vec(a: &M3, v: &V3) -> V3 {
    std::array::from_fn(|i| (0..3).map(|k| a[k][i] * v[k]).sum())
}

fn add_assign(a: &mut M3, b: &M3) {
    for (ra, rb) in a.iter_mut().zip(b) {
        add_assign_vec(ra, rb);
    }
}

fn sub_assign(a: &mut M3, b: &M3) {
    for (ra, rb) in a.iter_mut().zip(b) {
        sub_assign_vec(ra, rb);
    }
}

fn add_assign_vec(a: &mut V3, b: &V3) {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

fn sub_assign_vec(a: &mut V3, b: &V3) {
    for (x, y) in a.iter_mut().zip(b) {
        *x -= y;
    }
}

/// The lower Cholesky factor L (L L^T = d) of a symmetric 3x3 block, its diagonal stored as
/// reciprocals (the solves multiply instead of dividing), or None if one of the first `n`
/// pivots is not clearly positive: at or below a billionth of `unreduced(row)` (NaN fails too).
fn cholesky(d: &M3, n: usize, unreduced: impl Fn(usize) -> f64) -> Option<M3> {
    let mut l = [[0.0; 3]; 3];
    for j in 0..3 {
        let pivot = d[j][j] - (0..j).map(|k| l[j][k] * l[j][k]).sum::<f64>();
        let clearly_positive = if j < n {
            pivot > 1e-9 * unreduced(j)
        } else {
            pivot > 0.0
        };
        if !clearly_positive {
            return None;
        }
        let inverse = 1.0 / pivot.sqrt();
        l[j][j] = inverse;
        for i in j + 1..3 {
            let s = d[i][j] - (0..j).map(|k| l[i][k] * l[j][k]).sum::<f64>();
            l[i][j] = s * inverse;
        }
    }
    Some(l)
}

/// x with L L^T x = b (L from [`cholesky`], reciprocal diagonal).
fn solve_vec(l: &M3, b: V3) -> V3 {
    let y0 = b[0] * l[0][0];
    let y1 = (b[1] - l[1][0] * y0) * l[1][1];
    let y2 = (b[2] - l[2][0] * y0 - l[2][1] * y1) * l[2][2];
    let x2 = y2 * l[2][2];
    let x1 = (y1 - l[2][1] * x2) * l[1][1];
    let x0 = (y0 - l[1][0] * x1 - l[2][0] * x2) * l[0][0];
    [x0, x1, x2]
}

/// X with L L^T X = B, column by column.
fn solve_columns(l: &M3, b: &M3) -> M3 {
    let columns: [V3; 3] = std::array::from_fn(|j| solve_vec(l, [b[0][j], b[1][j], b[2][j]]));
    std::array::from_fn(|i| std::array::from_fn(|j| columns[j][i]))
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
        let rows = [2, 2, 3, 2, 2, 3, 2, 2];
        let edges = elimination_order(&ends, &rows, &bodies).unwrap();
        assert_eq!(edges.len(), ends.len());
        assert_eq!(
            edges.last().unwrap().parent,
            NO_PARENT,
            "rooted at the ground"
        );
        let mut random = numbers(7);
        let inv_mass: Vec<(f64, f64)> = (0..bodies.len())
            .map(|k| {
                let scale = if k == 7 { 1e-3 } else { 1.0 };
                (
                    scale * (1.0 + random().abs()),
                    scale * (2.0 + random().abs()),
                )
            })
            .collect();
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
