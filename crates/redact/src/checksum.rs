//! Check digits that turn "looks like a card or IBAN" into "is one": Luhn and ISO 7064 mod 97.

/// Luhn check over the ASCII digits of `s`; other characters are skipped.
pub(crate) fn luhn_valid(s: &str) -> bool {
    let mut sum = 0u32;
    let mut double = false;
    let mut digits = 0usize;
    for b in s.bytes().rev() {
        if !b.is_ascii_digit() {
            continue;
        }
        let mut d = u32::from(b - b'0');
        if double {
            d *= 2;
            if d > 9 {
                d -= 9;
            }
        }
        sum += d;
        double = !double;
        digits += 1;
    }
    digits > 0 && sum.is_multiple_of(10)
}

/// Whether the ASCII digits of `s` have a length a card of the network their first digits
/// name can have (ISO/IEC 7812 issuer ranges as the networks publish them): a Mastercard
/// (51–55, 2221–2720) has 16 digits, an American Express (34, 37) 15, a Visa (4) 13, 16 or
/// 19, the others 16 to 19 (Maestro from 12, Diners Club from 14). A Luhn-valid number of
/// another length is an id that passes the check by chance, as one in ten does.
pub(crate) fn card_length_fits(s: &str) -> bool {
    let digits: Vec<u8> = s.bytes().filter(u8::is_ascii_digit).map(|b| b - b'0').collect();
    let n = digits.len();
    let prefix = |k: usize| digits.iter().take(k).fold(0u32, |acc, &d| acc * 10 + u32::from(d));
    let (p2, p4) = (prefix(2), prefix(4));
    let maestro = matches!(p2, 50 | 56..=58) || matches!(p4, 6304 | 6759 | 6761..=6763);
    match digits.first() {
        Some(4) => matches!(n, 13 | 16 | 19),
        Some(5) if (51..=55).contains(&p2) => n == 16,
        Some(2) if (2221..=2720).contains(&p4) => n == 16,
        Some(2) if (2200..=2204).contains(&p4) => (16..=19).contains(&n),
        Some(3) if matches!(p2, 34 | 37) => n == 15,
        Some(3) if (3528..=3589).contains(&p4) => (16..=19).contains(&n),
        Some(3) if matches!(p2, 30 | 36 | 38 | 39) => (14..=19).contains(&n),
        Some(5 | 6) if maestro => (12..=19).contains(&n),
        Some(6) => (16..=19).contains(&n),
        _ => false,
    }
}

/// The length of an IBAN for a country code, per the SWIFT IBAN registry.
///
/// Only listed countries are recognised: knowing the exact length is what lets the detector
/// stop at the right place in spaced-out text without swallowing the next word.
pub(crate) fn iban_length(country: &str) -> Option<usize> {
    let len = match country {
        "NO" => 15,
        "BE" => 16,
        "DK" | "FI" | "FK" | "FO" | "GL" | "NL" | "SD" => 18,
        "MK" | "SI" => 19,
        "AT" | "BA" | "EE" | "KZ" | "LT" | "LU" | "MN" | "XK" => 20,
        "CH" | "HR" | "LI" | "LV" => 21,
        "BG" | "BH" | "CR" | "DE" | "GB" | "GE" | "IE" | "ME" | "RS" | "VA" => 22,
        "AE" | "GI" | "IL" | "IQ" | "OM" | "SO" | "TL" => 23,
        "AD" | "CZ" | "ES" | "MD" | "PK" | "RO" | "SA" | "SE" | "SK" | "TN" | "VG" => 24,
        "LY" | "PT" | "ST" => 25,
        "IS" | "TR" => 26,
        "BI" | "DJ" | "FR" | "GR" | "IT" | "MC" | "MR" | "SM" => 27,
        "AL" | "AZ" | "BY" | "CY" | "DO" | "GT" | "HU" | "LB" | "NI" | "PL" | "SV" => 28,
        "BR" | "EG" | "PS" | "QA" | "UA" => 29,
        "JO" | "KW" | "MU" | "YE" => 30,
        "MT" | "SC" => 31,
        "LC" => 32,
        "RU" => 33,
        _ => return None,
    };
    Some(len)
}

/// ISO 7064 mod 97-10 over an IBAN written without spaces: valid when the remainder is 1.
pub(crate) fn iban_valid(compact: &str) -> bool {
    let bytes = compact.as_bytes();
    if bytes.len() < 5 || !bytes.iter().all(u8::is_ascii_alphanumeric) {
        return false;
    }
    let (head, tail) = bytes.split_at(4);
    let mut rem = 0u32;
    for &b in tail.iter().chain(head) {
        let v = match b {
            b'0'..=b'9' => u32::from(b - b'0'),
            b'A'..=b'Z' => u32::from(b - b'A') + 10,
            b'a'..=b'z' => u32::from(b - b'a') + 10,
            _ => return false,
        };
        rem = if v >= 10 { (rem * 100 + v) % 97 } else { (rem * 10 + v) % 97 };
    }
    rem == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luhn_known_values() {
        assert!(luhn_valid("4111111111111111"));
        assert!(luhn_valid("4111 1111 1111 1111"));
        assert!(luhn_valid("378282246310005"));
        assert!(!luhn_valid("4111111111111112"));
        assert!(!luhn_valid(""));
    }

    #[test]
    fn card_lengths_follow_the_networks() {
        for card in [
            "4111111111111111",
            "4222222222222",
            "5555 5555 5555 4444",
            "2221000000000009",
            "378282246310005",
            "6011111111111117",
            "3530111333300000",
            "30569309025904",
            "6212345678901234567",
            "6759649826438453",
        ] {
            assert!(card_length_fits(card), "{card}");
        }
        // Ids that pass Luhn by chance: a query id (18 digits after 54), a cloud instance
        // id (19 after 52 or 2240), an etag (16 after 34), a 13-digit id after 61.
        for id in
            ["548212764111482801", "5215292222034097481", "2240402967203092501", "3400085025627002", "6120427008800"]
        {
            assert!(!card_length_fits(id), "{id}");
        }
    }

    #[test]
    fn iban_known_values() {
        assert!(iban_valid("DE89370400440532013000"));
        assert!(iban_valid("GB82WEST12345698765432"));
        assert!(iban_valid("NL91ABNA0417164300"));
        assert!(!iban_valid("DE89370400440532013001"));
        assert!(!iban_valid("DE8"));
        assert_eq!(iban_length("DE"), Some(22));
        assert_eq!(iban_length("ZZ"), None);
    }
}
