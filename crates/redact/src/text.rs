//! Turning findings into output: overlap resolution, replacement and counting.
//!
//! Detectors report findings independently; this module decides what the text becomes. The
//! rule: findings whose replaced spans overlap form one group, the whole group is replaced once
//! (so no piece of any finding stays visible), and the group takes the kind of the finding that
//! starts earliest, the longest one on a tie, then the first kind in
//! [`BUILTIN_KINDS`](crate::BUILTIN_KINDS) order, custom patterns last.
//!
//! When any finding of a group is of a kind that is never shown in part (a password, a key
//! block: see `Kind::always_placeholder`), the group gets its winner's placeholder even in
//! partial style: `GH_TOKEN=ghp_…` is both a GitHub token (the winner, more telling) and the
//! value of a secret assignment, and no part of it may stay visible.

use crate::RedactionCounts;
use crate::kinds::Kind;
use crate::redactor::Redactor;

/// Which detector made a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Rule {
    /// A built-in detector.
    Builtin(Kind),
    /// A custom pattern, by its position in the spec.
    Custom(usize),
}

/// One thing a detector found.
///
/// `start..end` is what gets replaced; `claim_start..claim_end` is the whole match, which can be
/// wider (for `url_credentials` only the password is replaced but the claim runs from the
/// scheme). Claims decide which finding wins an overlap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Finding {
    pub(crate) claim_start: usize,
    pub(crate) claim_end: usize,
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) rule: Rule,
}

impl Finding {
    /// A finding that replaces exactly what it matched.
    pub(crate) fn whole(start: usize, end: usize, rule: Rule) -> Finding {
        Finding { claim_start: start, claim_end: end, start, end, rule }
    }

    /// A finding that matched `claim` but replaces only `start..end` inside it.
    pub(crate) fn part(claim: (usize, usize), start: usize, end: usize, rule: Rule) -> Finding {
        Finding { claim_start: claim.0, claim_end: claim.1, start, end, rule }
    }

    fn always_placeholder(&self) -> bool {
        matches!(self.rule, Rule::Builtin(kind) if kind.always_placeholder())
    }

    /// Sort key for winning an overlap: smaller wins.
    fn precedence(&self) -> (usize, std::cmp::Reverse<usize>, Rule) {
        (self.claim_start, std::cmp::Reverse(self.claim_end.saturating_sub(self.claim_start)), self.rule)
    }
}

/// Replaces every finding in `text`, counting one replacement per overlap group; `None` when
/// no finding survived the checks.
pub(crate) fn apply(
    redactor: &Redactor,
    text: &str,
    mut findings: Vec<Finding>,
    counts: &mut RedactionCounts,
) -> Option<String> {
    findings.retain(|f| {
        f.start < f.end
            && f.end <= text.len()
            && text.is_char_boundary(f.start)
            && text.is_char_boundary(f.end)
            && !redactor.is_protected(text, f)
    });
    if findings.is_empty() {
        return None;
    }
    findings.sort_by_key(|f| (f.start, f.end));

    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    let mut i = 0;
    while let Some(first) = findings.get(i) {
        let group_start = first.start;
        let mut group_end = first.end;
        let mut winner = *first;
        let mut force_placeholder = first.always_placeholder();
        i += 1;
        while let Some(next) = findings.get(i) {
            if next.start >= group_end {
                break;
            }
            group_end = group_end.max(next.end);
            if next.precedence() < winner.precedence() {
                winner = *next;
            }
            force_placeholder |= next.always_placeholder();
            i += 1;
        }
        out.push_str(&text[pos..group_start]);
        out.push_str(&redactor.replacement(winner.rule, &text[group_start..group_end], force_placeholder));
        counts.add(redactor.rule_name(winner.rule), 1);
        pos = group_end;
    }
    out.push_str(&text[pos..]);
    Some(out)
}
