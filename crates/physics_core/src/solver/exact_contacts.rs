//! Exact contact islands: the normal impulses of a small island of touching bodies solved
//! together, rigidly, instead of one soft point at a time. Off by default
//! (`WorldDef::exact_contact_island_bodies`).
//!
//! Why: a soft contact at rest settles where its leak balances its bias, at a depth of
//! s = K F / w^2 (K its inverse effective mass, F its load, w = 2 pi hertz). Its stiffness is
//! the light body's, so a heavy body on light ones sinks deep: Solver2D's "high mass ratio"
//! scenes sink their heavy box 8 to 22 cm in Box2D v3, rapier and this engine alike. Solving
//! every normal row of the island at once as a rigid complementarity problem, with the soft
//! bias rate as a Baumgarte term, leaves no leak to balance: the island rests on its contacts.
//!
//! For the island's m normal rows (every point of every touching manifold, speculative ones
//! included), with J_i = [-n, -(rA_i x n), n, (rB_i x n)] as in `contact_solver.rs`:
//!
//!   A = J M^-1 J^T + Gamma   (dense, m x m, in f64; Gamma = 1e-4 diag(J M^-1 J^T))
//!   w = A (x - a) + (J v + bias) >= 0,  x >= 0,  x_i w_i = 0
//!
//! where a is the normal impulse applied so far this substep (the warm start, then earlier
//! passes) and x the new total. The bias is the soft contact's (mass scale times bias rate
//! times separation, clamped to the push speed; s / h for a speculative point), zero when
//! relaxing. The small compliance Gamma acts on the change x - a only, so it costs no depth
//! at rest; it regularises redundant rows (a box on two boxes has more points than degrees
//! of freedom), whose split of a load would otherwise swing with every millimetre of overlap.
//!
//! The problem is solved by an active set method: the active rows are solved as equalities by
//! Cholesky factorisation; a row whose impulse comes out negative leaves the set, a row whose
//! velocity would still close joins it, until neither happens. The set starts as the one the
//! last solve ended with, and J, M and so A are fixed for the whole step (the solver keeps its
//! anchors fixed within a step), so one factorisation serves many solves; a set a few rows
//! away from the factored one is solved through that factor and a small bordered system. An
//! island whose set does not settle in `MAX_SET_CHANGES` changes finishes with projected
//! Gauss-Seidel sweeps on the same system.
//!
//! Friction stays point by point, in the relax iterations: there the exact normals and
//! friction sweeps take turns (`RELAX_ROUNDS`), since under a heavy body one pass of each
//! leaves it swaying. Restitution and the stored impulses are as for any contact.
//!
//! Cost: about m^3 / 6 per factorisation plus m^2 per solve, so it is meant for small islands
//! (a heavy prop on crates: 0.01 ms per step). Solver2D's three pyramids of 55 boxes (about
//! 290 rows each) take 4.5 ms per step against Box2D's 0.09 (`bench_compare --exact-islands`).

use super::body_state::{BodyState, STATIC_BODY, read_state, write_state};
use super::contact_solver::{ContactConstraint, point_bias};
use super::softness::Softness;
use crate::math::cross;
use bevy_math::Vec2;
use std::ops::Range;

/// Compliance added to each row, as a fraction of its diagonal.
const REGULARISATION: f64 = 1e-4;

/// Most changes of the active set in one solve before Gauss-Seidel finishes it.
const MAX_SET_CHANGES: usize = 64;

/// Rounds of exact normals and friction sweeps in a relax iteration.
const RELAX_ROUNDS: usize = 2;

/// Most friction sweeps of a relax iteration.
const MAX_FRICTION_SWEEPS: usize = 32;

/// Friction has settled when no impulse changes by more than this fraction of the largest
/// normal impulse in a sweep.
const FRICTION_SETTLED: f32 = 1e-4;

/// Most rows added to or removed from a cached factor's set before it is factored afresh.
const MAX_SET_UPDATE: usize = 8;

/// Projected Gauss-Seidel sweeps of the fallback.
const FALLBACK_SWEEPS: usize = 64;

/// Union-find over solver bodies, islands of contact constraints, each at most `max_bodies`
/// bodies. `pairs[k]` holds constraint k's solver bodies; `movable(body)` says whether a
/// solver body can be pushed (static and kinematic bodies join nothing). Returns each
/// constraint's island number (islands numbered in order of their first constraint), or
/// `None` for constraints of islands too big.
pub(crate) fn find_exact_contact_islands(
    pairs: &[(u32, u32)],
    body_count: usize,
    movable: impl Fn(u32) -> bool,
    max_bodies: usize,
) -> Vec<Option<u32>> {
    let mut parent: Vec<u32> = (0..body_count as u32).collect();
    fn find(parent: &mut [u32], mut i: u32) -> u32 {
        while parent[i as usize] != i {
            parent[i as usize] = parent[parent[i as usize] as usize];
            i = parent[i as usize];
        }
        i
    }
    let joins = |b: u32| b != STATIC_BODY && movable(b);
    for &(a, b) in pairs {
        if joins(a) && joins(b) {
            let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
            if ra != rb {
                parent[ra.max(rb) as usize] = ra.min(rb);
            }
        }
    }
    // Bodies per root.
    let mut size = vec![0u32; body_count];
    for body in 0..body_count as u32 {
        if movable(body) {
            size[find(&mut parent, body) as usize] += 1;
        }
    }
    let mut number = vec![u32::MAX; body_count];
    let mut next = 0;
    pairs
        .iter()
        .map(|&(a, b)| {
            let body = if joins(a) { a } else { b };
            if !joins(body) {
                return None;
            }
            let root = find(&mut parent, body) as usize;
            if size[root] as usize > max_bodies {
                return None;
            }
            if number[root] == u32::MAX {
                number[root] = next;
                next += 1;
            }
            Some(number[root])
        })
        .collect()
}

/// One normal row of an island: a point of a constraint, and its Jacobian.
#[derive(Clone, Copy, Debug)]
struct Row {
    /// Constraint (within the island) and point.
    constraint: usize,
    point: usize,
    a: u32,
    b: u32,
    /// Linear part -n on A, n on B; angular parts rA x n and rB x n (signs in `apply`).
    normal: Vec2,
    rn_a: f32,
    rn_b: f32,
    inv_mass_a: f32,
    inv_inertia_a: f32,
    inv_mass_b: f32,
    inv_inertia_b: f32,
}

/// A matrix by rows of its nonzero entries.
#[derive(Default)]
struct Sparse {
    /// Row i's entries are `columns[starts[i]..starts[i + 1]]` and the same of `values`.
    starts: Vec<usize>,
    columns: Vec<usize>,
    values: Vec<f64>,
}

impl Sparse {
    /// The nonzero entries of the dense n x n `matrix`.
    fn of(matrix: &[f64], n: usize, out: &mut Sparse) {
        out.starts.clear();
        out.columns.clear();
        out.values.clear();
        out.starts.push(0);
        for i in 0..n {
            for (j, &v) in matrix[i * n..(i + 1) * n].iter().enumerate() {
                if v != 0.0 {
                    out.columns.push(j);
                    out.values.push(v);
                }
            }
            out.starts.push(out.columns.len());
        }
    }

    /// Row i times `x`.
    #[inline]
    fn row_dot(&self, i: usize, x: &[f64]) -> f64 {
        let range = self.starts[i]..self.starts[i + 1];
        self.columns[range.clone()]
            .iter()
            .zip(&self.values[range])
            .map(|(&j, v)| v * x[j])
            .sum()
    }
}

/// What an island keeps across the substeps of one step.
#[derive(Default)]
pub(crate) struct IslandCache {
    /// The rows and A were built this step.
    built: bool,
    rows: Vec<Row>,
    /// A (with the regularisation), row-major.
    matrix: Vec<f64>,
    /// The same A by its nonzero entries (rows sharing a body), for products with A.
    sparse: Sparse,
    /// The active sets and factors of the biased solve (0) and of the relax (1): their
    /// right-hand sides differ by the bias, so their sets may too.
    modes: [ActiveSet; 2],
}

/// An active set and the Cholesky factor of its rows.
#[derive(Default)]
struct ActiveSet {
    /// Rows in the active set the last solve ended with.
    active: Vec<bool>,
    /// The active set `factor` belongs to, and its Cholesky factor (lower, packed by active
    /// row order).
    factored: Option<Vec<usize>>,
    /// Membership of `factored`, by row.
    in_factor: Vec<bool>,
    factor: Vec<f64>,
}

/// The exact contact islands of a step and their caches.
#[derive(Default)]
pub(crate) struct ExactContacts {
    /// Each island's constraints: a range of positions in the solver's constraint array.
    pub islands: Vec<Range<usize>>,
    caches: Vec<IslandCache>,
    /// Scratch for one solve.
    q: Vec<f64>,
    x: Vec<f64>,
    w: Vec<f64>,
}

impl ExactContacts {
    /// Marks every island's rows as stale: the step's constraints are new.
    pub fn begin_step(&mut self) {
        self.caches
            .resize_with(self.islands.len(), IslandCache::default);
        for cache in &mut self.caches {
            cache.built = false;
        }
    }

    /// Solves island `index`, whose constraints are `constraints`, once: with bias, or
    /// relaxing (then friction follows, point by point).
    #[allow(clippy::too_many_arguments)]
    pub fn solve(
        &mut self,
        index: usize,
        constraints: &mut [ContactConstraint],
        states: &mut [BodyState],
        inv_h: f32,
        use_bias: bool,
        max_push_speed: f32,
    ) {
        let ExactContacts {
            caches, q, x, w, ..
        } = self;
        let cache = &mut caches[index];
        if !cache.built {
            build(cache, constraints);
        }
        let n = cache.rows.len();
        if n == 0 {
            return;
        }
        // Relaxing, the exact normals and point-by-point friction take turns: friction under a
        // heavy body changes the normal velocities through the lever arms, and one pass of
        // each left the heavy box of Solver2D's pyramids swaying by centimetres per second.
        let rounds = if use_bias { 1 } else { RELAX_ROUNDS };
        for _ in 0..rounds {
            normal_pass(
                cache,
                constraints,
                states,
                inv_h,
                use_bias,
                max_push_speed,
                q,
                x,
                w,
            );
            if !use_bias {
                let largest = x.iter().fold(0.0f64, |m, v| m.max(*v)) as f32;
                for _ in 0..MAX_FRICTION_SWEEPS {
                    let change = super::contact_solver::solve_friction(constraints, states);
                    if change <= FRICTION_SETTLED * largest {
                        break;
                    }
                }
            }
        }
    }
}

/// One exact solve of the island's normal rows: the complementarity problem at the current
/// velocities, its impulses applied, and the bookkeeping restitution and storing read.
#[allow(clippy::too_many_arguments)]
fn normal_pass(
    cache: &mut IslandCache,
    constraints: &mut [ContactConstraint],
    states: &mut [BodyState],
    inv_h: f32,
    use_bias: bool,
    max_push_speed: f32,
    q: &mut Vec<f64>,
    x: &mut Vec<f64>,
    w: &mut Vec<f64>,
) {
    // q = J v + bias - A a: the velocity error with the impulses applied so far removed.
    q.clear();
    x.clear();
    for row in &cache.rows {
        let c = &constraints[row.constraint];
        let cp = &c.points[row.point];
        let (sa, sb) = (read_state(states, row.a), read_state(states, row.b));
        let s = super::contact_solver::current_separation(cp, c.normal, &sa, &sb);
        let rigid = Softness {
            bias_rate: c.softness.bias_rate,
            mass_scale: c.softness.mass_scale,
            impulse_scale: 0.0,
        };
        let (bias, _, _) = point_bias(s, inv_h, use_bias, &rigid, max_push_speed);
        q.push(f64::from(normal_velocity(row, &sa, &sb) + bias));
        x.push(f64::from(cp.normal_impulse));
    }
    for (i, qi) in q.iter_mut().enumerate() {
        *qi -= cache.sparse.row_dot(i, x);
    }
    let applied: Vec<f64> = x.clone();
    let set = &mut cache.modes[usize::from(!use_bias)];
    solve_lcp(
        &cache.matrix,
        &cache.sparse,
        set,
        q,
        x,
        w,
        1e-4 * f64::from(max_push_speed),
    );
    // Apply x - a and keep the bookkeeping the other contact stages read.
    for (i, row) in cache.rows.iter().enumerate() {
        let delta = (x[i] - applied[i]) as f32;
        let c = &mut constraints[row.constraint];
        let (mut sa, mut sb) = (read_state(states, row.a), read_state(states, row.b));
        let vn = normal_velocity(row, &sa, &sb);
        apply(row, &mut sa, &mut sb, delta);
        write_state(states, row.a, sa);
        write_state(states, row.b, sb);
        let cp = &mut c.points[row.point];
        cp.normal_impulse = x[i] as f32;
        cp.max_normal_impulse = cp.max_normal_impulse.max(delta);
        if use_bias && delta > 0.0 {
            cp.relative_velocity = cp.relative_velocity.min(vn);
        }
    }
}

/// Builds the island's rows and A from its constraints (fixed for the step).
fn build(cache: &mut IslandCache, constraints: &[ContactConstraint]) {
    cache.rows.clear();
    for (k, c) in constraints.iter().enumerate() {
        for (i, cp) in c.points[..c.point_count].iter().enumerate() {
            cache.rows.push(Row {
                constraint: k,
                point: i,
                a: c.index_a,
                b: c.index_b,
                normal: c.normal,
                rn_a: cross(cp.anchor_a, c.normal),
                rn_b: cross(cp.anchor_b, c.normal),
                inv_mass_a: c.inv_mass_a,
                inv_inertia_a: c.inv_inertia_a,
                inv_mass_b: c.inv_mass_b,
                inv_inertia_b: c.inv_inertia_b,
            });
        }
    }
    let rows = &cache.rows;
    let n = rows.len();
    cache.matrix.clear();
    cache.matrix.resize(n * n, 0.0);
    for r in 0..n {
        for s in 0..=r {
            let v = coupling(&rows[r], &rows[s]);
            cache.matrix[r * n + s] = v;
            cache.matrix[s * n + r] = v;
        }
        cache.matrix[r * n + r] *= 1.0 + REGULARISATION;
    }
    Sparse::of(&cache.matrix, n, &mut cache.sparse);
    // Both sets start from the rows the warm start pushes with: what a snapshot holds, so a
    // restored world solves its first step as the original did (a set kept from the last step
    // would take another path through the factorisations, and round differently).
    for set in &mut cache.modes {
        set.active.clear();
        set.active.extend(
            rows.iter()
                .map(|row| constraints[row.constraint].points[row.point].normal_impulse > 0.0),
        );
        set.factored = None;
    }
    cache.built = true;
}

/// J_r M^-1 J_s^T for two normal rows.
fn coupling(p: &Row, q: &Row) -> f64 {
    let mut v = 0.0f64;
    // Each row acts on A with (-n, -rn_a) and on B with (n, rn_b).
    let sides = |r: &Row| {
        [
            (r.a, -r.normal, -r.rn_a, r.inv_mass_a, r.inv_inertia_a),
            (r.b, r.normal, r.rn_b, r.inv_mass_b, r.inv_inertia_b),
        ]
    };
    for (body, n1, rn1, m, i) in sides(p) {
        if body == STATIC_BODY {
            continue;
        }
        for (other, n2, rn2, _, _) in sides(q) {
            if other == body {
                v += f64::from(m) * f64::from(n1.dot(n2)) + f64::from(i) * f64::from(rn1 * rn2);
            }
        }
    }
    v
}

/// Relative normal velocity of a row's point (positive: separating).
fn normal_velocity(row: &Row, sa: &BodyState, sb: &BodyState) -> f32 {
    (sb.linear_velocity - sa.linear_velocity).dot(row.normal) + sb.angular_velocity * row.rn_b
        - sa.angular_velocity * row.rn_a
}

/// Applies a normal impulse `lambda` at a row's point: minus to A, plus to B.
fn apply(row: &Row, sa: &mut BodyState, sb: &mut BodyState, lambda: f32) {
    sa.linear_velocity -= row.inv_mass_a * lambda * row.normal;
    sa.angular_velocity -= row.inv_inertia_a * lambda * row.rn_a;
    sb.linear_velocity += row.inv_mass_b * lambda * row.normal;
    sb.angular_velocity += row.inv_inertia_b * lambda * row.rn_b;
}

/// Solves w = A x + q >= 0, x >= 0, x w = 0 into `x` (which holds the impulses applied so far
/// and is overwritten), starting from the cached active set.
fn solve_lcp(
    matrix: &[f64],
    sparse: &Sparse,
    cache: &mut ActiveSet,
    q: &[f64],
    x: &mut [f64],
    w: &mut Vec<f64>,
    closing: f64,
) {
    let n = q.len();
    // A row joins only when it closes faster than `closing` (a ten-thousandth of the push
    // speed, 0.3 mm/s by default: the bias catches such a drift within the substep), and
    // leaves only when it pulls harder than a millionth of the largest impulse. A statically
    // indeterminate island (a box on two boxes) has rows that pull a little one substep and
    // close a little the next; without the margins each flip is a new factorisation.
    let tolerance = closing;
    let mut changes = 0;
    loop {
        let active: Vec<usize> = (0..n).filter(|&i| cache.active[i]).collect();
        if !solve_active(matrix, cache, &active, q, x) {
            break;
        }
        // A row pulling (negative impulse) leaves the set: the most negative first.
        let largest = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let pulling = active
            .iter()
            .copied()
            .filter(|&i| x[i] < -1e-6 * largest)
            .min_by(|&i, &j| x[i].total_cmp(&x[j]));
        if let Some(i) = pulling {
            cache.active[i] = false;
        } else {
            // A row still closing joins it: the fastest first.
            w.clear();
            w.extend((0..n).map(|i| sparse.row_dot(i, x) + q[i]));
            let closing = (0..n)
                .filter(|&i| !cache.active[i] && w[i] < -tolerance)
                .min_by(|&i, &j| w[i].total_cmp(&w[j]));
            match closing {
                Some(i) => cache.active[i] = true,
                None => {
                    // What is left of a pull within the tolerance is not applied.
                    for v in x.iter_mut() {
                        *v = v.max(0.0);
                    }
                    return;
                }
            }
        }
        changes += 1;
        if changes > MAX_SET_CHANGES {
            break;
        }
    }
    // The set did not settle (or its system could not be factored): projected Gauss-Seidel
    // from the impulses so far, clamped.
    for v in x.iter_mut() {
        *v = if v.is_finite() { v.max(0.0) } else { 0.0 };
    }
    for _ in 0..FALLBACK_SWEEPS {
        for i in 0..n {
            let wi = sparse.row_dot(i, x) + q[i];
            x[i] = (x[i] - wi / matrix[i * n + i]).max(0.0);
        }
    }
    for (i, v) in x.iter().enumerate() {
        cache.active[i] = *v > 0.0;
    }
    cache.factored = None;
}

/// Solves the active rows as equalities (A_SS x_S = -q_S, x = 0 elsewhere). False when the
/// system cannot be solved (A_SS not positive definite).
///
/// A set close to the one whose factor is cached (at most `MAX_SET_UPDATE` rows added or
/// removed) is solved through that factor and a small bordered system instead of a new
/// factorisation: a resting island's set changes by a row or two now and then, and a new
/// factor costs m^3 / 6 where the border costs about 2 k m^2.
fn solve_active(
    matrix: &[f64],
    cache: &mut ActiveSet,
    active: &[usize],
    q: &[f64],
    x: &mut [f64],
) -> bool {
    let n = q.len();
    let near = cache.factored.as_ref().is_some_and(|factored| {
        let added = active.iter().filter(|&&i| !cache.in_factor[i]).count();
        let removed = factored.iter().filter(|&&i| !cache.active[i]).count();
        added + removed <= MAX_SET_UPDATE
    });
    if !near {
        let m = active.len();
        cache.factor.clear();
        cache.factor.resize(m * m, 0.0);
        for (r, &i) in active.iter().enumerate() {
            for (c, &j) in active.iter().enumerate().take(r + 1) {
                cache.factor[r * m + c] = matrix[i * n + j];
            }
        }
        if !cholesky(&mut cache.factor, m) {
            cache.factored = None;
            return false;
        }
        cache.factored = Some(active.to_vec());
        cache.in_factor.clear();
        cache.in_factor.resize(n, false);
        for &i in active {
            cache.in_factor[i] = true;
        }
    }
    for v in x.iter_mut() {
        *v = 0.0;
    }
    let factored = cache.factored.as_deref().unwrap_or_default();
    let m = factored.len();
    let l = &cache.factor;
    // z = A_FF^-1 r_F, r = -q.
    let mut z: Vec<f64> = factored.iter().map(|&i| -q[i]).collect();
    substitute(l, m, &mut z);
    if factored == active {
        for (r, &i) in factored.iter().enumerate() {
            x[i] = z[r];
        }
        return x.iter().all(|v| v.is_finite());
    }
    // The bordered system. With T the rows added and D the rows removed:
    //   A_FF x_F + A_FT x_T - E_D mu = r_F    (mu frees the removed rows' equations)
    //   A_TF x_F + A_TT x_T          = r_T
    //   E_D^T x_F                    = 0      (removed rows carry nothing)
    // x_F = z - Y_T x_T + Y_D mu with Y = A_FF^-1 [A_FT, E_D], leaving k = |T| + |D| unknowns.
    let added: Vec<usize> = active
        .iter()
        .copied()
        .filter(|&i| !cache.in_factor[i])
        .collect();
    let removed: Vec<usize> = factored
        .iter()
        .enumerate()
        .filter(|(_, i)| !cache.active[**i])
        .map(|(r, _)| r)
        .collect();
    let k = added.len() + removed.len();
    let mut y = vec![0.0f64; k * m];
    for (c, &t) in added.iter().enumerate() {
        let column = &mut y[c * m..(c + 1) * m];
        for (r, &f) in factored.iter().enumerate() {
            column[r] = matrix[f * n + t];
        }
        substitute(l, m, column);
    }
    for (c, &d) in removed.iter().enumerate() {
        let column = &mut y[(added.len() + c) * m..(added.len() + c + 1) * m];
        column[d] = 1.0;
        substitute(l, m, column);
    }
    // k x k system b u = g for u = (x_T, mu).
    let mut b = vec![0.0f64; k * k];
    let mut g = vec![0.0f64; k];
    let row_of = |t: usize, column: &[f64]| -> f64 {
        factored
            .iter()
            .enumerate()
            .map(|(r, &f)| matrix[t * n + f] * column[r])
            .sum()
    };
    for (i, &t) in added.iter().enumerate() {
        for (j, &u) in added.iter().enumerate() {
            b[i * k + j] = matrix[t * n + u] - row_of(t, &y[j * m..(j + 1) * m]);
        }
        for c in 0..removed.len() {
            let j = added.len() + c;
            b[i * k + j] = row_of(t, &y[j * m..(j + 1) * m]);
        }
        g[i] = -q[t] - row_of(t, &z);
    }
    for (c, &d) in removed.iter().enumerate() {
        let i = added.len() + c;
        for j in 0..added.len() {
            b[i * k + j] = -y[j * m + d];
        }
        for c2 in 0..removed.len() {
            let j = added.len() + c2;
            b[i * k + j] = y[j * m + d];
        }
        g[i] = -z[d];
    }
    if !gauss_solve(&mut b, k, &mut g) {
        return false;
    }
    for (r, &f) in factored.iter().enumerate() {
        let mut v = z[r];
        for (c, u) in g.iter().enumerate() {
            let sign = if c < added.len() { -1.0 } else { 1.0 };
            v += sign * y[c * m + r] * u;
        }
        x[f] = v;
    }
    for &r in &removed {
        x[factored[r]] = 0.0;
    }
    for (c, &t) in added.iter().enumerate() {
        x[t] = g[c];
    }
    x.iter().all(|v| v.is_finite())
}

/// Solves L L^T v = v in place, L the m x m lower Cholesky factor.
fn substitute(l: &[f64], m: usize, v: &mut [f64]) {
    for r in 0..m {
        let mut s = v[r];
        for c in 0..r {
            s -= l[r * m + c] * v[c];
        }
        v[r] = s / l[r * m + r];
    }
    for r in (0..m).rev() {
        let mut s = v[r];
        for c in r + 1..m {
            s -= l[c * m + r] * v[c];
        }
        v[r] = s / l[r * m + r];
    }
}

/// Solves the small dense k x k system a u = g in place (Gaussian elimination with partial
/// pivoting). False when it is singular.
fn gauss_solve(a: &mut [f64], k: usize, g: &mut [f64]) -> bool {
    for col in 0..k {
        let pivot = (col..k)
            .max_by(|&i, &j| a[i * k + col].abs().total_cmp(&a[j * k + col].abs()))
            .unwrap_or(col);
        let largest = a[pivot * k + col].abs();
        if largest.is_nan() || largest <= 1e-300 {
            return false;
        }
        if pivot != col {
            for c in 0..k {
                a.swap(pivot * k + c, col * k + c);
            }
            g.swap(pivot, col);
        }
        for r in col + 1..k {
            let f = a[r * k + col] / a[col * k + col];
            for c in col..k {
                a[r * k + c] -= f * a[col * k + c];
            }
            g[r] -= f * g[col];
        }
    }
    for r in (0..k).rev() {
        let mut s = g[r];
        for c in r + 1..k {
            s -= a[r * k + c] * g[c];
        }
        g[r] = s / a[r * k + r];
    }
    true
}

/// Cholesky factorisation in place of the lower triangle of the m x m matrix `a`. False when
/// a pivot is not positive.
fn cholesky(a: &mut [f64], m: usize) -> bool {
    for j in 0..m {
        let mut d = a[j * m + j];
        for k in 0..j {
            d -= a[j * m + k] * a[j * m + k];
        }
        if d.is_nan() || d <= 0.0 {
            return false;
        }
        let d = d.sqrt();
        a[j * m + j] = d;
        for i in j + 1..m {
            let mut s = a[i * m + j];
            for k in 0..j {
                s -= a[i * m + k] * a[j * m + k];
            }
            a[i * m + j] = s / d;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Islands join bodies through contacts between movable bodies only; static and kinematic
    /// bodies split them; islands above the size limit are left out.
    #[test]
    fn islands_join_through_movable_bodies_only() {
        // Bodies 0-1-2 touch in a chain; 3 and 4 each touch the ground; 5 is kinematic and
        // touches 3 and 4.
        let pairs = [
            (0, 1),
            (1, 2),
            (STATIC_BODY, 3),
            (4, STATIC_BODY),
            (5, 3),
            (5, 4),
        ];
        let movable = |b: u32| b != 5;
        let islands = find_exact_contact_islands(&pairs, 6, movable, 3);
        assert_eq!(
            islands,
            [Some(0), Some(0), Some(1), Some(2), Some(1), Some(2)]
        );
        let small = find_exact_contact_islands(&pairs, 6, movable, 2);
        assert_eq!(small, [None, None, Some(0), Some(1), Some(0), Some(1)]);
    }
}
