//! Fuzz target: see `fuzz_checks::check_recording_bytes` for the input and the properties checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = fuzz_checks::check_recording_bytes(data);
});
