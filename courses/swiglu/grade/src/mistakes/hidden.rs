//! 03-hidden-size's mistakes as candidate values.

/// The hidden size's mistaken versions: (mistake, way of writing it, value).
pub fn hidden_candidates(
    dim: usize,
    multiple_of: usize,
    multiplier: Option<f64>,
) -> Vec<(&'static str, &'static str, usize)> {
    let up = |h: usize| multiple_of * h.div_ceil(multiple_of);
    let scaled = |h: usize| multiplier.map_or(h, |m| (m * h as f64) as usize);
    let two_thirds = (2.0 * (4 * dim) as f64 / 3.0) as usize;
    let rounded = |h: usize| multiplier.map_or(h, |m| (m * h as f64).round() as usize);
    vec![
        ("hidden-no-two-thirds", "four-dim", up(scaled(4 * dim))),
        ("hidden-rounded-down", "down", multiple_of * (scaled(two_thirds) / multiple_of)),
        ("hidden-multiplier-after-rounding", "after", scaled(up(two_thirds))),
        ("hidden-two-thirds-rounded", "divided-first", up(scaled(2 * dim / 3 * 4))),
        ("hidden-two-thirds-rounded", "nearest", up(scaled((8.0 * dim as f64 / 3.0).round() as usize))),
        ("hidden-always-bumps", "plus-one", (scaled(two_thirds) / multiple_of + 1) * multiple_of),
        ("hidden-multiplier-rounded", "round", up(rounded(two_thirds))),
        ("hidden-multiplier-before-two-thirds", "on-four-dim", up(2 * scaled(4 * dim) / 3)),
        ("hidden-two-thirds-rounded", "thirds-then-doubled", up(scaled(4 * dim / 3 * 2))),
        ("hidden-zero-width", "raised-to-one", up(scaled(two_thirds).max(1))),
        (
            "hidden-multiplier-rounded",
            "ceil",
            up(multiplier.map_or(two_thirds, |m| (m * two_thirds as f64).ceil() as usize)),
        ),
        (
            "hidden-multiplier-in-f32",
            "f32",
            up(multiplier.map_or(two_thirds, |m| (m as f32 * two_thirds as f32) as usize)),
        ),
    ]
}
