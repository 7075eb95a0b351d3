//! Command-line parsing and dispatch.

mod audit;
mod call;
mod check;
mod client_files;
mod config_paths;
mod doctor;
mod ignored;
mod init;
mod install;
mod logging;
mod pin;
mod progress;
mod reload;
mod report;
mod search;
mod serve;
mod shape;
mod spans;
mod tokens;
mod tools;
mod uninstall;
mod upstream_list;
mod waiting;

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::{Parser, Subcommand};

/// A failed command: what went wrong and the exit code that says which kind of failure.
pub(crate) struct Failure {
    pub(crate) error: anyhow::Error,
    pub(crate) code: u8,
}

/// Exit code: the command line itself is wrong (as clap exits for its own usage errors).
pub(crate) const EXIT_USAGE: u8 = 2;
/// Exit code: the input could not be read.
pub(crate) const EXIT_INPUT: u8 = 3;
/// Exit code: the plan or budget cannot work.
pub(crate) const EXIT_PLAN: u8 = 4;
/// Exit code: the config has problems (`check` found some, or another command met them).
pub(crate) const EXIT_PROBLEMS: u8 = 1;
/// Exit code: `call` ran, and the call failed (the model read an error envelope).
pub(crate) const EXIT_CALL_FAILED: u8 = 5;

impl Failure {
    pub(crate) fn usage(error: anyhow::Error) -> Failure {
        Failure { error, code: EXIT_USAGE }
    }
    pub(crate) fn input(error: anyhow::Error) -> Failure {
        Failure { error, code: EXIT_INPUT }
    }
    pub(crate) fn plan(error: anyhow::Error) -> Failure {
        Failure { error, code: EXIT_PLAN }
    }
}

/// Decide what an LLM agent sees of its tools.
#[derive(Debug, Parser)]
#[command(name = "toolshape", version, about, long_about = None, after_help = LOGGING_HELP)]
pub(crate) struct Cli {
    /// Log more to standard error: -v adds what happens (upstreams starting, their stderr),
    /// -vv adds details. TOOLSHAPE_LOG, when set, decides instead.
    #[arg(long, short, global = true, action = clap::ArgAction::Count)]
    verbose: u8,
    #[command(subcommand)]
    command: Command,
}

/// The end of `--help`: where logs go and how to get more.
const LOGGING_HELP: &str = "\
Logs go to standard error. Set TOOLSHAPE_LOG to choose what is logged, as a level (error, warn,
info, debug, trace) or per module (TOOLSHAPE_LOG=info,toolshape_gateway=debug); RUST_LOG is read
when TOOLSHAPE_LOG is not set. `serve` logs at info by default, other commands at warn; -v and
-vv raise that. When an upstream fails to start, its own error is in its stderr lines, logged at
info: run with -v (or TOOLSHAPE_LOG=info) to see them.

Exit codes: 0 success, 1 problems found (check, audit, doctor) or a refused install, 2 usage
error, 3 input could not be read, 4 the plan or budget cannot work, 5 the call failed.";

#[derive(Debug, Subcommand)]
enum Command {
    /// Shape a saved tool result and print exactly what the model would read.
    Shape(shape::ShapeArgs),
    /// Count the tokens of a file or standard input.
    Tokens(tokens::TokensArgs),
    /// Check a config file and report every problem at once.
    Check(check::CheckArgs),
    /// List the tool surface a config shows the model, with each definition's token cost.
    Tools(tools::ToolsArgs),
    /// Run the gateway for an agent: MCP over stdio, or Streamable HTTP with --http.
    Serve(serve::ServeArgs),
    /// Call one tool through the gateway and print what the model reads.
    Call(call::CallArgs),
    /// Per tool, the most tokens one call can put in the context and how much upstream text can fill.
    Audit(audit::AuditArgs),
    /// Pin the upstreams' tool definitions in a lock file; --diff shows what changed, --approve NAME approves it.
    Pin(pin::PinArgs),
    /// Rank a catalog's tools for queries offline; with --gold, measure the ranking.
    Search(search::SearchArgs),
    /// Where the context goes: per tool, calls, tokens before and after shaping, share of the bill.
    Report(report::ReportArgs),
    /// Start every upstream and check what `check` cannot: handlers, templates, start-up.
    Doctor(doctor::DoctorArgs),
    /// Write a config whose upstreams are the MCP servers your clients already run.
    Init(init::InitArgs),
    /// Make a client (Claude Code, Cursor, ...) start toolshape in place of the servers it fronts.
    Install(install::InstallArgs),
    /// Put back a client's config as it was before `install`, byte for byte.
    Uninstall(uninstall::UninstallArgs),
}

pub(crate) fn run(cli: Cli) -> Result<(), Failure> {
    logging::set_verbosity(cli.verbose);
    match cli.command {
        Command::Shape(args) => shape::run(args),
        Command::Tokens(args) => tokens::run(args),
        Command::Check(args) => check::run(args),
        Command::Tools(args) => tools::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Call(args) => call::run(args),
        Command::Audit(args) => audit::run(args),
        Command::Pin(args) => pin::run(args),
        Command::Search(args) => search::run(args),
        Command::Report(args) => report::run(args),
        Command::Doctor(args) => doctor::run(args),
        Command::Init(args) => init::run(args),
        Command::Install(args) => install::run(args),
        Command::Uninstall(args) => uninstall::run(args),
    }
}

/// Read `path`, or standard input for `-` or no path.
pub(crate) fn read_input(path: Option<&Path>) -> Result<Vec<u8>, Failure> {
    match path {
        None => read_stdin(),
        Some(p) if p == Path::new("-") => read_stdin(),
        Some(p) => read_file(p).with_context(|| format!("cannot read `{}`", p.display())).map_err(Failure::input),
    }
}

fn read_stdin() -> Result<Vec<u8>, Failure> {
    read_all(std::io::stdin().lock(), 0).context("cannot read standard input").map_err(Failure::input)
}

/// Read a file in chunks, with a progress line on a terminal when it takes a while.
fn read_file(path: &Path) -> std::io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    let total = file.metadata().map(|m| m.len()).unwrap_or(0);
    read_all(file, total)
}

/// Read `from` to its end (`total` bytes when known, else 0), showing progress.
fn read_all(mut from: impl Read, total: u64) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::with_capacity(usize::try_from(total).unwrap_or(0));
    let mut progress = progress::Progress::new("reading", "bytes");
    let mut chunk = vec![0u8; 8 << 20];
    loop {
        let n = match from.read(&mut chunk) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
        progress.update(buf.len() as u64, total);
    }
    progress.finish();
    Ok(buf)
}

/// Write `text` and a newline to standard output; a closed pipe is not an error.
pub(crate) fn print_line(text: &str) -> Result<(), Failure> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::input(anyhow::Error::new(e).context("cannot write standard output"))),
    }
}

/// The file argument as given, for messages and `next` hints.
pub(crate) fn display_input(path: Option<&PathBuf>) -> String {
    path.map_or_else(|| "-".to_owned(), |p| p.display().to_string())
}

/// Read a config file as text; the name returned is the path as given, for messages.
pub(crate) fn read_config(path: &Path) -> Result<(String, String), Failure> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read config `{name}`"))
        .map_err(Failure::input)?;
    Ok((name, text))
}

/// Read, load and compile a config; `${VAR}` reads this process's environment, and relative
/// paths resolve against the config's folder. Problems end the command with every problem
/// listed.
pub(crate) fn load_masks(path: &Path) -> Result<(toolshape_mask::Config, toolshape_mask::MaskSet), Failure> {
    let (name, text) = read_config(path)?;
    let loaded = toolshape_mask::load(&text, &name, &|var| std::env::var(var).ok());
    loaded
        .map(|(mut config, masks)| {
            config_paths::resolve(&mut config, &config_paths::config_dir(path));
            (config, masks)
        })
        .map_err(|errors| Failure {
            error: anyhow::anyhow!(
                "{} problem(s) in `{name}` (run `toolshape check --config {name}`):\n{errors}",
                errors.len()
            ),
            code: EXIT_PROBLEMS,
        })
}
