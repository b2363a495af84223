//! What an answer will take, known before it is found: a route refuses a request whose
//! answer could not fit in the server's memory limit at once, rather than finding out as
//! the engine builds it.

use sokuc::Instance;

/// At least how many bytes one solution of `instance` takes as the enumeration's JSON line,
/// where the instance alone says (`None` where its answers are about as large as its text,
/// which the request's size limit bounds): an OPB or CNF answer's `model` lists every
/// declared variable, `1,-2,3,...`.
pub(super) fn solution_bytes(instance: &Instance) -> Option<u64> {
    instance
        .declared_variables()
        .map(|n| digits_up_to(u64::from(n)) + u64::from(n))
}

/// The decimal digits of 1, 2, ..., `n` together.
fn digits_up_to(n: u64) -> u64 {
    let mut total = 0;
    let mut low = 1u64;
    let mut width = 1;
    while low <= n {
        let high = low.saturating_mul(10).saturating_sub(1).min(n);
        total += (high - low + 1) * width;
        low = low.saturating_mul(10);
        width += 1;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_counted_by_width() {
        assert_eq!(digits_up_to(0), 0);
        assert_eq!(digits_up_to(9), 9);
        assert_eq!(digits_up_to(10), 11);
        assert_eq!(digits_up_to(123), 9 + 180 + 24 * 3);
        let direct: u64 = (1..=54_321u64).map(|i| i.to_string().len() as u64).sum();
        assert_eq!(digits_up_to(54_321), direct);
        // What a 20-byte file declares: a model line of about 270 MB.
        let each = solution_bytes(&Instance::parse("cnf", "x.cnf", "p cnf 33554432 0\n").unwrap()).unwrap();
        assert!(each > 250_000_000, "{each}");
        assert!(solution_bytes(&Instance::icosoku("1,5,11,10,7,12,9,2,6,8,4,3").unwrap()).is_none());
    }
}
