//! Runs every fuzz check on the kept corpus (`fuzz/corpus/<target>/`) and on a fixed batch of
//! pseudo-random byte strings, so stable CI checks the same properties as the fuzzers.

use std::path::PathBuf;

/// The kept corpus of `target`. The crate's folder is read when the test runs (cargo sets
/// `CARGO_MANIFEST_DIR` for it), not baked in when it is built: a build cache shared between
/// clones in different places hands out test binaries built in another clone, whose folder
/// may no longer exist.
fn corpus_dir(target: &str) -> PathBuf {
    let crate_dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from);
    crate_dir.join("../../fuzz/corpus").join(target)
}

/// xorshift64*: a fixed sequence of bytes, the same on every machine.
struct Bytes(u64);

impl Bytes {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn string(&mut self, max_len: usize) -> Vec<u8> {
        let len = (self.next() % (max_len as u64 + 1)) as usize;
        (0..len).map(|_| (self.next() >> 56) as u8).collect()
    }
}

#[test]
fn every_kept_corpus_input_passes_its_check() {
    for (target, check) in fuzz_checks::TARGETS {
        let dir = corpus_dir(target);
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("the corpus of {target} should be kept in {dir:?}: {e}"));
        let mut replayed = 0;
        for entry in entries {
            let path = entry.expect("readable corpus folder").path();
            let data = std::fs::read(&path).expect("readable corpus file");
            eprintln!("{target}: {}", path.display());
            let _ = check(&data);
            replayed += 1;
        }
        assert!(
            replayed >= 10,
            "{target}: only {replayed} corpus inputs kept"
        );
    }
}

#[test]
fn pseudo_random_inputs_pass_every_check() {
    for (k, (target, check)) in fuzz_checks::TARGETS.into_iter().enumerate() {
        let mut bytes = Bytes(0x9e37_79b9_7f4a_7c15 ^ k as u64);
        // Scenes read many bytes per body, so they get longer strings and fewer runs.
        // The plugin's operations build a whole App per input: fewer, longer runs.
        let (runs, max_len) = match target {
            "scene_building" => (300, 2048),
            "plugin_operations" => (40, 4096),
            _ => (3000, 512),
        };
        let mut exercised = 0;
        for run in 0..runs {
            let data = bytes.string(max_len);
            let outcome = std::panic::catch_unwind(|| check(&data));
            assert!(outcome.is_ok(), "{target}, run {run}: failed on {data:?}");
            exercised += usize::from(outcome.unwrap_or(false));
        }
        eprintln!("{target}: {exercised} of {runs} inputs reached the checked work");
        // Random bytes must mostly get past the constructors, or this test checks little.
        assert!(
            exercised * 5 >= runs,
            "{target}: only {exercised} of {runs} random inputs were exercised"
        );
    }
}
