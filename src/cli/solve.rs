//! `frosted solve`, `dump-cnf`, `decode` and `bench`.

use super::CliError;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    pub level: PathBuf,
}
#[derive(clap::Args, Debug)]
pub struct DumpArgs {
    pub level: PathBuf,
}
#[derive(clap::Args, Debug)]
pub struct DecodeArgs {
    pub level: PathBuf,
    pub model: PathBuf,
}
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    pub dir: PathBuf,
}

fn todo() -> Result<i32, CliError> {
    Err(CliError::bad_input("not implemented yet"))
}
pub fn run(_a: Args) -> Result<i32, CliError> {
    todo()
}
pub fn dump_cnf(_a: DumpArgs) -> Result<i32, CliError> {
    todo()
}
pub fn decode(_a: DecodeArgs) -> Result<i32, CliError> {
    todo()
}
pub fn bench(_a: BenchArgs) -> Result<i32, CliError> {
    todo()
}
