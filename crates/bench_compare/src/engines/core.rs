//! physics_core, driven directly.

use super::{BodySample, ContactSample, PointSample, Settings, Simulation};
use physics_core::parallel::WorkerThreads;
use physics_core::world::{StepProfile, WorldDef};
use physics2d_demos::{BuiltScene, Scene};
use std::sync::Arc;

struct Core {
    built: BuiltScene,
    /// The scene, for the groups its timeline creates and destroys.
    scene: Scene,
    /// Stage times summed over the steps taken.
    stages: StepProfile,
    steps: u32,
}

/// The scene in a bare `physics_core` world.
pub fn build(scene: &Scene, settings: &Settings) -> Result<Box<dyn Simulation>, String> {
    let defaults = WorldDef::default();
    let def = WorldDef {
        substep_count: settings.substeps,
        enable_sleep: false,
        contact_hertz: settings.contact_hertz.unwrap_or(defaults.contact_hertz),
        max_contact_push_speed: settings
            .max_push_speed
            .unwrap_or(defaults.max_contact_push_speed),
        contact_recycle_distance: settings
            .recycle_distance
            .unwrap_or(defaults.contact_recycle_distance),
        exact_contact_island_bodies: settings.exact_contact_island_bodies,
        exact_joint_mass_ratio: settings
            .exact_joint_mass_ratio
            .unwrap_or(defaults.exact_joint_mass_ratio),
        enable_block_solver: settings
            .block_solver
            .unwrap_or(defaults.enable_block_solver),
        solve_deeper_point_first: settings
            .deeper_point_first
            .unwrap_or(defaults.solve_deeper_point_first),
        solve_points_together: settings
            .points_together
            .unwrap_or(defaults.solve_points_together),
        carried_mass_fraction: settings
            .carried_mass_fraction
            .unwrap_or(defaults.carried_mass_fraction),
        ..defaults
    };
    let mut built = scene.build(def).map_err(|e| e.to_string())?;
    built
        .world
        .set_contact_lanes(settings.contact_lanes)
        .map_err(|e| e.to_string())?;
    // physics_core's own long-lived threads, as a program without a host pool would use
    // (the bevy_physics2d row lends the world Bevy's `ComputeTaskPool` instead).
    let runner = WorkerThreads::new(super::threads());
    built.world.set_task_runner(Arc::new(runner));
    Ok(Box::new(Core {
        built,
        scene: scene.clone(),
        stages: StepProfile::default(),
        steps: 0,
    }))
}

impl Simulation for Core {
    fn step(&mut self) -> Result<(), String> {
        self.built
            .step_scene(&self.scene, self.steps as usize)
            .map_err(|e| e.to_string())?;
        self.stages += *self.built.world.profile();
        self.steps += 1;
        Ok(())
    }

    fn stages(&self) -> Option<String> {
        Some(profile_lines(&self.stages, self.steps.max(1)))
    }

    fn samples(&mut self) -> Vec<BodySample> {
        samples_of(&self.built)
    }

    fn contacts(&mut self) -> Option<Vec<ContactSample>> {
        let world = &self.built.world;
        let bodies = &self.built.bodies;
        // Manifold anchors are relative to the body origins: move them to the centres of mass.
        let body_of = |shape| {
            let body = world.shape_body(shape).ok()?;
            let index = bodies.iter().position(|b| *b == body)?;
            let offset = physics_core::position::relative(
                world.body_center_of_mass(body).ok()?,
                world.body_position(body).ok()?,
            );
            Some((index, offset))
        };
        let mut out = Vec::new();
        for contact in world.contact_data() {
            let (Some((a, offset_a)), Some((b, offset_b))) =
                (body_of(contact.shape_a), body_of(contact.shape_b))
            else {
                continue;
            };
            let m = &contact.manifold;
            out.push(
                ContactSample {
                    body_a: a,
                    body_b: b,
                    normal: m.normal,
                    points: m
                        .points()
                        .iter()
                        .map(|p| PointSample {
                            anchor_a: p.anchor_a - offset_a,
                            anchor_b: p.anchor_b - offset_b,
                            separation: p.separation,
                            normal_impulse: p.normal_impulse,
                            tangent_impulse: p.tangent_impulse,
                            id: p.id,
                        })
                        .collect(),
                }
                .in_body_order(),
            );
        }
        Some(out)
    }
}

/// A world's stage times summed over `steps` steps, per step: the stages, then the solver's.
pub(crate) fn profile_lines(s: &StepProfile, steps: u32) -> String {
    let n = steps as f32;
    format!(
        "pairs {:.3}, collide {:.3}, solve {:.3}, finalize {:.3} ms/step\n{}",
        s.update_pairs_ms / n,
        s.collide_ms / n,
        s.solve_ms / n,
        s.finalize_ms / n,
        solver_line(s, steps)
    )
}

/// The solver's stage times of a profile summed over `steps` steps, per step.
pub(crate) fn solver_line(s: &StepProfile, steps: u32) -> String {
    let n = steps as f32;
    let v = &s.solver;
    super::solver_stages([
        v.setup_ms / n,
        v.prepare_ms / n,
        (v.integrate_velocities_ms + v.integrate_positions_ms) / n,
        v.warm_start_ms / n,
        v.solve_ms / n,
        v.relax_ms / n,
        v.restitution_ms / n,
        v.store_ms / n,
    ])
}

/// Every scene body's pose and velocity in a built core scene, in scene order (NaN for a body
/// absent now).
pub(super) fn samples_of(built: &BuiltScene) -> Vec<BodySample> {
    let world = &built.world;
    built
        .bodies
        .iter()
        .map(|id| {
            let (Ok(xf), Ok(v), Ok(w)) = (
                world.body_transform(*id),
                world.linear_velocity(*id),
                world.angular_velocity(*id),
            ) else {
                return BodySample::NAN;
            };
            BodySample {
                // Samples compare engines near the origin, where a float holds a position.
                position: physics_core::position::to_vec2(xf.p),
                angle: xf.q.s.atan2(xf.q.c),
                linear_velocity: v,
                angular_velocity: w,
            }
        })
        .collect()
}
