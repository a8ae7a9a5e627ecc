//! No library: this package holds the lightyear example's network tests (`tests/`), which
//! need lightyear's mock clock, a feature no other build of the workspace should get. See
//! the package's `Cargo.toml`.
