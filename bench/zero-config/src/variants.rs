//! The variants of the default shaping that the report compares: today's default, and the
//! default with one component turned off at a time, so each component's effect is measured
//! on both halves of the catalog.

use toolshape_shape::{AutoSpec, ShapePlan};

/// One way of shaping results without a mask.
pub(crate) struct Variant {
    pub(crate) name: &'static str,
    pub(crate) about: &'static str,
    pub(crate) plan: fn(usize) -> ShapePlan,
    /// Views keep only an object's top-level members (as `result_read` did before).
    pub(crate) shallow_views: bool,
}

fn default_plan(budget: usize) -> ShapePlan {
    ShapePlan { budget_tokens: budget, ..ShapePlan::default() }
}

fn before(budget: usize) -> ShapePlan {
    ShapePlan { budget_tokens: budget, auto: AutoSpec::OFF, ..ShapePlan::default() }
}

macro_rules! without {
    ($name:ident, $field:ident) => {
        fn $name(budget: usize) -> ShapePlan {
            let mut p = default_plan(budget);
            p.auto.$field = false;
            p
        }
    };
}
without!(no_compact, compact);
without!(no_table, table);
without!(no_facets, facets);
without!(no_outline, outline);
without!(no_enter, enter);
without!(no_tail, tail);
without!(no_index, index);
without!(no_states, states);
without!(no_words, words);

pub(crate) const VARIANTS: &[Variant] = &[
    Variant {
        name: "before",
        about: "the default shaping before this work: whole records, no facets, text by lines, views of top-level members only",
        plan: before,
        shallow_views: true,
    },
    Variant {
        name: "default",
        about: "the default shaping: every component on",
        plan: default_plan,
        shallow_views: false,
    },
    Variant { name: "-compact", about: "the default without compact records", plan: no_compact, shallow_views: false },
    Variant { name: "-table", about: "the default without tables", plan: no_table, shallow_views: false },
    Variant { name: "-facets", about: "the default without facets", plan: no_facets, shallow_views: false },
    Variant { name: "-outline", about: "the default without outlines of text", plan: no_outline, shallow_views: false },
    Variant {
        name: "-enter",
        about: "the default without paging into large fields",
        plan: no_enter,
        shallow_views: false,
    },
    Variant {
        name: "-tail",
        about: "the default without the end of the result in the first read",
        plan: no_tail,
        shallow_views: false,
    },
    Variant {
        name: "-index",
        about: "the default without the index of the records a first read cannot show whole",
        plan: no_index,
        shallow_views: false,
    },
    Variant {
        name: "-states",
        about: "the default without the extremes within each value of a field of few values",
        plan: no_states,
        shallow_views: false,
    },
    Variant {
        name: "-words",
        about: "the default without a text's words counted by the lines that hold them",
        plan: no_words,
        shallow_views: false,
    },
    Variant {
        name: "-deep-views",
        about: "the default with views of top-level members only",
        plan: default_plan,
        shallow_views: true,
    },
];

pub(crate) fn names() -> Vec<&'static str> {
    VARIANTS.iter().map(|v| v.name).collect()
}

pub(crate) fn pick(spec: &str) -> Vec<&'static Variant> {
    if spec == "all" {
        return VARIANTS.iter().collect();
    }
    let wanted: Vec<&str> = spec.split(',').map(str::trim).collect();
    VARIANTS.iter().filter(|v| wanted.contains(&v.name)).collect()
}
