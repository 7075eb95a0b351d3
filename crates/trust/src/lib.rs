//! Trust at the tool boundary: the pure parts of three defences.
//!
//! - **Pinned tool definitions** ([`Lock`], [`ToolDefinition`], [`OnChange`], [`pin_diff`]):
//!   an upstream can change a tool's description or schema after it was approved, and the new
//!   text would reach the model as trusted instructions. A lock file holds, per upstream tool,
//!   the approved definition and a hash of its canonical JSON; a live tool that is new or
//!   differs is held back until approved (or served with a warning).
//! - **The argument guard** ([`ArgumentGuard`]): the redaction detectors run over a call's
//!   arguments before they leave, so a secret the model read cannot be sent on through a
//!   tool; findings are blocked, redacted or reported, by kind and place, never by value.
//! - **Repeated calls** ([`RepeatDetector`]): the same tool with the same arguments in the
//!   same session more than a few times in a window is answered with a short "repeat"
//!   envelope instead of the full result again.
//!
//! Values in, values out: no I/O, no clock (callers pass `now`), no global state; nothing
//! here panics on any input. The gateway, the config and the CLI wire these in.

mod argpath;
mod canonical;
mod compare;
mod definition;
mod diff;
mod escape;
mod guard;
mod lock;
mod lock_parse;
mod repeat;

pub use argpath::{ArgPath, Step};
pub use canonical::{canonical_pretty, canonical_text, canonicalize};
pub use compare::{Admission, Change, OnChange, PinStatus, held_message, warn_message};
pub use definition::{DefinitionError, DefinitionHash, Hints, ToolDefinition};
pub use diff::{ToolDiff, diff_tool, pin_diff};
pub use guard::{
    ArgFinding, ArgumentGuard, DEFAULT_GUARD_KINDS, GuardAction, GuardError, GuardMode, GuardSpec, GuardVerdict,
};
pub use lock::{LOCK_VERSION, Lock, PinnedTool, ToolKey, render_block};
pub use lock_parse::LockError;
pub use repeat::{
    CallKey, DEFAULT_REPEAT_CAPACITY, DEFAULT_REPEAT_LIMIT, DEFAULT_REPEAT_WINDOW, MAX_PREVIOUS_BYTES,
    MAX_REPEAT_LIMIT, Repeat, RepeatDetector, RepeatPolicy,
};
