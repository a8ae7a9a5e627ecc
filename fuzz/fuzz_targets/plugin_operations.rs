//! Fuzz target: see `fuzz_checks::plugin_operations` for the operations the bytes choose and
//! the invariants checked after every frame.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = fuzz_checks::check_plugin_operations(data);
});
