//! The `frosted` binary: everything lives in the library's `cli` module.

/// The whole process allocates with mimalloc: Rust's allocations through this
/// global allocator, and CaDiCaL's (C++ `new`, hence `malloc`) through the
/// crate's `override` feature, which replaces `malloc` and `free` in this
/// executable. glibc's allocator took about a tenth of a solve's samples
/// (the chain bound's and the elimination's threads most), and this made
/// solves near the generated corpus' median about a sixth faster
/// (docs/performance.md, "The allocator"). Only the binary chooses it: the
/// libraries, their tests and anyone embedding them keep the system's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(frosted::cli::main());
}
