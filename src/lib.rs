//! Scenes and shared helpers for the physics2d examples, tests and benchmarks.
//!
//! Scene descriptions are written once here and built into the core world by tests, the
//! testbed and the benchmark harness alike.

pub use physics_core;
