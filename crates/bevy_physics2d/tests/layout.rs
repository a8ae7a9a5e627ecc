//! The plugin's source stays laid out by feature: no circle of imports between files spans
//! more than one folder (a feature may lean on another, never back and forth), and every
//! folder's `mod.rs` opens by saying what the feature does and which plugin registers it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, as paths relative to `root`.
fn rust_files(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path.strip_prefix(root).unwrap().to_path_buf());
        }
    }
}

/// The module path of a file (`dynamics/body/mod.rs` is `dynamics::body`, `lib.rs` is ``).
fn module_of(file: &Path) -> String {
    let mut parts: Vec<String> = file
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts.join("::")
}

/// The source without line comments and without its test module.
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths that follow each occurrence of `prefix` (`crate::` or `super::`), with the
/// number of `super::` before them, split at `::`; a `{...}` group gives one path per item.
fn paths_after(code: &str, prefix: &str) -> Vec<(usize, Vec<String>)> {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find(prefix) {
        let before = &rest[..at];
        let starts_word = before
            .chars()
            .last()
            .is_none_or(|c| !is_ident(c) && c != ':');
        let mut tail = &rest[at + prefix.len()..];
        rest = tail;
        if !starts_word {
            continue;
        }
        let mut ups = 1;
        while prefix == "super::" && tail.starts_with("super::") {
            ups += 1;
            tail = &tail["super::".len()..];
        }
        if let Some(group) = tail.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            for item in group.split(',') {
                let item = item.split(" as ").next().unwrap().trim();
                if !item.is_empty() {
                    found.push((ups, item.split("::").map(str::to_string).collect()));
                }
            }
            continue;
        }
        let end = tail
            .find(|c: char| !(is_ident(c) || c == ':'))
            .unwrap_or(tail.len());
        let path: Vec<String> = tail[..end]
            .split("::")
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect();
        if !path.is_empty() {
            found.push((ups, path));
        }
    }
    found
}

/// The import graph of the crate's files: an edge from a file to every file one of its
/// paths names (the longest module prefix of the path; a name the crate root re-exports
/// leads to the file it comes from).
fn import_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, src, &mut files);
    let modules: BTreeMap<String, String> = files
        .iter()
        .map(|f| {
            (
                module_of(f),
                f.with_extension("").to_string_lossy().into_owned(),
            )
        })
        .collect();
    // `pub use a::b::{C, D};` and `pub use a::b::C;` in lib.rs.
    let lib = code_of(&std::fs::read_to_string(src.join("lib.rs")).unwrap());
    let mut reexported: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for statement in lib.split(';') {
        let Some(path) = statement.trim().strip_prefix("pub use ") else {
            continue;
        };
        let (prefix, names) = match path.find("::{") {
            Some(at) => (
                &path[..at],
                path[at + 3..].trim_end_matches('}').to_string(),
            ),
            None => match path.rfind("::") {
                Some(at) => (&path[..at], path[at + 2..].to_string()),
                None => continue,
            },
        };
        for name in names.split(',') {
            let name = name.trim();
            if !name.is_empty() {
                reexported.insert(
                    name.to_string(),
                    prefix.split("::").map(str::to_string).collect(),
                );
            }
        }
    }
    let resolve = |mut path: Vec<String>| {
        if path.len() == 1
            && let Some(origin) = reexported.get(&path[0])
        {
            path = origin.clone();
        }
        while !path.is_empty() {
            if let Some(file) = modules.get(&path.join("::")) {
                return Some(file.clone());
            }
            path.pop();
        }
        None
    };
    let mut graph = BTreeMap::new();
    for (module, file) in &modules {
        let code = code_of(&std::fs::read_to_string(src.join(format!("{file}.rs"))).unwrap());
        let own: Vec<String> = module
            .split("::")
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect();
        let mut targets = BTreeSet::new();
        for (_, path) in paths_after(&code, "crate::") {
            targets.extend(resolve(path));
        }
        for (ups, path) in paths_after(&code, "super::") {
            let mut full: Vec<String> = own[..own.len().saturating_sub(ups)].to_vec();
            full.extend(path);
            targets.extend(resolve(full));
        }
        targets.remove(file);
        graph.insert(file.clone(), targets);
    }
    graph
}

/// The strongly connected components of more than one file (Tarjan's algorithm).
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.graph.get(v).into_iter().flatten() {
                if !self.index.contains_key(w.as_str()) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w.as_str()]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w.as_str()) {
                    let low = self.low[v].min(self.index[w.as_str()]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                loop {
                    let w = self.stack.pop().unwrap();
                    self.on_stack.remove(w);
                    component.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !walk.index.contains_key(v.as_str()) {
            walk.visit(v);
        }
    }
    walk.found
}

fn folder_of(file: &str) -> &str {
    file.rsplit_once('/').map_or(".", |(folder, _)| folder)
}

/// The crate's `src/`, found when the test runs (cargo sets `CARGO_MANIFEST_DIR` for it) and
/// not baked in when it is built: a build cache shared between clones in different places
/// hands out test binaries built in another clone, whose folder may no longer exist.
fn src() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from)
        .join("src")
}

#[test]
fn no_import_circle_spans_two_folders() {
    let graph = import_graph(&src());
    assert!(graph.len() > 40, "the walk found {} files", graph.len());
    for circle in circles(&graph) {
        let folders: BTreeSet<&str> = circle.iter().map(|f| folder_of(f)).collect();
        assert_eq!(
            folders.len(),
            1,
            "an import circle across folders: {circle:?}"
        );
    }
}

#[test]
fn the_graph_sees_a_circle_across_folders() {
    // The check above can fail: a made-up crate where a body file and a collider file name
    // each other.
    let dir = std::env::temp_dir().join(format!("layout_check_{}", std::process::id()));
    std::fs::create_dir_all(dir.join("dynamics")).unwrap();
    std::fs::create_dir_all(dir.join("collision")).unwrap();
    std::fs::write(
        dir.join("lib.rs"),
        "mod dynamics;\nmod collision;\npub use collision::collider::Collider;\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("dynamics/mod.rs"),
        "//! Bodies.\npub(crate) mod body;\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("collision/mod.rs"),
        "//! Colliders.\npub(crate) mod collider;\n",
    )
    .unwrap();
    std::fs::write(dir.join("dynamics/body.rs"), "use crate::Collider;\n").unwrap();
    std::fs::write(
        dir.join("collision/collider.rs"),
        "use crate::dynamics::body::Body;\n",
    )
    .unwrap();
    let found = circles(&import_graph(&dir));
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].len(), 2);
}

#[test]
fn every_feature_folder_opens_with_what_it_does_and_its_plugin() {
    let src = src();
    let mut files = Vec::new();
    rust_files(&src, &src, &mut files);
    let folders: Vec<PathBuf> = files
        .iter()
        .filter(|f| f.file_name().is_some_and(|n| n == "mod.rs"))
        .cloned()
        .collect();
    assert!(folders.len() >= 10, "{folders:?}");
    for file in folders {
        let text = std::fs::read_to_string(src.join(&file)).unwrap();
        let opening: String = text
            .lines()
            .take_while(|l| l.starts_with("//!"))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            !opening.is_empty(),
            "{} has no opening doc comment",
            file.display()
        );
        assert!(
            opening.contains("Plugin"),
            "{} does not name the plugin that registers it:\n{opening}",
            file.display()
        );
    }
}
