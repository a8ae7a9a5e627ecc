//! The engine is built in floors, and a floor never reaches up: geometry (`shape/`) knows
//! nothing of collision or the world, collision nothing of bodies, the solver or the world,
//! and the body and shape records nothing of the world or the solver (see ARCHITECTURE.md).

use std::path::{Path, PathBuf};

/// The crate's folder, read when the test runs (cargo sets `CARGO_MANIFEST_DIR` for it) and
/// not baked in when it is built: a build cache shared between clones in different places
/// hands out test binaries built in another clone, whose folder may no longer exist.
fn crate_dir() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from)
}

/// Every `.rs` file at or under `path` (relative to the crate's `src/`).
fn files_at(path: &str) -> Vec<PathBuf> {
    let root = crate_dir().join("src").join(path);
    if root.is_file() {
        return vec![root];
    }
    let mut found = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e == "rs") {
                found.push(p);
            }
        }
    }
    found
}

/// The code of a file without comments (doc links may name any floor) and its tests.
fn code_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The modules of `above` that the code at `path` names.
fn reaches_up(path: &str, above: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for file in files_at(path) {
        let code = code_of(&file);
        for module in above {
            if code.contains(&format!("crate::{module}")) {
                found.push(format!("{} names crate::{module}", file.display()));
            }
        }
    }
    found
}

#[test]
fn no_floor_reaches_up() {
    let rules: [(&str, &[&str]); 5] = [
        (
            "position.rs",
            &[
                "shape",
                "world",
                "solver",
                "joint",
                "broadphase",
                "collision",
                "body",
                "shape_def",
                "contact",
            ],
        ),
        (
            "shape",
            &[
                "world",
                "solver",
                "joint",
                "broadphase",
                "collision",
                "body",
                "shape_def",
                "contact",
            ],
        ),
        (
            "collision",
            &["world", "solver", "joint", "broadphase", "body", "contact"],
        ),
        ("body.rs", &["world", "solver"]),
        ("shape_def.rs", &["world", "solver"]),
    ];
    let mut broken = Vec::new();
    for (path, above) in rules {
        assert!(!files_at(path).is_empty(), "{path} has no source");
        broken.extend(reaches_up(path, above));
    }
    assert!(broken.is_empty(), "{broken:#?}");
}

#[test]
fn the_check_sees_a_reach_up() {
    // The world reaches down to shapes, so it names them: the check finds that.
    assert!(!reaches_up("world/bodies.rs", &["shape"]).is_empty());
}
