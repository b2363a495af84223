//! The counts widen instead of wrapping.

use super::*;
use crate::model::Variant;

/// A count type that overflows at once, to drive the widening.
impl Tally for u8 {
    fn small(&self) -> Option<u128> {
        Some(u128::from(*self))
    }
    fn big(&self) -> BigUint {
        BigUint::from(*self)
    }
    fn one() -> Self {
        1
    }
    fn add(&mut self, other: &Self) -> bool {
        self.checked_add(*other).map(|s| *self = s).is_some()
    }
}

/// The n-gonal bipyramid with every tile (0,1,2): the apexes need n, the ring 4 each.
fn bipyramid(n: usize) -> Instance {
    let mut names = vec!["top".to_string(), "bottom".to_string()];
    names.extend((0..n).map(|i| format!("r{i}")));
    let ring = |i: usize| names[2 + i % n].clone();
    let mut faces = Vec::new();
    for i in 0..n {
        faces.push(vec![names[0].clone(), ring(i + 1), ring(i)]);
        faces.push(vec![names[1].clone(), ring(i), ring(i + 1)]);
    }
    let mut caps = vec![n as u64, n as u64];
    caps.extend(std::iter::repeat_n(4, n));
    Instance {
        source: "test".into(),
        variant: Variant::new("bipyramid", names, &faces).unwrap(),
        capacities: caps,
        tiles: vec![[0, 1, 2]; 2 * n],
        fixed: Vec::new(),
    }
}

#[test]
fn overflowing_counts_are_widened_not_wrapped() {
    let d = Deadline::default();
    // Small: the u8 counts overflow and the layers run again in u128.
    let i = bipyramid(14);
    let plain = count(&i, u64::MAX, &d, &Progress::default()).unwrap();
    let narrow = count_with::<u8>(&i, u64::MAX, &d, &Progress::default()).unwrap();
    assert!(!plain.widened && narrow.widened, "{plain:?} {narrow:?}");
    assert_eq!(narrow.count, plain.count);
    // Large: only 3^82 > 2^127 bounds the partial counts, so wider means BigUint.
    let i = bipyramid(41);
    let plain = count(&i, u64::MAX, &d, &Progress::default()).unwrap();
    let narrow = count_with::<u8>(&i, u64::MAX, &d, &Progress::default()).unwrap();
    assert!(!plain.widened && narrow.widened, "{plain:?} {narrow:?}");
    assert_eq!(narrow.count, plain.count);
}

#[test]
fn a_state_is_charged_by_the_types_its_layers_hold() {
    // A slot (key, count, control byte) times 3.5: the free eighth, the doubling, and the
    // old and new slots while the table being filled grows.
    assert_eq!(bytes_per_state::<u64, u64>(), 60);
    assert_eq!(bytes_per_state::<u128, u64>(), 116);
    assert_eq!(bytes_per_state::<u128, u128>(), 116);
    assert!(bytes_per_state::<u64, BigUint>() > bytes_per_state::<u64, u128>());
    // Past the limit the count stops, and says what each state was charged.
    let i = bipyramid(14);
    let d = Deadline::default();
    match count(&i, 60 * 50, &d, &Progress::default()) {
        Err(Stop::States { limit, per_state, .. }) => assert_eq!((limit, per_state), (50, 60)),
        other => panic!("{other:?}"),
    }
}
