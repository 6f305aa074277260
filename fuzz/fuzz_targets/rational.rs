#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| leontief::fuzzing::rational(data));
