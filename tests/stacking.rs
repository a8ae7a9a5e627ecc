//! Stacks that must stand still: the core promise of the contact solver. Every test runs
//! with each contact solver configuration (points together, the default; listed order;
//! block; exact islands).

mod common;

use common::{SOLVERS, Solver, build, dynamic_positions, step_n};
use physics2d_demos::physics_core::prelude::{BodyId, BodyType, Vec2, World, WorldDef};
use physics2d_demos::physics_core::world::CONTACT_HERTZ_PER_SUBSTEP_RATE;
use physics2d_demos::scene;
use physics2d_demos::scenes::TowerLayout;

/// Static sag of the stack predicted by the soft contact model. At rest a soft contact point
/// carrying force F settles at separation s = -K F / w^2 (K its effective inverse mass,
/// w = 2 pi hertz): the leak term of the soft update balances the bias only there. A unit box
/// has I = 1/6, and its contact points sit 0.5 m either side of the centre, so per point
/// K = 2 (two unit masses) + 2 * 0.5^2 * 6 = 5 between boxes and 1 + 0.25 * 6 = 2.5 on the
/// ground, where the stiffness doubles. A contact with M boxes above carries M g / 2 per point.
fn predicted_stack_sag(boxes: usize) -> f32 {
    predicted_stack_sag_at(boxes, WorldDef::default().contact_hertz)
}

/// [`predicted_stack_sag`] with contacts of `hertz` (twice that against the ground).
fn predicted_stack_sag_at(boxes: usize, hertz: f32) -> f32 {
    let g = 10.0f32;
    let w = 2.0 * std::f32::consts::PI * hertz;
    let w_ground = 2.0 * w;
    let between: f32 = (1..boxes)
        .map(|above| 5.0 * above as f32 * g / 2.0 / (w * w))
        .sum();
    between + 2.5 * boxes as f32 * g / 2.0 / (w_ground * w_ground)
}

#[test]
fn vertical_stack_of_ten_stands_still_for_ten_seconds() {
    let s = scene("vertical_stack").unwrap();
    for (solver, config) in SOLVERS {
        // Soft contacts sag as the model predicts; an exact island rests on its contacts
        // (their bias closes any overlap; what is left is the last substep's fall).
        let sag = if config == Solver::ExactIslands {
            0.0
        } else {
            predicted_stack_sag(10)
        };
        let mut built = build(&s, config);
        let top = *built.bodies.last().unwrap();
        step_n(&mut built, s.dt, 60);
        let settled = built.world.body_position(top).unwrap();
        step_n(&mut built, s.dt, 540);
        let p = built.world.body_position(top).unwrap();
        assert!(
            p.x.abs() < 0.01,
            "{solver}: top box drifted {} m sideways",
            p.x
        );
        assert!(
            (p.y - settled.y).abs() < 0.02,
            "{solver}: top box moved from its rest height {} to {}",
            settled.y,
            p.y
        );
        // The rest height is the stacked height 9.5 m less the soft contacts' sag (1.45 cm at
        // the default 45 Hz); 5 mm covers the rotation the sag model leaves out.
        assert!(
            (9.5 - p.y - sag).abs() < 0.005,
            "{solver}: sag {} m, the contact model predicts {sag} m",
            9.5 - p.y
        );
    }
}

#[test]
fn pyramid_of_base_twenty_holds_its_shape() {
    let s = scene("pyramid").unwrap();
    let slop = WorldDef::default().linear_slop;
    let start: Vec<Vec2> = s
        .bodies
        .iter()
        .filter(|b| b.body_type == BodyType::Dynamic)
        .map(|b| b.position)
        .collect();
    for (solver, config) in SOLVERS {
        let mut built = build(&s, config);
        let mut worst = 0.0f32;
        for step in 0..600 {
            built.world.step(s.dt).unwrap();
            if step % 60 != 59 {
                continue;
            }
            // From where each box was placed (touching), every step of the 10 s: a box in
            // row i (from 0 at the bottom) rests on i + 1 contacts, each allowed to settle
            // the linear slop, so it may sink (i + 1) slops; a collapse moves boxes by
            // decimetres at once, a slow creep grows past the bound.
            for (p0, p) in start.iter().zip(dynamic_positions(&s, &built)) {
                let row = (p0.y - 0.5).round();
                let allowed = (row + 1.0) * slop;
                worst = worst.max(p0.distance(p) / allowed);
            }
        }
        eprintln!("{solver}: worst drift {worst} of the allowed");
        assert!(
            worst < 1.0,
            "{solver}: a box moved {worst} times the slops below it allow"
        );
    }
}

#[test]
fn heavy_box_on_light_boxes_stays_up() {
    let s = scene("high_mass_ratio").unwrap();
    for (solver, config) in SOLVERS {
        let mut built = build(&s, config);
        let heavy = *built.bodies.last().unwrap();
        let light: Vec<(BodyId, Vec2)> = s.bodies[1..4]
            .iter()
            .zip(&built.bodies[1..4])
            .map(|(d, id)| (*id, d.position))
            .collect();
        let mut lowest = f32::INFINITY;
        let mut squirt = 0.0f32;
        for _ in 0..600 {
            built.world.step(s.dt).unwrap();
            lowest = lowest.min(built.world.body_position(heavy).unwrap().y);
            for (id, start) in &light {
                squirt = squirt.max((built.world.body_position(*id).unwrap().x - start.x).abs());
            }
        }
        // Box2D v3 sinks 1.48 cm in this scene and squirts the light boxes 1.8 mm sideways
        // (`bench_compare --diff high_mass_ratio --carried-mass 0`: the engines never part by
        // more than 3e-7 m; carried mass, on by default, sinks less). Allowed: its sink plus
        // a millimetre, and a linear slop of squirt. Exact islands solve the stack rigidly:
        // a millimetre.
        let sink = 1.5 - lowest;
        let allowed = if matches!(config, Solver::ExactIslands) {
            0.001
        } else {
            0.016
        };
        assert!(sink < allowed, "{solver}: heavy box sank {sink} m");
        assert!(
            squirt < 0.005,
            "{solver}: a light box squirted {squirt} m sideways"
        );
    }
}

#[test]
fn overlapping_boxes_separate_gently_and_come_to_rest() {
    use physics2d_demos::physics_core::collision::{CollideSettings, collide};
    let s = scene("overlap_recovery").unwrap();
    let def = WorldDef::default();
    for (solver, config) in SOLVERS {
        let mut built = build(&s, config);
        // (separating speed at an overlapping point, deepest overlap) of the world as it is.
        let contacts = |w: &World| {
            let mut fastest = 0.0f32;
            let mut deepest = 0.0f32;
            for (i, &a) in built.bodies.iter().enumerate() {
                for &b in &built.bodies[i + 1..] {
                    let (xa, xb) = (w.body_transform(a).unwrap(), w.body_transform(b).unwrap());
                    let (sa, sb) = (w.body_shapes(a).unwrap()[0], w.body_shapes(b).unwrap()[0]);
                    let (sa, sb) = (w.shape(sa).unwrap(), w.shape(sb).unwrap());
                    let m = collide(sa, xa, sb, xb, &CollideSettings::default());
                    for p in m.points().iter().filter(|p| p.separation < 0.0) {
                        let at = |body: BodyId| {
                            let r = p.point - w.body_center_of_mass(body).unwrap();
                            let spin = w.angular_velocity(body).unwrap();
                            w.linear_velocity(body).unwrap() + spin * Vec2::new(-r.y, r.x)
                        };
                        fastest = fastest.max((at(b) - at(a)).dot(m.normal));
                        deepest = deepest.min(p.separation);
                    }
                }
            }
            (fastest, deepest)
        };
        let mut fastest = 0.0f32;
        for _ in 0..600 {
            built.world.step(s.dt).unwrap();
            fastest = fastest.max(contacts(&built.world).0);
        }
        // Overlap is pushed apart no faster than the contact push speed (2 m/s) at any
        // point, plus what the relax pass leaves: a step of gravity (g dt = 0.16 m/s), and,
        // where a box is pushed by the rows below and above at once, the part of the push
        // its one Gauss-Seidel sweep does not take back out of the velocity. At the default
        // 45 Hz every row's push reaches the limit, and 0.13 to 0.29 m/s (up to 15 %) is left
        // on top of it; the bound allows a fifth. (At 30 Hz and 3 m/s this scene's contacts
        // stayed under the limit, at 2.3 m/s. The separation check below is the one that
        // fails when overlap is not pushed out: 0.26 m left with the push speed at 1 cm/s.)
        let bound = 1.2 * def.max_contact_push_speed + 9.81 * s.dt;
        assert!(fastest < bound, "{solver}: pushed apart at {fastest} m/s");
        let resting = built
            .bodies
            .iter()
            .map(|id| built.world.linear_velocity(*id).unwrap().length())
            .fold(0.0f32, f32::max);
        assert!(
            resting < 0.05,
            "{solver}: still moving at {resting} m/s after 10 s"
        );
        // And they did separate: no two shapes overlap deeper than resting contacts do (the
        // linear slop, doubled for the weight of the rows above).
        let deepest = contacts(&built.world).1;
        assert!(
            deepest > -2.0 * def.linear_slop,
            "{solver}: boxes still overlap by {} m",
            -deepest
        );
    }
}

/// Towers of unit boxes kept awake (sleeping off) for half a minute. Box2D v3 holds
/// these very towers within 1.2, 1.6 and 2.5 cm (`bench_compare --fidelity`); before recycled
/// manifolds kept their anchors, ours leaned more every second and toppled at 15 to 20 s.
/// The top box must stay within 10 cm of the bottom one's column, with either contact solver.
#[test]
fn awake_towers_of_15_20_and_30_boxes_stand_for_thirty_seconds() {
    for name in ["tower_15", "tower_20", "tower_30"] {
        let s = scene(name).unwrap();
        for (solver, config) in SOLVERS {
            let mut built = build(&s, config);
            let top = *built.bodies.last().unwrap();
            let mut worst = 0.0f32;
            for _ in 0..s.steps {
                built.world.step(s.dt).unwrap();
                worst = worst.max(built.world.body_position(top).unwrap().x.abs());
            }
            assert_eq!(s.steps, 30 * 60, "{name} runs half a minute");
            assert!(
                worst < 0.1,
                "{name}, {solver}: the top box strayed {worst} m sideways"
            );
        }
    }
}

/// The farthest the top box of tower `name` strays sideways from where it started, built
/// with `def` and stepped for its half minute.
fn top_drift(name: &str, def: WorldDef) -> f32 {
    let s = scene(name).unwrap();
    assert_eq!(s.steps, 30 * 60, "{name} runs half a minute");
    common::top_drift(&s, def)
}

/// With the block solver (solved in the SIMD lanes with the rest of the
/// contacts, not sent to the scalar path) awake towers stand as still as rapier's. Solving a
/// box's two contact points one after the other lets the first take more than its share
/// each substep, a small turn that recycled anchors keep; Box2D's towers lean 1.2 to 2.5 cm
/// over these 30 s that way. Solving both points together leaves nothing to lean on: the
/// straight towers must stay within a millimetre (rounding only), and Solver2D-style
/// alternating 1 cm offsets, which load the points unevenly, within 1.5 cm (Box2D: 19 cm,
/// rapier 1.2 cm, `bench_compare --fidelity`).
#[test]
fn the_block_solver_holds_awake_towers_for_thirty_seconds() {
    for (name, allowed) in [
        ("tower_15", 0.001),
        ("tower_20", 0.001),
        ("tower_30", 0.001),
        ("tower_offset_20", 0.015),
    ] {
        let worst = top_drift(name, common::def(Solver::Block));
        assert!(
            worst < allowed,
            "{name}: the top box strayed {worst} m sideways (allowed {allowed} m)"
        );
    }
}

/// A manifold's two points solved together (`WorldDef::solve_points_together`, the default:
/// the block when biased, one Jacobi step when relaxing) hold the same awake towers as the
/// block solver: neither point goes first, so nothing turns a box that its load does not.
/// Straight towers within a millimetre (rounding only), alternating 1 cm offsets within 1.5
/// cm (they measure 0.0 and 0.97 cm; Box2D's order 1.2 to 2.5 cm and 19 cm), and towers of
/// boxes half as wide as they are tall, straight and offset, within 1 cm.
#[test]
fn points_solved_together_hold_awake_towers_for_thirty_seconds() {
    let together = common::def(Solver::Together);
    for (name, allowed) in [
        ("tower_15", 0.001),
        ("tower_20", 0.001),
        ("tower_30", 0.001),
        ("tower_offset_20", 0.015),
    ] {
        let worst = top_drift(name, together);
        assert!(
            worst < allowed,
            "{name}: the top box strayed {worst} m sideways (allowed {allowed} m)"
        );
    }
    for offset in [0.0, 0.01] {
        let worst = common::top_drift(&narrow_tower(offset), together);
        assert!(
            worst < 0.01,
            "narrow tower, offset {offset}: the top box strayed {worst} m sideways"
        );
    }
}

/// Regression: the block solver pushes an overlap out faster than Box2D's point-by-point
/// solve. A box's two points on a face push each other down (K12 < 0), so the exact 2x2
/// answer gives both the full soft push at once, and the overlapping pyramid's fastest box
/// reached 3.51 m/s against 3.48 point by point (`bench_compare --fidelity`). Solved
/// together (the block when biased, then relaxed by one Jacobi step, which removes less of
/// the push than the exact answer where the points push each other down) the fastest box
/// must be no faster than point by point, in the scene as written, mirrored, and created in
/// reverse order (it measures 3.04 against 3.48 m/s as written).
#[test]
fn regression_the_block_solver_pushed_overlaps_out_faster_than_point_by_point() {
    let fastest = |scene: &physics2d_demos::Scene, def: WorldDef| {
        let mut built = scene.build(def).expect("scene builds");
        let mut fastest = 0.0f32;
        for _ in 0..scene.steps {
            built.world.step(scene.dt).unwrap();
            for &id in &built.bodies {
                fastest = fastest.max(built.world.linear_velocity(id).unwrap().length());
            }
        }
        fastest
    };
    let s = scene("overlap_recovery").unwrap();
    let (mut listed_sum, mut together_sum, mut block_sum) = (0.0, 0.0, 0.0);
    for variant in physics2d_demos::scenes::order_variants(&s) {
        let listed = fastest(&variant, common::def(Solver::Sequential));
        let together = fastest(&variant, common::def(Solver::Together));
        let block = fastest(&variant, common::def(Solver::Block));
        println!("fastest box: listed {listed}, together {together}, block {block} m/s");
        listed_sum += listed;
        together_sum += together;
        block_sum += block;
    }
    assert!(
        together_sum <= listed_sum,
        "points together: {together_sum} against {listed_sum} m/s point by point, summed \
         over the four orders"
    );
    assert!(
        block_sum > listed_sum,
        "the block solver no longer pushes faster ({block_sum} against {listed_sum} m/s): \
         the test has lost its reference"
    );
}

/// 15 boxes of 0.5 m by 1 m stacked, every other one shifted `offset` (alternating sides),
/// awake for 30 s.
fn narrow_tower(offset: f32) -> physics2d_demos::Scene {
    physics2d_demos::scenes::tower(
        "narrow_tower",
        TowerLayout {
            count: 15,
            friction: 0.6,
            offset,
            gap: 0.0,
            box_width: 0.5,
        },
    )
}

/// Towers of boxes half as wide as they are tall (15 boxes of 0.5 m by 1 m, straight and
/// with alternating 1 cm offsets), awake for 30 s. The block solver takes a manifold as a
/// block where it holds a body's centre between its points; these towers must be inside
/// that rule. Solved point by point they lean 1.8 and 2.2 cm, more than unit boxes, so the
/// block must hold them within 1 cm (they measure 0.0 and 0.76 cm). A rule by the sign of
/// the coupling K12 instead (a block where K12 < 0) would have left them out, as a narrow
/// box's small inertia makes K12 positive (+1.6 here) though its centre is between the
/// points.
#[test]
fn the_block_solver_holds_towers_of_narrow_boxes() {
    for offset in [0.0, 0.01] {
        let scene = narrow_tower(offset);
        let listed = common::top_drift(&scene, common::def(Solver::Sequential));
        assert!(
            listed > 0.01,
            "offset {offset}: point by point the top box strayed only {listed} m; the tower no \
             longer shows the lean"
        );
        let block = common::top_drift(&scene, common::def(Solver::Block));
        assert!(
            block < 0.01,
            "offset {offset}, block solver: the top box strayed {block} m sideways"
        );
    }
}

/// Regression: the block solver took every two-point manifold as a block, the pyramid's
/// too. A box above a pyramid's bottom row bridges two boxes, its centre at the end of each
/// manifold; point by point gives such a manifold more than the soft model's answer in one
/// pass, the block exactly that answer, and the pyramid (base 20) sank 2.3 cm instead of
/// 2.0 cm in its first bounce and settled 0.53 mm lower (30.36 mm against 29.83 mm after
/// 2 s). Those manifolds are now solved point by point: the top box must settle within
/// 0.1 mm of the point-by-point solve's height (29.80 mm against 29.83 mm).
#[test]
fn regression_the_block_solver_sank_a_pyramid_deeper_than_point_by_point() {
    let s = scene("pyramid").unwrap();
    let top_sag = |solver| {
        let mut built = build(&s, solver);
        step_n(&mut built, s.dt, 120);
        let top = *built.bodies.last().unwrap();
        s.bodies.last().unwrap().position.y - built.world.body_position(top).unwrap().y
    };
    let (listed, block) = (top_sag(Solver::Sequential), top_sag(Solver::Block));
    assert!(
        (block - listed).abs() < 1e-4,
        "the block solver's pyramid top sank {block} m, point by point {listed} m"
    );
}

/// Awake towers lean because a manifold's first listed point is always solved first (Box2D
/// v3's order; `solve_points_together` off). In a sequential pass the point solved first
/// takes more than its share, a small turn every substep that the same point always gets:
/// Box2D's towers lean 1.2 to 2.5 cm over 30 s, 19 cm with alternating 1 cm offsets. With
/// `WorldDef::solve_deeper_point_first` the turn goes against any tilt: the straight towers
/// must stay within 3 mm (they measure 0.5 to 1.6 mm) and the offset one within 6 cm (3.6
/// cm); the same towers in the listed order must lean past those bounds, which shows the
/// order is the cause. Both run with Box2D's contacts (30 Hz, pushed out at 3 m/s), where
/// those figures were measured: at the default 45 Hz the listed order's towers lean less
/// (`bench_compare --fidelity`), and deeper first leans the 15 box tower 4.5 mm.
#[test]
fn awake_towers_lean_when_the_first_listed_point_is_always_solved_first() {
    let drift = |name: &str, deeper_first: bool| {
        let def = WorldDef {
            solve_deeper_point_first: deeper_first,
            contact_hertz: 30.0,
            max_contact_push_speed: 3.0,
            ..common::def(Solver::Sequential)
        };
        top_drift(name, def)
    };
    for (name, allowed) in [
        ("tower_15", 0.003),
        ("tower_20", 0.003),
        ("tower_30", 0.003),
        ("tower_offset_20", 0.06),
    ] {
        let deeper = drift(name, true);
        assert!(
            deeper < allowed,
            "{name}, deeper point first: the top box strayed {deeper} m (allowed {allowed} m)"
        );
        let listed = drift(name, false);
        assert!(
            listed > allowed,
            "{name}, listed order: strayed only {listed} m, the test no longer sees the lean"
        );
    }
}

/// Regression: the contact stiffness was capped at a quarter of the substep rate, not at the
/// fraction its documentation gave (an eighth then, as in Box2D v3; three sixteenths since
/// the default became 45 Hz, `CONTACT_HERTZ_PER_SUBSTEP_RATE`). At 2 substeps the cap then
/// never bit, and contacts stayed stiffer than the substep allows. The ten-box stack at 2
/// substeps must sag as contacts at the capped 22.5 Hz predict (5.8 cm; 1.45 cm at 45 Hz).
#[test]
fn regression_the_contact_stiffness_cap_was_a_quarter_of_the_substep_rate() {
    let s = scene("vertical_stack").unwrap();
    let def = WorldDef {
        substep_count: 2,
        enable_sleep: false,
        ..WorldDef::default()
    };
    let mut built = s.build(def).unwrap();
    let top = *built.bodies.last().unwrap();
    step_n(&mut built, s.dt, 300);
    let sag = 9.5 - built.world.body_position(top).unwrap().y;
    let capped = CONTACT_HERTZ_PER_SUBSTEP_RATE * 2.0 / s.dt;
    assert!(
        capped < def.contact_hertz,
        "the cap does not bite at 2 substeps"
    );
    let predicted = predicted_stack_sag_at(10, capped);
    // 1 cm: the rotation the model leaves out grows with the sag.
    assert!(
        (sag - predicted).abs() < 0.01,
        "sag {sag} m, {capped} Hz contacts predict {predicted} m"
    );
}
