//! The questions asked of the twenty-eighth part's second half: the output of
//! command-line tools. `jest --json` and `npm outdated --json --long` print JSON and are
//! asked about as they are (`cli/jest.rs`, `cli/npm.rs`); `rpm -qai` and the series of
//! `docker stats --no-stream` snapshots are text, read back into records first
//! (`cli/readers.rs`) and asked about as their users ask:
//!
//! - `jest_json` (`cli/jest.rs`): a test's status and duration, why a test failed, a test
//!   file's status and times; how many tests failed, were skipped or left todo, how many
//!   files a package has, the slowest test and file; the run's counts at the top and the
//!   last files and tests.
//! - `npm_outdated_json` (`cli/npm.rs`): a package's installed, wanted and latest
//!   versions, its dependent workspace, kind, location and homepage; how many packages
//!   are outdated, a major version behind, used by several workspaces; the workspace with
//!   the most outdated packages; the first and last packages.
//! - `rpm_qai` (`cli/rpm.rs`): a package's version, release, license, size, install and
//!   build dates, source RPM and URL; how many packages are installed, noarch or built
//!   from one source, the largest and the newest; the first and last packages.
//! - `docker_stats` (`cli/docker.rs`): a container's ID, memory limit, usage at a given
//!   time; how many containers run, which uses the most CPU, memory or PIDs; the first
//!   snapshot's rows and the last's.
//!
//! Every answer is computed from the result.

mod docker;
mod jest;
mod npm;
mod readers;
mod rpm;

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::question::Question;
use crate::record_questions::{ORDINALS, to_last};

/// Every question about one of this half's JSON results; `None` for other shapes.
pub(super) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let qs = match name {
        "jest_json" => jest::jest_questions(v),
        "npm_outdated_json" => npm::npm_questions(v),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// Every question about one of this half's text results; `None` for other shapes.
pub(super) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let qs = match name {
        "rpm_qai" => rpm::rpm_questions(t),
        "docker_stats" => docker::docker_questions(t),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}
