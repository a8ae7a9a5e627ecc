//! The substep loop of `solver/mod.rs` as a list of stages run on the world's task runner.
//!
//! Body stages (integrate velocities, integrate positions) cut the bodies into ranges;
//! colour stages (warm start, solve, relax) cut one colour's SIMD groups into ranges, whose
//! constraints move disjoint bodies; packing and storing cut all groups into ranges. The
//! scalar work (joints, exact islands, overflow contacts, restitution) runs as stages of a
//! single block, in the order the serial solver used. No block depends on which worker runs
//! it, so any worker count gives the same bits.
#![allow(unsafe_code)]

use super::contact_solver::{apply_restitution, solve_contacts, warm_start};
use super::wide_contact_solver::{
    EMPTY_LANE, pack_groups, solve_groups, store_lane, warm_start_groups,
};
use super::{
    SolverArrays, StepSettings, color_contacts, integrate_positions, integrate_velocities,
};
use crate::joint::{
    RowContext, project_exact_islands, solve_exact_islands, solve_joints, warm_start_joints,
};
use crate::parallel::TaskRunner;
use crate::parallel::shared::{SharedMut, StatesView};
use crate::parallel::stages::{MIN_BODY_BLOCK, block_range, blocks, run_stages};
use std::ops::Range;

/// Fewest SIMD groups in a block of a colour stage.
const MIN_GROUP_BLOCK: usize = 8;

/// What a stage does.
#[derive(Clone, Copy, Debug)]
enum Stage {
    /// Fill the SIMD groups from the prepared scalar constraints.
    PackGroups,
    IntegrateVelocities,
    /// Joints, then overflow contacts (one block).
    WarmStartScalar,
    /// One colour's groups.
    WarmStartColor(usize),
    /// Exact islands, joints, overflow contacts, with bias (one block).
    SolveScalar,
    SolveColor(usize),
    IntegratePositions,
    /// Island projection, then islands, joints, overflow contacts without bias (one block).
    RelaxScalar,
    RelaxColor(usize),
    /// Lanes' impulses back to the scalar constraints.
    StoreGroups,
    /// Restitution on the scalar constraints (one block).
    Restitution,
}

/// A stage, its block count and the items per block.
struct PlannedStage {
    stage: Stage,
    blocks: u32,
    block_size: usize,
}

/// The stages of one step, in order.
fn plan(arrays: &SolverArrays, substeps: u32, workers: usize) -> Vec<PlannedStage> {
    let bodies = arrays.states.len();
    let colors = &arrays.wide_contacts.colors;
    let group_count = arrays.wide_contacts.groups.len();
    let mut list = Vec::new();
    let over = |list: &mut Vec<PlannedStage>, stage: Stage, items: usize, min: usize| {
        let (blocks, block_size) = blocks(items, min, workers);
        list.push(PlannedStage {
            stage,
            blocks,
            block_size,
        });
    };
    let single = |list: &mut Vec<PlannedStage>, stage: Stage| {
        list.push(PlannedStage {
            stage,
            blocks: 1,
            block_size: 1,
        })
    };
    // One stage per colour, over that colour's groups.
    let per_color = |list: &mut Vec<PlannedStage>, stage: fn(usize) -> Stage| {
        for (c, range) in colors.iter().enumerate() {
            over(list, stage(c), range.len(), MIN_GROUP_BLOCK);
        }
    };
    over(&mut list, Stage::PackGroups, group_count, MIN_GROUP_BLOCK);
    for _ in 0..substeps {
        over(
            &mut list,
            Stage::IntegrateVelocities,
            bodies,
            MIN_BODY_BLOCK,
        );
        single(&mut list, Stage::WarmStartScalar);
        per_color(&mut list, Stage::WarmStartColor);
        single(&mut list, Stage::SolveScalar);
        per_color(&mut list, Stage::SolveColor);
        over(&mut list, Stage::IntegratePositions, bodies, MIN_BODY_BLOCK);
        single(&mut list, Stage::RelaxScalar);
        per_color(&mut list, Stage::RelaxColor);
    }
    over(&mut list, Stage::StoreGroups, group_count, MIN_GROUP_BLOCK);
    single(&mut list, Stage::Restitution);
    list
}

/// Runs the substep loop and restitution on prepared arrays, on `runner`'s workers.
pub(crate) fn run_substeps(
    arrays: &mut SolverArrays,
    settings: &StepSettings,
    runner: &dyn TaskRunner,
) {
    color_contacts(arrays, settings.contact.use_block_solver);
    let stages = plan(arrays, settings.substeps, runner.worker_count());
    let counts: Vec<u32> = stages.iter().map(|s| s.blocks).collect();

    let h = settings.dt / settings.substeps as f32;
    let inv_h = 1.0 / h;
    let biased = RowContext {
        h,
        inv_h,
        use_bias: true,
    };
    let relaxed = RowContext {
        use_bias: false,
        ..biased
    };
    let contact = &settings.contact;
    let max_push = contact.max_push_speed;

    let SolverArrays {
        states,
        params,
        contacts,
        joints,
        exact_islands,
        island_scratch,
        coloring,
        wide_contacts,
        ..
    } = arrays;
    let (params, exact_islands, overflow) = (&*params, &*exact_islands, &coloring.overflow);
    let (lanes, colors) = (&wide_contacts.lanes, &wide_contacts.colors);
    let states = SharedMut::new(states);
    let contacts = SharedMut::new(contacts);
    let joints = SharedMut::new(joints);
    let groups = SharedMut::new(&mut wide_contacts.groups);
    let scratch = SharedMut::new(std::slice::from_mut(island_scratch));

    let block = |stage: usize, b: u32| {
        let PlannedStage {
            stage, block_size, ..
        } = stages[stage];
        let range = |items: usize| block_range(b, block_size, items);
        let color_range = |c: usize| {
            let groups: &Range<usize> = &colors[c];
            let r = block_range(b, block_size, groups.len());
            groups.start + r.start..groups.start + r.end
        };
        // SAFETY (every `unsafe` below): stages run one after another (`run_stages`). Within
        // a stage, body and group blocks take disjoint ranges; colour blocks take disjoint
        // groups of one colour, whose constraints move disjoint bodies (`graph_coloring.rs`),
        // and the states view only touches those bodies; single-block stages are alone.
        // PackGroups only reads the scalar constraints and StoreGroups writes each lane's
        // own constraint (every constraint is in at most one lane).
        match stage {
            Stage::PackGroups => {
                let r = range(lanes.len());
                let scalar = unsafe { contacts.all_shared() };
                pack_groups(unsafe { groups.range(r.clone()) }, &lanes[r], scalar);
            }
            Stage::IntegrateVelocities => {
                let r = range(states.len());
                let s = unsafe { states.range(r.clone()) };
                integrate_velocities(s, &params[r], h, settings.max_linear_speed);
            }
            Stage::WarmStartScalar => {
                let s = unsafe { states.all() };
                warm_start_joints(unsafe { joints.all() }, s);
                warm_start(unsafe { contacts.all() }, overflow, s);
            }
            Stage::WarmStartColor(c) => {
                let mut view = unsafe { StatesView::shared(&states) };
                warm_start_groups(unsafe { groups.range(color_range(c)) }, &mut view);
            }
            Stage::SolveScalar => {
                let (s, j) = unsafe { (states.all(), joints.all()) };
                let scratch = unsafe { scratch.get(0) };
                let rate = settings.joint_bias_rate;
                solve_exact_islands(exact_islands, j, s, rate, &biased, scratch);
                solve_joints(j, s, &biased);
                let scalar = unsafe { contacts.all() };
                solve_contacts(scalar, overflow, s, inv_h, true, contact);
            }
            Stage::SolveColor(c) | Stage::RelaxColor(c) => {
                let use_bias = matches!(stage, Stage::SolveColor(_));
                let mut view = unsafe { StatesView::shared(&states) };
                let g = unsafe { groups.range(color_range(c)) };
                solve_groups(g, &mut view, inv_h, use_bias, max_push);
            }
            Stage::IntegratePositions => {
                let s = unsafe { states.range(range(states.len())) };
                integrate_positions(s, h);
            }
            Stage::RelaxScalar => {
                let (s, j) = unsafe { (states.all(), joints.all()) };
                let scratch = unsafe { scratch.get(0) };
                let rate = settings.joint_bias_rate;
                project_exact_islands(exact_islands, j, s, scratch);
                solve_exact_islands(exact_islands, j, s, rate, &relaxed, scratch);
                solve_joints(j, s, &relaxed);
                let scalar = unsafe { contacts.all() };
                solve_contacts(scalar, overflow, s, inv_h, false, contact);
            }
            Stage::StoreGroups => {
                let r = range(lanes.len());
                let g = unsafe { groups.all_shared() };
                for i in r {
                    for (lane, &k) in lanes[i].iter().enumerate() {
                        if k != EMPTY_LANE {
                            store_lane(&g[i], lane, unsafe { contacts.get(k as usize) });
                        }
                    }
                }
            }
            Stage::Restitution => {
                let threshold = contact.restitution_threshold;
                apply_restitution(
                    unsafe { contacts.all() },
                    unsafe { states.all() },
                    threshold,
                );
            }
        }
    };
    run_stages(runner, &counts, &block);
}
