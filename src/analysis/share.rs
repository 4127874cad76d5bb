//! Sharing an integer cost among parts in proportion to weights, so that
//! the shares add up exactly to the cost: each part gets the whole part of
//! its proportional share, and what rounding left over goes one unit at a
//! time to the parts with the largest remainders (largest-remainder
//! rounding). The one rule every estimated tree and folded stack uses.

use crate::profile::Cost;

/// `value` shared among `weights` in proportion to them; the shares sum
/// to `value` exactly. All zero weights (nothing to go by) share nothing:
/// every share is 0 and the caller keeps the value. Weights of mixed signs
/// (a `cg_diff` column) share by their signed proportions all the same.
pub fn share(value: Cost, weights: &[Cost]) -> Vec<Cost> {
    let sum: i128 = weights.iter().map(|&w| i128::from(w)).sum();
    if sum == 0 || weights.is_empty() {
        return vec![0; weights.len()];
    }
    // With a negative sum the proportions are those of the negated weights.
    let (sum, sign) = if sum < 0 { (-sum, -1) } else { (sum, 1) };
    let value = i128::from(value);
    let mut shares = Vec::with_capacity(weights.len());
    let mut remainders = Vec::with_capacity(weights.len());
    for (i, &w) in weights.iter().enumerate() {
        let scaled = value * i128::from(w) * sign;
        shares.push(scaled.div_euclid(sum));
        remainders.push((scaled.rem_euclid(sum), i));
    }
    let left = value - shares.iter().sum::<i128>();
    // `left` is in 0..len: each floor lost less than one unit.
    remainders.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for &(_, i) in remainders.iter().take(left.max(0) as usize) {
        shares[i] += 1;
    }
    shares
        .into_iter()
        .map(|s| Cost::try_from(s).unwrap_or(if s < 0 { Cost::MIN } else { Cost::MAX }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::share;

    #[test]
    fn shares_add_up_to_the_value() {
        assert_eq!(share(10, &[1, 1, 1]), vec![4, 3, 3]);
        assert_eq!(share(100, &[50, 30, 20]), vec![50, 30, 20]);
        assert_eq!(share(7, &[2, 2, 3]), vec![2, 2, 3]);
        assert_eq!(share(1, &[1, 1]), vec![1, 0]);
        assert_eq!(share(5, &[0, 0]), vec![0, 0]);
        assert_eq!(share(5, &[]), Vec::<i64>::new());
    }

    #[test]
    fn the_largest_remainder_gets_the_unit() {
        // 10 * 1/6 = 1.67, 10 * 5/6 = 8.33: the first has the larger rest.
        assert_eq!(share(10, &[1, 5]), vec![2, 8]);
    }

    #[test]
    fn signed_weights_and_values_keep_the_sum() {
        for (value, weights) in [
            (-10, vec![3, 7]),
            (10, vec![-3, 13]),
            (250, vec![300, 200, -200, -100, 50]),
            (-7, vec![-1, -2, -4]),
        ] {
            let s = share(value, &weights);
            assert_eq!(s.iter().sum::<i64>(), value, "{value} {weights:?} -> {s:?}");
        }
        assert_eq!(share(-7, &[-1, -2, -4]), vec![-1, -2, -4]);
    }

    #[test]
    fn huge_counters_do_not_overflow() {
        let s = share(i64::MAX, &[i64::MAX, i64::MAX]);
        assert_eq!(
            s.iter().map(|&x| i128::from(x)).sum::<i128>(),
            i128::from(i64::MAX)
        );
    }
}
