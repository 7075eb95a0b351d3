//! Numbers written for a model to read: `1,412`, `2.1 MB`, `87%`.

/// `1412` → `1,412`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A byte size with one decimal: `812 B`, `4.2 KB`, `2.1 MB`, `1.0 GB` (powers of 1000).
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["KB", "MB", "GB", "TB"];
    if n < 1000 {
        return format!("{n} B");
    }
    let mut value = n as f64 / 1000.0;
    let mut unit = 0;
    while value >= 999.95 && unit < UNITS.len() - 1 {
        value /= 1000.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// A share in whole percent, `part` of `whole`; `0%` when `whole` is zero.
pub(crate) fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "0%".to_owned();
    }
    format!("{}%", (part as f64 * 100.0 / whole as f64).round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1412), "1,412");
        assert_eq!(thousands(1_000_000), "1,000,000");
        assert_eq!(bytes(812), "812 B");
        assert_eq!(bytes(2_100_000), "2.1 MB");
        assert_eq!(bytes(999_999), "1.0 MB");
        assert_eq!(percent(87, 100), "87%");
        assert_eq!(percent(1, 0), "0%");
    }
}
