//! The `frosted` binary: everything lives in the library's `cli` module.
fn main() {
    std::process::exit(frosted::cli::main());
}
