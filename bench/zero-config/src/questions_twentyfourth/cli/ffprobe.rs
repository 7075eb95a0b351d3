//! The questions asked of ffprobe's frame listing: what someone checking an encode asks
//! (the picture type and packet size of the frame at a time, at a byte position, or with
//! a decode number; how many key frames, I, P and B frames there are; which frame is
//! largest or smallest; the first frames at the top and the last frames at the bottom).

use serde_json::Value;

use super::readers::{ffprobe_frames, num};
use super::{about_record, from_end, lookup};
use crate::question::{Kind, Question};
use crate::questions_blind::{at, count, extreme, only, scored_by, together};

/// Every question about the listing `t`.
pub(crate) fn ffprobe_questions(t: &str) -> Vec<Option<Question>> {
    let frames = ffprobe_frames(t);
    let mut qs = lookups(&frames);
    qs.extend(aggregates(&frames));
    qs.extend(heads_and_tails(&frames));
    qs
}

/// The frame with a decode number, asked by it; its `key=value` line is what a reader
/// searches for, a bare number being everywhere.
fn by_coded_number(frames: &[Value], f: f64) -> Option<Question> {
    let x = frames.get(at(frames.len(), f))?;
    let coded = x["coded_picture_number"].as_str()?;
    let (pts_time, pict) = (x["pts_time"].as_str()?, x["pict_type"].as_str()?);
    let needle = format!("coded_picture_number={coded}");
    let q = format!("Which frame has coded_picture_number {coded}: at which time is it shown, and of which type?");
    Some(together(Kind::Lookup, q, Some(&needle), &[&needle, pts_time, pict]))
}

/// A frame's type and size by its time, its position in the file, its decode number.
fn lookups(frames: &[Value]) -> Vec<Option<Question>> {
    let b_frames = only(frames, |x| x["pict_type"] == "B");
    vec![
        lookup(frames, 0.2, "What picture type is the frame at pts_time {key}?", "pts_time", &["pict_type"]),
        lookup(frames, 0.45, "How large is the packet of the frame at pts_time {key}?", "pts_time", &["pkt_size"]),
        lookup(
            frames,
            0.7,
            "What picture type and packet size has the frame at pts_time {key}?",
            "pts_time",
            &["pict_type", "pkt_size"],
        ),
        lookup(
            frames,
            0.9,
            "Is the frame at pts_time {key} a key frame, and of which type?",
            "pts_time",
            &["key_frame", "pict_type"],
        ),
        lookup(
            frames,
            0.35,
            "Which frame's packet starts at byte {key} (pkt_pos), and of which type is it?",
            "pkt_pos",
            &["pts_time", "pict_type"],
        ),
        lookup(frames, 0.8, "How large is the packet at pkt_pos {key}?", "pkt_pos", &["pkt_size"]),
        lookup(
            &b_frames,
            0.5,
            "What is the decode timestamp (pkt_dts) of the frame at pts_time {key}?",
            "pts_time",
            &["pkt_dts"],
        ),
        lookup(frames, 0.6, "What is the pts of the frame at pts_time {key}?", "pts_time", &["pts"]),
        by_coded_number(frames, 0.3),
        by_coded_number(frames, 0.55),
        by_coded_number(frames, 0.95),
    ]
}

/// How many key, I, P and B frames; which frame is largest or smallest.
fn aggregates(frames: &[Value]) -> Vec<Option<Question>> {
    let n = |keep: &dyn Fn(&Value) -> bool| frames.iter().filter(|x| keep(x)).count();
    let of = |t: &'static str| move |x: &Value| x["pict_type"] == t;
    let size = |x: &Value| num(x, "pkt_size");
    let b_frames = only(frames, of("B"));
    let p_frames = only(frames, of("P"));
    vec![
        Some(count(
            "How many key frames are there?",
            &["key_frame=1", "key frames"],
            n(&|x| x["key_frame"] == "1"),
            Some("key_frame"),
        )),
        Some(count("How many B frames are there?", &["pict_type=B", "B"], n(&of("B")), Some("pict_type"))),
        Some(count("How many P frames are there?", &["pict_type=P", "P"], n(&of("P")), Some("pict_type"))),
        Some(count("How many I frames are there?", &["pict_type=I", "I"], n(&of("I")), Some("pict_type"))),
        Some(count("How many frames are listed?", &["frames", "[FRAME]"], frames.len(), Some("pts"))),
        Some(count(
            "How many frames have a packet larger than 100000 bytes?",
            &["100000", "pkt_size"],
            n(&|x| size(x).is_some_and(|s| s > 100_000.0)),
            Some("pkt_size"),
        )),
        extreme(
            "Which frame has the largest packet (by pts_time)?",
            scored_by(frames, size, "pts_time"),
            true,
            Some("pkt_size"),
        ),
        extreme(
            "Which frame has the smallest packet (by pts_time)?",
            scored_by(frames, size, "pts_time"),
            false,
            Some("pkt_size"),
        ),
        extreme(
            "Which B frame has the largest packet (by pts_time)?",
            scored_by(&b_frames, size, "pts_time"),
            true,
            Some("pkt_size"),
        ),
        extreme(
            "Which P frame has the largest packet (by pts_time)?",
            scored_by(&p_frames, size, "pts_time"),
            true,
            Some("pkt_size"),
        ),
        extreme(
            "Which frame has the largest packet, by coded_picture_number?",
            scored_by(frames, size, "coded_picture_number")
                .into_iter()
                .map(|(s, c)| (s, format!("coded_picture_number={c}")))
                .collect(),
            true,
            Some("pkt_size"),
        ),
    ]
}

/// The first frames and the video's format at the top; the last frames at the bottom.
fn heads_and_tails(frames: &[Value]) -> Vec<Option<Question>> {
    let (first, last) = (frames.first(), frames.last());
    vec![
        about_record(
            first,
            Kind::Head,
            "What picture type and packet size has the first frame?",
            &["pict_type", "pkt_size"],
        ),
        about_record(first, Kind::Head, "At which byte does the first frame's packet start (pkt_pos)?", &["pkt_pos"]),
        about_record(first, Kind::Head, "What resolution is the video?", &["width", "height"]),
        about_record(first, Kind::Head, "Which pixel format do the frames have?", &["pix_fmt"]),
        about_record(first, Kind::Head, "How long does each frame last (duration_time)?", &["duration_time"]),
        about_record(
            first,
            Kind::Head,
            "Which colour space and primaries does the video use?",
            &["color_space", "color_primaries"],
        ),
        about_record(
            frames.get(1),
            Kind::Head,
            "What type is the second frame, and when is it shown?",
            &["pict_type", "pts_time"],
        ),
        about_record(
            frames.get(1),
            Kind::Head,
            "What is the coded_picture_number of the second frame?",
            &["pts_time", "coded_picture_number"],
        ),
        about_record(frames.get(2), Kind::Head, "How large is the third frame's packet?", &["pts_time", "pkt_size"]),
        about_record(frames.get(3), Kind::Head, "What type is the fourth frame?", &["pts_time", "pict_type"]),
        about_record(last, Kind::Tail, "At which time is the last frame shown?", &["pts_time"]),
        about_record(
            last,
            Kind::Tail,
            "What type and packet size has the last frame?",
            &["pts_time", "pict_type", "pkt_size"],
        ),
        about_record(
            last,
            Kind::Tail,
            "What is the coded_picture_number of the last frame?",
            &["pts_time", "coded_picture_number"],
        ),
        about_record(last, Kind::Tail, "At which byte does the last frame's packet start?", &["pts_time", "pkt_pos"]),
        about_record(last, Kind::Tail, "What is the pts of the last frame?", &["pts"]),
        about_record(
            from_end(frames, 1),
            Kind::Tail,
            "When is the second-to-last frame shown, and of which type is it?",
            &["pts_time", "pict_type"],
        ),
        about_record(
            from_end(frames, 1),
            Kind::Tail,
            "How large is the second-to-last frame's packet?",
            &["pts_time", "pkt_size"],
        ),
        about_record(from_end(frames, 2), Kind::Tail, "When is the third-to-last frame shown?", &["pts_time"]),
        about_record(
            from_end(frames, 2),
            Kind::Tail,
            "What decode timestamp (pkt_dts_time) has the third-to-last frame?",
            &["pts_time", "pkt_dts_time"],
        ),
    ]
}
