//! The step on several worker threads: the same bits as on one, for any runner.

use physics_core::parallel::{ScopedThreads, SingleThreaded, TaskRunner, WorkerThreads};
use physics_core::position::position_bits;
use physics_core::position::to_vec2;
use physics_core::prelude::*;
use std::sync::Arc;

const DT: f32 = 1.0 / 60.0;

/// Runs the workers one after another on the calling thread, last first: a host whose pool
/// is busy. The workers must still finish, with the same result.
struct LastFirst(usize);

impl TaskRunner for LastFirst {
    fn worker_count(&self) -> usize {
        self.0
    }
    fn run(&self, task: &(dyn Fn(usize) + Sync)) {
        for w in (0..self.0).rev() {
            task(w);
        }
    }
}

fn add_box(w: &mut World, p: Vec2, hx: f32, hy: f32) -> BodyId {
    let b = w.create_body(&BodyDef::dynamic(p)).unwrap();
    w.create_shape(
        b,
        &ShapeDef::default(),
        Polygon::new_box(hx, hy).unwrap().into(),
    )
    .unwrap();
    b
}

/// A 16-row pyramid, a hinged chain hanging beside it and balls raining on both: contacts
/// in many colours, overflow, joints and an exact joint island.
fn scene(runner: Arc<dyn TaskRunner>) -> (World, Vec<BodyId>) {
    let mut w = World::new(WorldDef::default()).unwrap();
    w.set_task_runner(runner);
    let ground = w
        .create_body(&BodyDef::fixed(Vec2::new(0.0, -1.0)))
        .unwrap();
    w.create_shape(
        ground,
        &ShapeDef::default(),
        Polygon::new_box(40.0, 1.0).unwrap().into(),
    )
    .unwrap();
    let mut bodies = Vec::new();
    for row in 0..16 {
        for i in 0..16 - row {
            let x = (i as f32 - (15 - row) as f32 * 0.5) * 1.05;
            bodies.push(add_box(&mut w, Vec2::new(x, 0.5 + row as f32), 0.5, 0.5));
        }
    }
    let mut previous = ground;
    for link in 0..10 {
        let p = Vec2::new(14.0 + link as f32, 12.0);
        let b = add_box(&mut w, p, 0.5, 0.125);
        let at = p - Vec2::new(0.5, 0.0);
        let (la, lb) = w.local_anchors(previous, b, at).unwrap();
        let joint = JointKind::Revolute(RevoluteJoint::default());
        w.create_joint(&JointDef::new(previous, b, la, lb, joint))
            .unwrap();
        bodies.push(b);
        previous = b;
    }
    for k in 0..40 {
        let p = Vec2::new(-8.0 + 0.9 * (k % 20) as f32, 20.0 + 2.0 * (k / 20) as f32);
        let b = w.create_body(&BodyDef::dynamic(p)).unwrap();
        w.create_shape(
            b,
            &ShapeDef::default(),
            Circle::new(Vec2::ZERO, 0.3).unwrap().into(),
        )
        .unwrap();
        bodies.push(b);
    }
    (w, bodies)
}

/// Every body's pose and velocity as bits.
fn state_bits(w: &World, bodies: &[BodyId]) -> Vec<u64> {
    let mut bits = Vec::new();
    for &b in bodies {
        let xf = w.body_transform(b).unwrap();
        let v = w.linear_velocity(b).unwrap();
        bits.extend(position_bits(xf.p));
        let floats = [xf.q.c, xf.q.s, v.x, v.y];
        bits.extend(floats.iter().map(|f| u64::from(f.to_bits())));
        bits.push(w.angular_velocity(b).unwrap().to_bits().into());
    }
    bits
}

fn run(runner: Arc<dyn TaskRunner>, steps: usize) -> (Vec<u64>, usize) {
    let (mut w, bodies) = scene(runner);
    let mut most_constraints = 0;
    for _ in 0..steps {
        w.step(DT).unwrap();
        most_constraints = most_constraints.max(w.counters().constraints_solved);
    }
    (state_bits(&w, &bodies), most_constraints)
}

#[test]
fn any_worker_count_gives_the_same_bits() {
    let steps = 150;
    let (reference, constraints) = run(Arc::new(SingleThreaded), steps);
    // The scene exercises the coloured solver: hundreds of contact constraints.
    assert!(constraints > 250, "only {constraints} constraints");
    let runners: [(&str, Arc<dyn TaskRunner>); 6] = [
        ("2 threads", Arc::new(ScopedThreads::new(2))),
        ("3 threads", Arc::new(ScopedThreads::new(3))),
        ("4 threads", Arc::new(ScopedThreads::new(4))),
        ("4 workers run last first", Arc::new(LastFirst(4))),
        ("2 pool threads", Arc::new(WorkerThreads::new(2))),
        ("3 pool threads", Arc::new(WorkerThreads::new(3))),
    ];
    for (name, runner) in runners {
        let (bits, _) = run(runner, steps);
        let first_difference = bits.iter().zip(&reference).position(|(a, b)| a != b);
        assert_eq!(
            first_difference,
            None,
            "{name}: state differs from one thread at float {first_difference:?} (body {:?})",
            first_difference.map(|i| i / 7)
        );
    }
}

#[test]
fn threads_keep_the_pyramid_standing() {
    // Not just equal: right. The pyramid's top box stays within a few slops of its start.
    let (mut w, bodies) = scene(Arc::new(ScopedThreads::new(2)));
    let top = bodies[135];
    let start = to_vec2(w.body_position(top).unwrap());
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    let drift = (to_vec2(w.body_position(top).unwrap()) - start).length();
    assert!(drift < 0.1, "top of the pyramid moved {drift} m");
}

#[test]
fn the_solver_profile_splits_the_solve_time_on_any_worker_count() {
    let runners: [Arc<dyn TaskRunner>; 2] =
        [Arc::new(SingleThreaded), Arc::new(ScopedThreads::new(2))];
    for runner in runners {
        let (mut w, _) = scene(runner);
        // What share of each of the last 30 steps' solves its parts cover: one step's can
        // fall short by a worker descheduled between stages (the other tests of this file,
        // or anything else on the machine, run beside it), so the median step is judged, which
        // a few such steps cannot move. A sum over the steps could be: one step stalled for
        // tens of milliseconds outweighed the other twenty-nine on a loaded two-core host.
        let mut shares = Vec::new();
        for i in 0..90 {
            w.step(DT).unwrap();
            let p = *w.profile();
            let parts = p.solver.setup_ms + p.solver.stages_ms();
            // Parts of the solve measured on the same clock: together no longer than the
            // whole (a microsecond of rounding allowed), in every step.
            assert!(
                parts <= p.solve_ms + 1e-3,
                "{parts} ms of {} ms",
                p.solve_ms
            );
            if i >= 60 && p.solve_ms > 0.0 {
                shares.push(parts / p.solve_ms);
            }
        }
        let p = *w.profile();
        let s = p.solver;
        // Every stage ran (there are contacts and joints) and read a clock that moved; no
        // surface is bouncy, so the restitution stages were never planned.
        let ran = [
            s.setup_ms,
            s.prepare_ms,
            s.integrate_velocities_ms,
            s.warm_start_ms,
            s.solve_ms,
            s.integrate_positions_ms,
            s.relax_ms,
            s.store_ms,
        ];
        assert!(ran.iter().all(|&ms| ms > 0.0), "{s:?}");
        assert_eq!(s.restitution_ms, 0.0, "{s:?}");
        // And most of it, in the median step.
        shares.sort_by(f32::total_cmp);
        assert_eq!(shares.len(), 30, "every solve took time");
        let median = shares[shares.len() / 2];
        assert!(median >= 0.5, "median share {median}; shares {shares:?}");
        // A step of no time solves nothing.
        w.step(0.0).unwrap();
        assert_eq!(w.profile().solver, Default::default());
    }
}
