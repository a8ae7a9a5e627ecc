//! Multi-threading: the [`TaskRunner`] interface a host (the Bevy plugin, a game engine, a
//! test) implements to lend the world its worker threads, and the stage machinery the step
//! runs on it.
//!
//! A step is a list of stages (prepare contacts, then per substep: integrate velocities, warm
//! start, solve, integrate positions, relax; see `solver/mod.rs`). Each stage is cut into
//! blocks that touch disjoint data: ranges of bodies, ranges of contacts, or groups of one
//! constraint colour, whose constraints share no moving body. Workers claim blocks with an
//! atomic counter, and the worker that finishes a stage's last block opens the next stage.
//! Every block computes the same numbers whichever worker runs it, so the result is
//! bit-identical for any number of workers.
//!
//! Without a host pool of its own, a program lends the world [`WorkerThreads`]:
//!
//! ```
//! use physics_core::parallel::{TaskRunner, WorkerThreads};
//! use physics_core::prelude::*;
//! use std::sync::Arc;
//!
//! let mut world = World::new(WorldDef::default()).unwrap();
//! world.set_task_runner(Arc::new(WorkerThreads::new(2)));
//! assert_eq!(world.task_runner().worker_count(), 2);
//! world.step(1.0 / 60.0).unwrap();
//! ```

mod runner;
pub(crate) mod shared;
pub(crate) mod stages;
mod worker_pool;

pub use runner::{ScopedThreads, SingleThreaded, TaskRunner};
pub use worker_pool::{SPIN_BEFORE_SLEEP, WorkerThreads};
