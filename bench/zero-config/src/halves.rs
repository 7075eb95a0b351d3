//! A part written in two halves, `mcp` (results of MCP servers and the services behind
//! them) and `cli` (the output of command-line tools): its two question functions, each
//! asking the halves in turn, and the part-wide test of its questions at seeds 1, 2 and 5.
//! Each such part's `mod.rs` declares its halves and calls [`two_halves!`] with its
//! [`Split`](toolshape_fixtures::apis::Split).

/// The question functions and the part-wide test of a part of two halves, `mcp` and `cli`.
macro_rules! two_halves {
    ($split:ident) => {
        /// Every question about one of this part's JSON results; `None` for other shapes.
        pub(crate) fn json_questions(name: &str, v: &serde_json::Value) -> Option<Vec<crate::question::Question>> {
            mcp::json_questions(name, v).or_else(|| cli::json_questions(name, v))
        }

        /// Every question about one of this part's text results; `None` for other shapes.
        pub(crate) fn text_questions(name: &str, t: &str) -> Option<Vec<crate::question::Question>> {
            mcp::text_questions(name, t).or_else(|| cli::text_questions(name, t))
        }

        #[cfg(test)]
        mod part_tests {
            /// The seeds each shape's questions are checked at.
            const SEEDS: [u64; 3] = [1, 2, 5];

            #[test]
            fn the_part_asks_nine_questions_of_every_shape_and_kind_answered_from_the_raw_result() {
                crate::questions::tests::check_part(toolshape_fixtures::apis::Split::$split, &SEEDS);
            }
        }
    };
}
