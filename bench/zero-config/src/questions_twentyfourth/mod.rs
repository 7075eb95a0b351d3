//! The questions asked of the twenty-fourth part of the catalog, in its two halves: the
//! results of MCP servers and of the services behind them (`mcp.rs`), and the output of
//! command-line tools (`cli.rs`). Each half computes its answers from the generated data.

mod cli;
mod mcp;

use serde_json::Value;

use crate::question::Question;

/// Every question about a twenty-fourth-part shape's JSON result; `None` for other shapes.
pub(crate) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    mcp::json_questions(name, v).or_else(|| cli::json_questions(name, v))
}

/// Every question about a twenty-fourth-part shape's text result; `None` for other shapes.
pub(crate) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    mcp::text_questions(name, t).or_else(|| cli::text_questions(name, t))
}

#[cfg(test)]
mod tests {
    use toolshape_fixtures::apis::Split;

    use crate::questions::tests::check_part;

    /// The seeds each shape's questions are checked at.
    const SEEDS: [u64; 3] = [1, 2, 5];

    #[test]
    fn the_twenty_fourth_part_asks_nine_questions_of_every_shape_and_kind_answered_from_the_raw_result() {
        check_part(Split::TwentyFourth, &SEEDS);
    }
}
