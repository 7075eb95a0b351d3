//! Audio size rules: audio is passed as it came, or left out when over `audio_max_bytes`
//! (a model cannot be given part of a sound file usefully; `next` reads all of it).

use crate::format::AudioKind;
use crate::note::MediaNote;
use crate::policy::{MediaMode, MediaPolicy};

/// What became of one audio item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AudioOutcome {
    /// Whether it is sent (as it came).
    pub sent: bool,
    /// Its size in bytes.
    pub bytes: usize,
    /// The container its bytes are, when recognised.
    pub kind: Option<AudioKind>,
    /// Why it was left out, or what was odd about it.
    pub notes: Vec<MediaNote>,
}

/// Applies `policy` to one audio item.
#[must_use]
pub fn audio_outcome(bytes: &[u8], declared_mime: &str, policy: &MediaPolicy) -> AudioOutcome {
    let kind = AudioKind::sniff(bytes);
    let mut notes = Vec::new();
    if let Some(kind) = kind
        && AudioKind::from_mime(declared_mime) != Some(kind)
    {
        notes.push(MediaNote::AudioWrongMime { declared: declared_mime.to_owned(), actual: kind.mime_type() });
    }
    let size = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    let sent = match policy.mode {
        MediaMode::Pass => true,
        MediaMode::Drop => {
            notes.push(MediaNote::Dropped);
            false
        }
        MediaMode::Fit if bytes.is_empty() => {
            notes.push(MediaNote::Empty);
            false
        }
        MediaMode::Fit if size > policy.audio_max_bytes => {
            notes.push(MediaNote::AudioTooLarge { bytes: size, max_bytes: policy.audio_max_bytes });
            false
        }
        MediaMode::Fit => true,
    };
    AudioOutcome { sent, bytes: bytes.len(), kind, notes }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wav(len: usize) -> Vec<u8> {
        let mut bytes = b"RIFF\0\0\0\0WAVEfmt ".to_vec();
        bytes.resize(len, 0);
        bytes
    }

    #[test]
    fn audio_under_the_limit_passes_and_over_it_is_left_out() {
        let policy = MediaPolicy { audio_max_bytes: 100, ..MediaPolicy::default() };
        let small = audio_outcome(&wav(100), "audio/wav", &policy);
        assert!(small.sent && small.notes.is_empty(), "{small:?}");
        let large = audio_outcome(&wav(101), "audio/wav", &policy);
        assert!(!large.sent);
        assert_eq!(large.notes, vec![MediaNote::AudioTooLarge { bytes: 101, max_bytes: 100 }]);
    }

    #[test]
    fn modes_pass_and_drop_ignore_the_limit() {
        let pass = MediaPolicy { audio_max_bytes: 1, mode: MediaMode::Pass, ..MediaPolicy::default() };
        assert!(audio_outcome(&wav(50), "audio/wav", &pass).sent);
        let drop = MediaPolicy { mode: MediaMode::Drop, ..MediaPolicy::default() };
        let out = audio_outcome(&wav(50), "audio/wav", &drop);
        assert!(!out.sent);
        assert_eq!(out.notes, vec![MediaNote::Dropped]);
    }

    #[test]
    fn a_wrong_mime_type_is_noted_but_the_audio_still_passes() {
        let out = audio_outcome(&wav(40), "audio/mpeg", &MediaPolicy::default());
        assert!(out.sent);
        assert_eq!(out.notes, vec![MediaNote::AudioWrongMime { declared: "audio/mpeg".into(), actual: "audio/wav" }]);
        assert!(out.notes[0].is_warning());
    }

    #[test]
    fn empty_audio_is_left_out() {
        let out = audio_outcome(b"", "audio/wav", &MediaPolicy::default());
        assert!(!out.sent);
        assert_eq!(out.notes, vec![MediaNote::Empty]);
    }
}
