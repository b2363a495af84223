//! Small pieces of English shared by every message.

/// "1 instance", "2 instances": `n` and the noun in the number it calls for.
pub fn count<N: PartialEq + From<u8> + std::fmt::Display>(n: N, singular: &str, plural: &str) -> String {
    let one = n == N::from(1);
    format!("{n} {}", if one { singular } else { plural })
}

/// [`count`] for nouns that take an -s: "1 cell", "3 cells".
pub fn count_s<N: PartialEq + From<u8> + std::fmt::Display>(n: N, noun: &str) -> String {
    let one = n == N::from(1);
    format!("{n} {noun}{}", if one { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn singular_only_for_one() {
        assert_eq!(count_s(1u32, "instance"), "1 instance");
        assert_eq!(count_s(0u32, "instance"), "0 instances");
        assert_eq!(count_s(2u64, "cell"), "2 cells");
        assert_eq!(count(1u8, "copy", "copies"), "1 copy");
        assert_eq!(count(3u8, "copy", "copies"), "3 copies");
    }
}
