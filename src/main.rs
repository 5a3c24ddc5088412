//! The `frosted` binary: everything lives in the library's `cli` module.

/// On Linux the whole process allocates with mimalloc: Rust's allocations
/// through this global allocator, and CaDiCaL's (C++ `new`, hence `malloc`)
/// through the crate's `override` feature, which replaces `malloc` and `free`
/// in this executable. glibc's allocator took about a tenth of a solve's
/// samples (the chain bound's and the elimination's threads most); with
/// mimalloc, solves near the generated corpus' median took about 18 % less
/// time in interleaved runs and 8 % less in a bench (docs/performance.md,
/// "The allocator"). Only the binary chooses it: the libraries, their tests
/// and anyone embedding them keep the system's allocator, and so does a
/// build for another system.
#[cfg(target_os = "linux")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(frosted::cli::main());
}
