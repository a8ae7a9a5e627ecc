//! Momentum conservation in a free collision, and bit-identical repeat runs.

mod common;

use common::{SOLVERS, def};
use physics2d_demos::physics_core::prelude::*;
use physics2d_demos::scene;

#[test]
fn two_body_collision_conserves_linear_momentum() {
    for (solver, config) in SOLVERS {
        let mut world = World::new(WorldDef {
            gravity: Vec2::ZERO,
            ..def(config)
        })
        .unwrap();
        let make = |world: &mut World, x: f32, v: f32, density: f32, shape: Shape| {
            let b = world
                .create_body(
                    &BodyDef::dynamic(Vec2::new(x, 0.1 * x)).with_velocity(Vec2::new(v, 0.3)),
                )
                .unwrap();
            world
                .create_shape(
                    b,
                    &ShapeDef {
                        density,
                        ..Default::default()
                    },
                    shape,
                )
                .unwrap();
            b
        };
        let a = make(
            &mut world,
            -3.0,
            6.0,
            1.0,
            Polygon::new_box(0.5, 0.4).unwrap().into(),
        );
        let b = make(
            &mut world,
            3.0,
            -2.0,
            3.0,
            Circle::new(Vec2::ZERO, 0.6).unwrap().into(),
        );
        let momentum = |w: &World| {
            let (ma, mb) = (
                w.body_mass_data(a).unwrap().mass,
                w.body_mass_data(b).unwrap().mass,
            );
            ma * w.linear_velocity(a).unwrap() + mb * w.linear_velocity(b).unwrap()
        };
        // Angular momentum about the origin: no external torque acts and each contact
        // impulse acts equal and opposite on the two bodies. The anchors are fixed in world
        // orientation for the step (Box2D's substepping) while the bodies move, so the pair
        // acts at points a fraction of a step's relative motion apart: 0.1 % here. An
        // impulse applied without its moment arm changes it by tens of percent.
        let angular = |w: &World| {
            [a, b]
                .iter()
                .map(|&body| {
                    let m = w.body_mass_data(body).unwrap();
                    let c = w.body_center_of_mass(body).unwrap();
                    let v = w.linear_velocity(body).unwrap();
                    m.mass * (c.x * v.y - c.y * v.x)
                        + m.rotational_inertia * w.angular_velocity(body).unwrap()
                })
                .sum::<f32>()
        };
        let before = momentum(&world);
        let (l0, e0) = (angular(&world), world.kinetic_energy());
        let mut touched = false;
        for _ in 0..120 {
            world.step(1.0 / 60.0).unwrap();
            touched |= !world.begin_contact_events().is_empty();
        }
        assert!(touched, "{solver}: the bodies never collided");
        let after = momentum(&world);
        assert!(
            (after - before).length() <= 1e-4 * before.length(),
            "{solver}: momentum {before} became {after}"
        );
        let (l1, e1) = (angular(&world), world.kinetic_energy());
        assert!(
            (l1 - l0).abs() <= 0.01 * l0.abs().max(1.0),
            "{solver}: angular momentum {l0} became {l1}"
        );
        // Restitution 0: the impact can only lose kinetic energy, never gain it.
        assert!(e1 < e0, "{solver}: kinetic energy {e0} J became {e1} J");
    }
}

#[test]
fn rain_run_twice_is_bit_identical() {
    let s = scene("shape_rain").unwrap();
    for (solver, config) in SOLVERS {
        let run = || {
            let mut built = s.build(def(config)).unwrap();
            for _ in 0..600 {
                built.world.step(s.dt).unwrap();
            }
            built
                .bodies
                .iter()
                .map(|id| {
                    let xf = built.world.body_transform(*id).unwrap();
                    [
                        xf.p.x.to_bits(),
                        xf.p.y.to_bits(),
                        xf.q.c.to_bits(),
                        xf.q.s.to_bits(),
                    ]
                })
                .collect::<Vec<_>>()
        };
        assert!(run() == run(), "{solver}: two runs of rain differ");
    }
}

#[test]
fn rain_on_two_and_three_threads_is_bit_identical_to_one() {
    use physics_core::parallel::{ScopedThreads, TaskRunner};
    use std::sync::Arc;
    let s = scene("shape_rain").unwrap();
    let run = |runner: Arc<dyn TaskRunner>| {
        let mut built = s.build(def(common::Solver::Sequential)).unwrap();
        built.world.set_task_runner(runner);
        for _ in 0..300 {
            built.world.step(s.dt).unwrap();
        }
        built
            .bodies
            .iter()
            .flat_map(|id| {
                let xf = built.world.body_transform(*id).unwrap();
                let v = built.world.linear_velocity(*id).unwrap();
                [xf.p.x, xf.p.y, xf.q.c, xf.q.s, v.x, v.y].map(f32::to_bits)
            })
            .collect::<Vec<_>>()
    };
    let one = run(Arc::new(ScopedThreads::new(1)));
    for workers in [2, 3] {
        assert!(
            run(Arc::new(ScopedThreads::new(workers))) == one,
            "rain on {workers} threads differs from one thread"
        );
    }
}
