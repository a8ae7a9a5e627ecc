//! Tests of the lanes' contact solver: lanes against the scalar solver, preparing in
//! place against packing, and the regressions found in lanes.
use super::*;
use crate::solver::body_state::read_state;
use crate::solver::contact_solver::{
    ConstraintPoint, ContactSolveSettings, TwoPoints, apply_restitution, current_separation,
    resting, solve_contacts, warm_start,
};
use crate::solver::softness::Softness;
use bevy_math::Vec2;
use std::ops::Range;

/// A small deterministic generator of test values in [lo, hi).
struct Values(u32);
impl Values {
    fn next(&mut self, lo: f32, hi: f32) -> f32 {
        self.0 = self.0.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        lo + (hi - lo) * (self.0 >> 8) as f32 / (1u32 << 24) as f32
    }
    fn vec(&mut self, r: f32) -> Vec2 {
        Vec2::new(self.next(-r, r), self.next(-r, r))
    }
}

fn constraint(v: &mut Values, a: u32, b: u32, points: usize) -> ContactConstraint {
    let normal = v.vec(1.0).normalize();
    let mut point = || ConstraintPoint {
        anchor_a: v.vec(0.5),
        anchor_b: v.vec(0.5),
        base_separation: v.next(-0.02, 0.01),
        relative_velocity: v.next(-2.0, 0.0),
        normal_impulse: v.next(0.0, 0.5),
        tangent_impulse: v.next(-0.1, 0.1),
        max_normal_impulse: 0.0,
        normal_mass: v.next(0.2, 1.0),
        tangent_mass: v.next(0.2, 1.0),
    };
    let points_made = [point(), point()];
    let mass = |v: &mut Values, i: u32| {
        if i == STATIC_BODY {
            (0.0, 0.0)
        } else {
            (v.next(0.5, 2.0), v.next(0.5, 3.0))
        }
    };
    let (inv_mass_a, inv_inertia_a) = mass(v, a);
    let (inv_mass_b, inv_inertia_b) = mass(v, b);
    ContactConstraint {
        index_a: a,
        index_b: b,
        inv_mass_a,
        inv_inertia_a,
        inv_mass_b,
        inv_inertia_b,
        normal,
        friction: v.next(0.2, 1.0),
        restitution: 0.0,
        softness: Softness::new(30.0, 10.0, 1.0 / 240.0),
        points: points_made,
        point_count: points,
        block: None,
        swapped: false,
    }
}

/// Contact settings at 60 Hz with four substeps.
fn test_settings() -> ContactSolveSettings {
    ContactSolveSettings {
        contact_softness: Softness::new(30.0, 10.0, 1.0 / 240.0),
        static_softness: Softness::new(60.0, 10.0, 1.0 / 240.0),
        max_push_speed: 3.0,
        restitution_threshold: 1.0,
        use_block_solver: false,
        points_together: false,
        deeper_point_first: false,
    }
}

/// Points together is the default, so the options a world turns on take its place: the
/// block solver first, then the deeper point first (either alone keeps its own order); a
/// world with none of the three solves in listed order.
#[test]
fn the_block_solver_and_the_deeper_point_first_take_the_place_of_points_together() {
    let with = |block: bool, deeper: bool, together: bool| {
        ContactSolveSettings {
            use_block_solver: block,
            deeper_point_first: deeper,
            points_together: together,
            ..test_settings()
        }
        .two_points()
    };
    assert_eq!(with(false, false, true), TwoPoints::Together);
    assert_eq!(with(true, false, true), TwoPoints::Block);
    assert_eq!(with(true, true, true), TwoPoints::Block);
    assert!(matches!(
        with(false, true, true),
        TwoPoints::DeeperFirst { .. }
    ));
    assert_eq!(with(false, false, false), TwoPoints::Listed);
}

/// The constraints coloured in order, over `body_count` solver bodies.
fn colour(constraints: &[ContactConstraint], body_count: usize) -> GraphColoring {
    let mut coloring = GraphColoring::default();
    coloring.reset(body_count);
    for (k, c) in constraints.iter().enumerate() {
        coloring.add(k as u32, c.index_a, c.index_b);
    }
    coloring
}

/// Every field of lane `lane` of `g`, as bits.
fn lane_bits(g: &WideConstraint, lane: usize) -> Vec<u32> {
    let mut lanes = vec![
        g.inv_mass_a,
        g.inv_inertia_a,
        g.inv_mass_b,
        g.inv_inertia_b,
        g.normal_x,
        g.normal_y,
        g.friction,
        g.bias_rate,
        g.mass_scale,
        g.impulse_scale,
        g.restitution,
    ];
    for p in &g.points {
        lanes.extend([
            p.anchor_a_x,
            p.anchor_a_y,
            p.anchor_b_x,
            p.anchor_b_y,
            p.normal_impulse,
            p.tangent_impulse,
            p.base_separation,
            p.relative_velocity,
            p.max_normal_impulse,
            p.normal_mass,
            p.tangent_mass,
        ]);
    }
    let mut bits = vec![g.index_a[lane], g.index_b[lane]];
    bits.extend(lanes.iter().map(|l| l.as_array()[lane].to_bits()));
    bits
}

/// Preparing straight into a lane writes exactly what preparing the scalar constraint
/// and packing it wrote (the step's results depend on it bit for bit): one- and
/// two-point manifolds, static and moving bodies, dominance either way, every lane.
#[test]
fn a_lane_prepared_in_place_matches_the_packed_scalar_constraint() {
    use crate::collision::{Manifold, ManifoldPoint};
    use crate::solver::contact_solver::{ConstraintBody, ContactSurface, prepare_contact};
    let mut v = Values(11);
    let (mut swaps, mut block_cases, mut blocks) = (0, 0, 0);
    let (mut together_cases, mut togethers) = (0, 0);
    for case in 0..192 {
        // A third of the cases solve deeper point first, which may hold a manifold's points
        // in the other order; the two-point manifolds of the first third use the block
        // solver, which takes some of them (their points hold a body's centre) and not
        // others, and those of the last third are solved together where they couple loosely.
        let settings = ContactSolveSettings {
            deeper_point_first: (64..128).contains(&case),
            use_block_solver: case < 64 && case % 2 == 1,
            points_together: case >= 128 && case % 2 == 1,
            ..test_settings()
        };
        let body = |v: &mut Values, index: u32, dominance: i8| {
            let moving = index != STATIC_BODY;
            ConstraintBody {
                solver_index: index,
                inv_mass: if moving { v.next(0.1, 2.0) } else { 0.0 },
                inv_inertia: if moving { v.next(0.1, 3.0) } else { 0.0 },
                center_offset: v.vec(0.3),
                linear_velocity: v.vec(3.0),
                angular_velocity: v.next(-2.0, 2.0),
                dominance,
            }
        };
        let a = body(&mut v, if case % 5 == 0 { STATIC_BODY } else { 3 }, 0);
        let b = body(&mut v, 7, if case % 7 == 0 { 1 } else { 0 });
        let mut manifold = Manifold {
            normal: v.vec(1.0).normalize(),
            point_count: 1 + case % 2,
            ..Default::default()
        };
        for mp in manifold.points.iter_mut() {
            *mp = ManifoldPoint {
                point: crate::position::to_position(v.vec(2.0)),
                anchor_a: v.vec(0.6),
                anchor_b: v.vec(0.6),
                separation: v.next(-0.03, 0.02),
                normal_impulse: v.next(0.0, 1.0),
                tangent_impulse: v.next(-0.3, 0.3),
                ..Default::default()
            };
        }
        let surface = ContactSurface {
            friction: v.next(0.0, 1.0),
            restitution: v.next(0.0, 0.5),
            ..Default::default()
        };
        let lane = case % LANES;
        let mut scalar = ContactConstraint::default();
        prepare_contact(&mut scalar, &manifold, &surface, &a, &b, &settings);
        let (mut packed, mut in_place) = (WideConstraint::default(), WideConstraint::default());
        pack_lane(&mut packed, lane, &scalar);
        prepare_lane(&mut in_place, lane, &manifold, &surface, &a, &b, &settings);
        if settings.use_block_solver {
            super::block::mark_blocks(&mut in_place);
        }
        if settings.points_together {
            super::together::mark_together(&mut in_place);
        }
        assert_eq!(
            lane_bits(&in_place, lane),
            lane_bits(&packed, lane),
            "case {case}"
        );
        assert_eq!(in_place.swapped[lane], scalar.swapped, "case {case}");
        swaps += scalar.swapped as usize;
        assert_eq!(in_place.block[lane], scalar.block.is_some(), "case {case}");
        if settings.use_block_solver {
            block_cases += 1;
            blocks += in_place.block[lane] as usize;
        }
        if settings.points_together {
            together_cases += 1;
            togethers += in_place.block[lane] as usize;
        }
        // Before any solve the results are the warm start's impulses, which both give back
        // in the manifold's order, swapped or not.
        for solved in [scalar.solved_points(), lane_results(&in_place, lane)] {
            for (sp, mp) in solved.iter().zip(manifold.points()) {
                assert_eq!(sp.normal_impulse, mp.normal_impulse, "case {case}");
                assert_eq!(sp.tangent_impulse, mp.tangent_impulse, "case {case}");
            }
        }
    }
    assert!(swaps > 0, "no manifold was held in the other order");
    assert!(
        blocks > 0 && blocks < block_cases,
        "{blocks} of {block_cases} manifolds taken as blocks: the rule went untested"
    );
    assert!(
        togethers > 0 && togethers < together_cases,
        "{togethers} of {together_cases} manifolds solved together: the rule went untested"
    );
}

/// Regression: a soft point's push-out bias was clamped to the maximum push speed before
/// the soft mass scale multiplied it, so deep overlap separated at 3 m/s times the mass
/// scale (2.8 m/s at 30 Hz) instead of the promised 3 m/s. Box2D v3 clamps the scaled
/// bias. One point 0.5 m deep under a body at rest: the first biased iteration leaves the
/// point separating at exactly the push speed, one by one and in lanes.
#[test]
fn regression_the_push_out_speed_was_scaled_after_its_clamp() {
    let point = ConstraintPoint {
        anchor_a: Vec2::ZERO,
        anchor_b: Vec2::new(0.0, -0.5),
        base_separation: -0.5,
        // K = mB: the anchor lies on the line of the normal through the centre.
        normal_mass: 1.0,
        ..Default::default()
    };
    let c = ContactConstraint {
        index_a: STATIC_BODY,
        index_b: 0,
        inv_mass_b: 1.0,
        inv_inertia_b: 6.0,
        normal: Vec2::Y,
        softness: Softness::new(30.0, 10.0, 1.0 / 240.0),
        points: [point, ConstraintPoint::default()],
        point_count: 1,
        ..Default::default()
    };
    let settings = test_settings();
    let mut scalar = vec![c];
    let mut states = vec![BodyState::AT_REST];
    solve_contacts(&mut scalar, &mut [], &mut states, 240.0, true, &settings);
    assert!(
        (states[0].linear_velocity.y - 3.0).abs() < 1e-5,
        "{states:?}"
    );

    let coloring = colour(&[c], 1);
    let mut wide = Contacts::default();
    wide.build(&[c], &coloring);
    let mut lane_states = vec![BodyState::AT_REST];
    wide.solve(
        &mut lane_states,
        240.0,
        true,
        settings.max_push_speed,
        TwoPoints::Listed,
    );
    assert!(
        (lane_states[0].linear_velocity.y - 3.0).abs() < 1e-5,
        "{lane_states:?}"
    );
}

/// Constraints of one colour touch disjoint bodies, so solving them in lanes must give
/// what solving them one by one gives: same velocities, same impulses, up to rounding.
#[test]
fn lanes_give_what_one_by_one_gives() {
    lanes_against_one_by_one(TwoPoints::Listed);
}

/// The block solver in lanes gives what the scalar block solver gives, lanes it answers and
/// lanes it leaves to the point-by-point solve (a one-point manifold, and whatever random
/// manifolds are ill conditioned or hold no body's centre between their points) side by
/// side in one group; and it is not the point-by-point answer.
#[test]
fn block_lanes_give_what_the_scalar_block_gives() {
    let block = lanes_against_one_by_one(TwoPoints::Block);
    let points = lanes_against_one_by_one(TwoPoints::Listed);
    assert!(block != points, "the block solver changed nothing");
}

/// Points solved together in lanes give what the scalar path gives, lanes that couple
/// loosely and lanes left to the listed order (a one-point manifold, and whatever random
/// manifolds couple strongly) side by side in one group; and it is not the listed order's
/// answer.
#[test]
fn together_lanes_give_what_the_scalar_path_gives() {
    let together = lanes_against_one_by_one(TwoPoints::Together);
    let listed = lanes_against_one_by_one(TwoPoints::Listed);
    assert!(
        together != listed,
        "solving points together changed nothing"
    );
}

/// The lanes solve a manifold's deeper point first as the scalar path does, in a group
/// where some lanes' second point is the deeper and others' the first (the three masked
/// updates), and that order is not the listed one's answer.
#[test]
fn deeper_first_lanes_give_what_the_scalar_deeper_first_gives() {
    let deeper = lanes_against_one_by_one(TwoPoints::DeeperFirst { impact_speed: 1.0 });
    let listed = lanes_against_one_by_one(TwoPoints::Listed);
    assert!(
        deeper != listed,
        "solving the deeper point first changed nothing"
    );
}

/// Solving deeper point first, a manifold struck faster than the impact speed keeps the
/// listed order, in lanes as one by one: the helper finds such a manifold whose second point
/// is the deeper, and the answer differs from solving every manifold deeper point first.
#[test]
fn deeper_first_lanes_keep_the_listed_order_for_impacts_as_the_scalar_path_does() {
    let gated = lanes_against_one_by_one(TwoPoints::DeeperFirst { impact_speed: 1.0 });
    let every = lanes_against_one_by_one(TwoPoints::DeeperFirst {
        impact_speed: f32::INFINITY,
    });
    assert!(gated != every, "the impact speed changed nothing");
}

/// Solves the same constraints one by one and in lanes, two points as `two_points` says,
/// checks that both agree, and returns the lanes' velocities.
fn lanes_against_one_by_one(two_points: TwoPoints) -> Vec<BodyState> {
    let block = two_points == TwoPoints::Block;
    let together = two_points == TwoPoints::Together;
    let mut v = Values(7);
    let body_count = 14u32;
    let states: Vec<BodyState> = (0..body_count)
        .map(|_| {
            let mut s = BodyState::AT_REST;
            s.linear_velocity = v.vec(3.0);
            s.angular_velocity = v.next(-2.0, 2.0);
            s.delta_position = v.vec(0.01);
            s.delta_rotation = crate::math::Rot::from_angle(v.next(-0.05, 0.05));
            s
        })
        .collect();
    // Six constraints over disjoint bodies (two against fixed bodies), one with one point.
    let pairs = [
        (0, 1),
        (2, 3),
        (4, STATIC_BODY),
        (STATIC_BODY, 5),
        (6, 7),
        (8, 9),
    ];
    let constraints: Vec<ContactConstraint> = pairs
        .iter()
        .enumerate()
        .map(|(k, &(a, b))| {
            let mut c = constraint(&mut v, a, b, if k == 3 { 1 } else { 2 });
            // Every other constraint bounces.
            c.restitution = if k % 2 == 0 { 0.6 } else { 0.0 };
            // One manifold whose second point is the deeper, and which pushes, was struck
            // faster than 1 m/s.
            if k == 4 {
                for p in &mut c.points {
                    p.relative_velocity -= 1.5;
                }
            }
            if block && c.point_count == 2 {
                c.block = crate::solver::block_solver::BlockMatrix::new(&c);
            }
            // Two manifolds spread wide on a face (their points far apart, on both sides of
            // each body's centre), which couple loosely; the random others do not.
            if together && (k == 0 || k == 4) {
                let [p1, p2] = &mut c.points;
                p1.anchor_a *= 3.0;
                p1.anchor_b *= 3.0;
                p2.anchor_a = -p1.anchor_a;
                p2.anchor_b = -p1.anchor_b;
            }
            if together && c.point_count == 2 {
                let masses = (c.inv_mass_a, c.inv_inertia_a, c.inv_mass_b, c.inv_inertia_b);
                c.block =
                    crate::solver::points_together::together_matrix(&c.points, c.normal, masses);
            }
            c
        })
        .collect();
    if together {
        let taken: Vec<bool> = constraints
            .iter()
            .filter(|c| c.point_count == 2)
            .map(|c| c.block.is_some())
            .collect();
        assert!(
            taken.contains(&true) && taken.contains(&false),
            "solved together: {taken:?}"
        );
    }
    let impact_speed = match two_points {
        TwoPoints::DeeperFirst { impact_speed } => impact_speed,
        TwoPoints::Listed | TwoPoints::Block | TwoPoints::Together => 1.0,
    };
    let settings = ContactSolveSettings {
        use_block_solver: block,
        points_together: together,
        deeper_point_first: matches!(two_points, TwoPoints::DeeperFirst { .. }),
        restitution_threshold: impact_speed,
        ..test_settings()
    };
    assert_eq!(settings.two_points(), two_points);
    // Both orders occur: some two-point manifold has its second point deeper, some its first;
    // and among those whose second is the deeper, one was struck faster than the impact speed
    // of 1 m/s and one was not.
    let (second_deeper, struck): (Vec<bool>, Vec<bool>) = constraints
        .iter()
        .filter(|c| c.point_count == 2)
        .map(|c| {
            let s = |i: usize| {
                let (sa, sb) = (
                    read_state(&states, c.index_a),
                    read_state(&states, c.index_b),
                );
                current_separation(&c.points[i], c.normal, &sa, &sb)
            };
            (s(1) < s(0), !resting(&c.points, 1.0))
        })
        .unzip();
    assert!(second_deeper.contains(&true) && second_deeper.contains(&false));
    let struck_second_deeper: Vec<bool> = struck
        .iter()
        .zip(&second_deeper)
        .filter(|&(_, &deeper)| deeper)
        .map(|(&struck, _)| struck)
        .collect();
    assert!(
        struck_second_deeper.contains(&true) && struck_second_deeper.contains(&false),
        "{struck_second_deeper:?}"
    );
    let threshold = 0.1;

    let (mut scalar, mut scalar_states) = (constraints.clone(), states.clone());
    warm_start(&scalar, &[], &mut scalar_states);
    for use_bias in [true, false] {
        solve_contacts(
            &mut scalar,
            &mut [],
            &mut scalar_states,
            240.0,
            use_bias,
            &settings,
        );
    }
    let before_restitution = scalar_states.clone();
    apply_restitution(&mut scalar, &mut scalar_states, threshold);
    // Some point bounced, so the lanes' restitution is compared on real work.
    assert!(scalar_states != before_restitution);

    let coloring = colour(&constraints, body_count as usize);
    assert!(coloring.overflow.is_empty());
    let mut wide = Contacts::default();
    wide.build(&constraints, &coloring);
    assert_eq!(wide.constraint_count(), constraints.len());
    let mut lane_states = states.clone();
    wide.warm_start(&mut lane_states);
    for use_bias in [true, false] {
        wide.solve(
            &mut lane_states,
            240.0,
            use_bias,
            settings.max_push_speed,
            two_points,
        );
    }
    wide.restitution(&mut lane_states, threshold);
    let mut lanes = constraints.clone();
    wide.store(&mut lanes);

    let close = |x: f32, y: f32| (x - y).abs() <= 1e-5 * (1.0 + x.abs().max(y.abs()));
    for (i, (s, w)) in scalar_states.iter().zip(&lane_states).enumerate() {
        assert!(
            close(s.linear_velocity.x, w.linear_velocity.x)
                && close(s.linear_velocity.y, w.linear_velocity.y)
                && close(s.angular_velocity, w.angular_velocity),
            "body {i}: {s:?} one by one, {w:?} in lanes"
        );
    }
    for (k, (s, w)) in scalar.iter().zip(&lanes).enumerate() {
        for (p, q) in s.solved_points().iter().zip(w.solved_points()) {
            assert!(close(p.normal_impulse, q.normal_impulse), "constraint {k}");
            assert!(
                close(p.tangent_impulse, q.tangent_impulse),
                "constraint {k}"
            );
            assert!(close(p.max_normal_impulse, q.max_normal_impulse));
            assert!(close(p.relative_velocity, q.relative_velocity));
        }
    }
    // Something happened: the solve changed the velocities.
    assert!(scalar_states != states);
    lane_states
}

/// Friction waits for the relax: the biased iteration moves only normal impulses (in
/// lanes and one by one), the relax then moves the tangent ones.
#[test]
fn friction_is_solved_in_the_relax_only() {
    let mut v = Values(11);
    let mut states = vec![BodyState::AT_REST; 4];
    for s in &mut states {
        // Sliding fast enough that every point's friction has work to do.
        s.linear_velocity = v.vec(3.0);
        s.angular_velocity = v.next(-2.0, 2.0);
    }
    let constraints: Vec<ContactConstraint> = [(0, 1), (2, STATIC_BODY), (STATIC_BODY, 3)]
        .iter()
        .map(|&(a, b)| constraint(&mut v, a, b, 2))
        .collect();
    let settings = test_settings();
    let tangents = |cs: &[ContactConstraint]| -> Vec<f32> {
        cs.iter()
            .flat_map(|c| c.solved_points().map(|p| p.tangent_impulse))
            .collect()
    };
    let normals = |cs: &[ContactConstraint]| -> Vec<f32> {
        cs.iter()
            .flat_map(|c| c.solved_points().map(|p| p.normal_impulse))
            .collect()
    };

    // One by one.
    let (mut scalar, mut scalar_states) = (constraints.clone(), states.clone());
    solve_contacts(
        &mut scalar,
        &mut [],
        &mut scalar_states,
        240.0,
        true,
        &settings,
    );
    assert_eq!(tangents(&scalar), tangents(&constraints));
    assert_ne!(normals(&scalar), normals(&constraints));
    let biased = tangents(&scalar);
    solve_contacts(
        &mut scalar,
        &mut [],
        &mut scalar_states,
        240.0,
        false,
        &settings,
    );
    let relaxed = tangents(&scalar);
    assert!(biased.iter().zip(&relaxed).all(|(b, r)| b != r));

    // In lanes.
    let coloring = colour(&constraints, states.len());
    let mut wide = Contacts::default();
    wide.build(&constraints, &coloring);
    let mut lane_states = states.clone();
    let mut lanes = constraints.clone();
    wide.solve(
        &mut lane_states,
        240.0,
        true,
        settings.max_push_speed,
        TwoPoints::Listed,
    );
    wide.store(&mut lanes);
    assert_eq!(tangents(&lanes), tangents(&constraints));
    wide.solve(
        &mut lane_states,
        240.0,
        false,
        settings.max_push_speed,
        TwoPoints::Listed,
    );
    wide.store(&mut lanes);
    assert!(biased.iter().zip(&tangents(&lanes)).all(|(b, r)| b != r));
}

/// Constraints between random pairs of 64 bodies, coloured in order, and each one's worker
/// share of two (by its lower body).
fn coloured_pairs(seed: u32) -> (GraphColoring, Vec<usize>) {
    let bodies = 64u32;
    let pairs = crate::solver::graph_coloring::random_pairs(seed, bodies, 1200);
    let mut coloring = GraphColoring::default();
    coloring.reset(bodies as usize);
    for (k, &(a, b)) in pairs.iter().enumerate() {
        coloring.add(k as u32, a, b);
    }
    let shares = pairs
        .iter()
        .map(|&(a, b)| (a.min(b) >= bodies / 2) as usize)
        .collect();
    (coloring, shares)
}

/// The constraints laid out in `range` of `w`'s groups, in lane order.
fn laid(w: &Contacts, range: Range<usize>) -> Vec<u32> {
    w.lanes[range]
        .iter()
        .flatten()
        .copied()
        .filter(|&k| k != EMPTY_LANE)
        .collect()
}

/// Every coloured constraint is laid out once, at the position `layout` gave it.
fn assert_each_at_its_position(w: &Contacts, coloring: &GraphColoring, positions: &[u32]) {
    for (k, &place) in positions.iter().enumerate() {
        if coloring.overflow.contains(&(k as u32)) {
            continue;
        }
        let place = place as usize;
        assert_eq!(w.lanes[place / LANES][place % LANES], k as u32);
    }
}

/// Laid out in worker shares, each colour's groups hold its constraints of the first share,
/// in order, then those of the second: every constraint once, at the position it is given,
/// and the colours' constraint sets as laid out in one share.
#[test]
fn a_colour_is_laid_out_share_by_share_in_constraint_order() {
    let (coloring, shares) = coloured_pairs(4242);
    let share_of = |k: u32| shares[k as usize];
    let count = shares.len();
    let mut positions = vec![u32::MAX; count];
    let mut wide = Contacts::default();
    wide.layout(&coloring, &mut positions, 2, &share_of, None);
    let mut one_share = Contacts::default();
    one_share.layout(&coloring, &mut vec![0; count], 1, &|_| 0, None);
    assert_eq!(wide.colors, one_share.colors);
    let mut reordered = 0;
    for (range, list) in wide
        .colors
        .iter()
        .zip(coloring.colors.iter().filter(|c| !c.is_empty()))
    {
        let expected: Vec<u32> = (0..2)
            .flat_map(|s| list.iter().copied().filter(move |&k| share_of(k) == s))
            .collect();
        let got = laid(&wide, range.clone());
        reordered += usize::from(got != *list);
        assert_eq!(got, expected);
    }
    assert!(reordered > 0, "the shares should reorder some colour");
    assert_each_at_its_position(&wide, &coloring, &positions);
}

/// With `block_first`, each share of a colour lays out the constraints it names first, in
/// constraint order, then the others: the same constraints per colour as without it, each at
/// the position it is given.
#[test]
fn named_constraints_come_first_in_each_share_of_a_colour() {
    let (coloring, shares) = coloured_pairs(77);
    let share_of = |k: u32| shares[k as usize];
    let count = shares.len();
    let named = |k: u32| k.is_multiple_of(3);
    let mut positions = vec![u32::MAX; count];
    let mut wide = Contacts::default();
    wide.layout(&coloring, &mut positions, 2, &share_of, Some(&named));
    let mut plain = Contacts::default();
    plain.layout(&coloring, &mut vec![0; count], 2, &share_of, None);
    assert_eq!(wide.colors, plain.colors);
    for (range, list) in wide
        .colors
        .iter()
        .zip(coloring.colors.iter().filter(|c| !c.is_empty()))
    {
        let expected: Vec<u32> = (0..2)
            .flat_map(|s| {
                let of_share = move |k: &u32| share_of(*k) == s;
                let first = list.iter().copied().filter(of_share).filter(|&k| named(k));
                let rest = list.iter().copied().filter(of_share).filter(|&k| !named(k));
                first.chain(rest)
            })
            .collect();
        assert_eq!(laid(&wide, range.clone()), expected);
    }
    assert_each_at_its_position(&wide, &coloring, &positions);
}
