#![no_main]
// The bodies are the main crate's test code, shared with its corpus replay test.
#[path = "../../tests/integration/fuzzing.rs"]
#[allow(dead_code)]
mod fuzzing;
libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::flat_json(data));
