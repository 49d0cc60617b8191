//! The interactive prompt.
pub fn run(_hints: bool) -> i32 {
    0
}
