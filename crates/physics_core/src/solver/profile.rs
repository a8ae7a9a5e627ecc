//! Where the solver's time goes: the wall-clock time of its stages in the last step.

/// Wall-clock time of the solver's stages in the last step, in milliseconds, each summed over
/// the substeps: the split of [`StepProfile::solve_ms`](crate::world::StepProfile::solve_ms)
/// that Box2D v3's `b2Profile` gives (its solver set-up, prepare, integrate, warm start,
/// solve, relax, restitution and store times), so the two engines compare stage by stage.
/// With several workers each stage is timed from when the one before it ended to when its
/// last block finished. Profiles add up field by field, to total or average over steps:
///
/// ```
/// use physics_core::solver::SolverProfile;
/// let step = SolverProfile { prepare_ms: 0.5, store_ms: 0.25, ..Default::default() };
/// let mut total = SolverProfile::default();
/// total += step;
/// total += step;
/// assert_eq!((total.prepare_ms, total.store_ms), (1.0, 0.5));
/// assert_eq!(total.stages_ms(), 1.5);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SolverProfile {
    /// Before the stages: gathering the moving bodies, preparing the joints, and colouring
    /// the touching contacts into SIMD groups (or keeping last step's colours).
    pub setup_ms: f32,
    /// Building the contact constraints from the manifolds, once per step.
    pub prepare_ms: f32,
    /// Gravity, forces and damping into the velocities.
    pub integrate_velocities_ms: f32,
    /// Last step's impulses applied again.
    pub warm_start_ms: f32,
    /// Joints and contacts solved with position bias.
    pub solve_ms: f32,
    /// Velocities into positions and rotations.
    pub integrate_positions_ms: f32,
    /// Joints and contacts solved again without bias.
    pub relax_ms: f32,
    /// Bounce of the points that approached fast, once per step.
    pub restitution_ms: f32,
    /// The impulses back to the contacts, for next step's warm start.
    pub store_ms: f32,
}

impl SolverProfile {
    /// The time of `stage`, to add to.
    pub(crate) fn stage_mut(&mut self, stage: SolverStage) -> &mut f32 {
        match stage {
            SolverStage::Prepare => &mut self.prepare_ms,
            SolverStage::IntegrateVelocities => &mut self.integrate_velocities_ms,
            SolverStage::WarmStart => &mut self.warm_start_ms,
            SolverStage::Solve => &mut self.solve_ms,
            SolverStage::IntegratePositions => &mut self.integrate_positions_ms,
            SolverStage::Relax => &mut self.relax_ms,
            SolverStage::Restitution => &mut self.restitution_ms,
            SolverStage::Store => &mut self.store_ms,
        }
    }

    /// Sum of the stages after the set-up.
    pub fn stages_ms(&self) -> f32 {
        self.prepare_ms
            + self.integrate_velocities_ms
            + self.warm_start_ms
            + self.solve_ms
            + self.integrate_positions_ms
            + self.relax_ms
            + self.restitution_ms
            + self.store_ms
    }
}

impl std::ops::AddAssign for SolverProfile {
    fn add_assign(&mut self, other: Self) {
        self.setup_ms += other.setup_ms;
        self.prepare_ms += other.prepare_ms;
        self.integrate_velocities_ms += other.integrate_velocities_ms;
        self.warm_start_ms += other.warm_start_ms;
        self.solve_ms += other.solve_ms;
        self.integrate_positions_ms += other.integrate_positions_ms;
        self.relax_ms += other.relax_ms;
        self.restitution_ms += other.restitution_ms;
        self.store_ms += other.store_ms;
    }
}

/// The stages [`SolverProfile`] times; several stages of the step's list (one per colour,
/// the scalar and the SIMD parts) count as one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SolverStage {
    Prepare,
    IntegrateVelocities,
    WarmStart,
    Solve,
    IntegratePositions,
    Relax,
    Restitution,
    Store,
}
