//! Amounts written with a unit that is not a time: sizes (`1023Mi`, `1.5 GB`, `512KiB`)
//! and shares (`37.5%`), as command-line tools and APIs print them. A field of them is a
//! measure like a field of numbers: it has a largest and a smallest, so "which pod uses the
//! most memory" is answered by the facets. The value shown stays as written; the number is
//! only for comparing, so every size is turned into bytes (binary units by powers of 1024,
//! decimal ones by powers of 1000, as their names say).

/// The longest text read as a quantity.
const MAX_CHARS: usize = 24;

/// The number `s` stands for, in bytes for a size and in per cent for a share; `None` when
/// it is not a number followed by one of those units (a bare number is a number, not a
/// quantity).
pub(crate) fn quantity(s: &str) -> Option<f64> {
    if s.is_empty() || s.len() > MAX_CHARS {
        return None;
    }
    let split = s.find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-')).filter(|&i| i > 0)?;
    let (number, unit) = s.split_at(split);
    let x: f64 = number.parse().ok().filter(|x: &f64| x.is_finite())?;
    let unit = unit.trim_start_matches(' ');
    if unit == "%" {
        return Some(x);
    }
    Some(x * bytes_per(unit)?)
}

/// Bytes per unit: `B`; `K`/`Ki`/`KiB`/`KB`/`kB` and the same for M, G, T, P, E.
fn bytes_per(unit: &str) -> Option<f64> {
    if unit == "B" || unit == "b" {
        return Some(1.0);
    }
    let mut chars = unit.chars();
    let prefix = chars.next()?;
    let power = match prefix.to_ascii_uppercase() {
        'K' => 1,
        'M' => 2,
        'G' => 3,
        'T' => 4,
        'P' => 5,
        'E' => 6,
        _ => return None,
    };
    let rest = chars.as_str();
    // Elasticsearch's `_cat` APIs write every size in lower case (`12.2kb`, `60.4gb`): with
    // its `b`, a lower-case prefix is a size too.
    if prefix.is_ascii_lowercase() && rest == "b" {
        return Some(1000f64.powi(power));
    }
    // Otherwise a lower-case prefix other than `k` is a milli (`m`) or nothing known.
    if prefix.is_ascii_lowercase() && prefix != 'k' {
        return None;
    }
    let base: f64 = match rest {
        "i" | "iB" => 1024.0,
        // Kubernetes and `ls -h` write binary sizes with the prefix alone (`512M`, `1.5G`).
        "" => 1024.0,
        "B" => 1000.0,
        _ => return None,
    };
    Some(base.powi(power))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_compare_across_units() {
        let mi = quantity("1023Mi").unwrap();
        let gi = quantity("1Gi").unwrap();
        assert!(gi > mi);
        assert_eq!(quantity("512KiB"), Some(512.0 * 1024.0));
        assert_eq!(quantity("1.5 GB"), Some(1.5e9));
        assert_eq!(quantity("10kB"), Some(10_000.0));
        assert_eq!(quantity("300B"), Some(300.0));
        assert_eq!(quantity("2G"), Some(2.0 * 1024f64.powi(3)));
        // Lower case, as Elasticsearch writes sizes; a bare `m` stays a milli.
        assert!(quantity("60.4gb").unwrap() > quantity("999.9mb").unwrap());
        assert_eq!(quantity("230b"), Some(230.0));
        assert_eq!(quantity("500m"), None);
    }

    #[test]
    fn shares_are_numbers_in_per_cent() {
        assert_eq!(quantity("37.5%"), Some(37.5));
        assert_eq!(quantity("0 %"), Some(0.0));
    }

    proptest::proptest! {
        /// Any text: no panic, and a quantity is a finite number.
        #[test]
        fn any_text_is_a_finite_quantity_or_none(s in "[0-9.\\- %a-zA-Zé]{0,30}") {
            if let Some(x) = quantity(&s) {
                proptest::prop_assert!(x.is_finite(), "{s:?} -> {x}");
            }
        }
    }

    #[test]
    fn other_text_is_not_a_quantity() {
        for s in ["", "144m", "5ms", "12", "GB", "1.2.3Gi", "12 apples", "3Mx", "e2-standard-4", "v1.2G", "inf%"] {
            assert_eq!(quantity(s), None, "{s}");
        }
    }
}
