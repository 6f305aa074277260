//! Reading and writing [`Rational`]s: decimal literals (`2.5`, `1e-4`), fractions (`7/3`),
//! JSON values read exactly from their text, and the reduced `p/q` form they print as.
//!
//! Parsing is where untrusted input arrives, so it bounds what one short text can cost
//! ([`MAX_DECIMAL_EXPONENT`]) and names what was wrong ([`ParseRationalError`]).

use std::fmt;
use std::str::FromStr;

use num_bigint::BigInt;
use num_rational::BigRational;

use super::{Rational, Repr};

/// The largest decimal exponent accepted when parsing (`1e4096`); larger ones would make a
/// denial-of-service out of one short number.
pub const MAX_DECIMAL_EXPONENT: i64 = 4096;

/// Why a text could not be read as a rational number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseRationalError {
    /// The text is empty.
    #[error("empty number")]
    Empty,
    /// The text is not an integer, a decimal literal or a fraction `p/q`.
    #[error("malformed number {0:?}: expected an integer, a decimal such as 2.5 or 1e-4, or a fraction such as 7/3")]
    Malformed(String),
    /// A fraction with denominator zero.
    #[error("division by zero in {0:?}")]
    DivisionByZero(String),
    /// A decimal exponent beyond [`MAX_DECIMAL_EXPONENT`].
    #[error("exponent out of range in {0:?} (at most {MAX_DECIMAL_EXPONENT} in magnitude)")]
    ExponentOutOfRange(String),
}

impl Rational {
    /// Reads a decimal literal exactly: `"12"`, `"-2.5"`, `"1e-4"`, `"6.02E23"`.
    ///
    /// This is how JSON numbers are read: `0.1` is exactly `1/10`.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::Rational;
    /// assert_eq!(Rational::from_decimal_str("1e-4").unwrap().to_string(), "1/10000");
    /// assert_eq!(Rational::from_decimal_str("-2.50").unwrap().to_string(), "-5/2");
    /// ```
    pub fn from_decimal_str(text: &str) -> Result<Rational, ParseRationalError> {
        let malformed = || ParseRationalError::Malformed(text.to_string());
        let s = text.trim();
        if s.is_empty() {
            return Err(ParseRationalError::Empty);
        }
        let (negative, body) = match s.as_bytes()[0] {
            b'-' => (true, &s[1..]),
            b'+' => (false, &s[1..]),
            _ => (false, s),
        };
        let (mantissa, exponent) = match body.find(['e', 'E']) {
            Some(at) => (&body[..at], Some(&body[at + 1..])),
            None => (body, None),
        };
        let (int_part, frac_part) = match mantissa.find('.') {
            Some(at) => (&mantissa[..at], &mantissa[at + 1..]),
            None => (mantissa, ""),
        };
        let all_digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
        if (int_part.is_empty() && frac_part.is_empty())
            || !all_digits(int_part)
            || !all_digits(frac_part)
        {
            return Err(malformed());
        }
        let mut exp: i64 = match exponent {
            None => 0,
            Some(e) => {
                let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
                if digits.is_empty() || !all_digits(digits) {
                    return Err(malformed());
                }
                // JSON allows leading zeros in the exponent (`1e0000001`): count the rest.
                if digits.trim_start_matches('0').len() > 6 {
                    return Err(ParseRationalError::ExponentOutOfRange(text.to_string()));
                }
                e.parse::<i64>().map_err(|_| malformed())?
            }
        };
        exp -= frac_part.len() as i64;
        // Short literals (the usual `12`, `0.37`, `1e-4`) stay on machine words: no big
        // integer, no big gcd.
        let len = (int_part.len() + frac_part.len()) as i64;
        if len <= 36 && (-36..=36 - len).contains(&exp) {
            let mut num: i128 = 0;
            for b in int_part.bytes().chain(frac_part.bytes()) {
                num = num * 10 + i128::from(b - b'0');
            }
            if negative {
                num = -num;
            }
            let scale = 10i128.pow(exp.unsigned_abs() as u32);
            return Ok(if exp >= 0 {
                Rational::small_reduced(num * scale, 1)
            } else {
                Rational::small_reduced(num, scale)
            });
        }
        let digits = format!("{int_part}{frac_part}");
        let digits = digits.trim_start_matches('0');
        if digits.is_empty() {
            return Ok(Rational::ZERO);
        }
        if exp.abs() > MAX_DECIMAL_EXPONENT + digits.len() as i64 {
            return Err(ParseRationalError::ExponentOutOfRange(text.to_string()));
        }
        let mut num: BigInt = digits.parse().map_err(|_| malformed())?;
        if negative {
            num = -num;
        }
        let ten = BigInt::from(10);
        let scale = num_traits::pow(ten, exp.unsigned_abs() as usize);
        let value = if exp >= 0 {
            BigRational::from_integer(num * scale)
        } else {
            BigRational::new(num, scale)
        };
        Ok(Rational::from_reduced_big(value))
    }

    /// Reads a JSON value exactly: a number literal from its text, or a string.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::Rational;
    /// let v: serde_json::Value = serde_json::from_str("0.1").unwrap();
    /// assert_eq!(Rational::from_json(&v).unwrap(), "1/10".parse().unwrap());
    /// ```
    pub fn from_json(value: &serde_json::Value) -> Result<Rational, ParseRationalError> {
        match value {
            // With serde_json's `arbitrary_precision`, to_string() is the literal's own text.
            serde_json::Value::Number(n) => Rational::from_decimal_str(&n.to_string()),
            serde_json::Value::String(s) => s.parse(),
            other => Err(ParseRationalError::Malformed(other.to_string())),
        }
    }
}

impl fmt::Display for Rational {
    /// Reduced `p/q`, or `p` for integers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Small { num, den: 1 } => write!(f, "{num}"),
            Repr::Small { num, den } => write!(f, "{num}/{den}"),
            Repr::Big(b) if b.is_integer() => write!(f, "{}", b.numer()),
            Repr::Big(b) => write!(f, "{}/{}", b.numer(), b.denom()),
        }
    }
}

impl fmt::Debug for Rational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Rational {
    type Err = ParseRationalError;

    /// Reads `"7"`, `"2.5"`, `"1e-4"`, `"7/3"`, `"-7/3"`, `"0.5/3"` (each side of `/` a
    /// decimal literal).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let s = text.trim();
        if s.is_empty() {
            return Err(ParseRationalError::Empty);
        }
        match s.split_once('/') {
            None => Rational::from_decimal_str(s),
            Some((p, q)) => {
                let malformed = |_| ParseRationalError::Malformed(text.to_string());
                let p = Rational::from_decimal_str(p).map_err(malformed)?;
                let q = Rational::from_decimal_str(q).map_err(malformed)?;
                p.checked_div(&q)
                    .ok_or_else(|| ParseRationalError::DivisionByZero(text.to_string()))
            }
        }
    }
}

impl serde::Serialize for Rational {
    /// The reduced `p/q` text (`p` for integers), as a string.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::Rational;
    /// let x: Rational = "6/4".parse().unwrap();
    /// assert_eq!(serde_json::to_string(&x).unwrap(), "\"3/2\"");
    /// ```
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Rational {
    /// From a string (`"7/3"`) or a JSON number read exactly from its text.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        Rational::from_json(&value).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> Rational {
        s.parse().unwrap()
    }

    #[test]
    fn parses_every_documented_form() {
        assert_eq!(r("7"), Rational::from(7));
        assert_eq!(r("2.5"), Rational::new(5, 2).unwrap());
        assert_eq!(r("7/3").to_string(), "7/3");
        assert_eq!(r("-7/3").to_string(), "-7/3");
        assert_eq!(r("1e-4").to_string(), "1/10000");
        assert_eq!(r("0.1").to_string(), "1/10");
        assert_eq!(r("18/2").to_string(), "9");
        assert_eq!(r("1.5E2").to_string(), "150");
        assert_eq!(r("0.000").to_string(), "0");
    }

    #[test]
    fn rejects_malformed_text() {
        for bad in [
            "", "abc", "1/", "/2", "1.2.3", "--1", "1e", "e5", ".", "1/2/3", "0x10",
        ] {
            assert!(bad.parse::<Rational>().is_err(), "{bad:?} was accepted");
        }
        assert_eq!(
            "7/0".parse::<Rational>(),
            Err(ParseRationalError::DivisionByZero("7/0".into()))
        );
        assert!(matches!(
            "1e99999999".parse::<Rational>(),
            Err(ParseRationalError::ExponentOutOfRange(_))
        ));
    }
}
