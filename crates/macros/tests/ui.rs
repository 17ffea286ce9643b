//! Compile-fail tests: each construct outside the kernel subset is an error at its span.
#[test]
fn ui() {
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}
