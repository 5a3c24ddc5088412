//! The `frosted` binary: everything lives in the library's `cli` module.

/// On Linux the whole process allocates with mimalloc: Rust through this
/// global allocator, CaDiCaL's C++ through the crate's `override` feature
/// (which replaces `malloc` and `free` in this executable). Only the binary
/// chooses it; the libraries and their tests keep the system's allocator.
/// Why, and what it gained and costs: docs/performance.md, "The allocator".
#[cfg(target_os = "linux")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(frosted::cli::main());
}
