//! Which of the learner's functions and methods each exercise's graded program serves, in which
//! element types: `(todo, [(tag, bits)])`, bits `1 << element` (f32 0, f64 1, f16 2, bf16 3; 4: a
//! call that is not generic). Recorded over every learner file of the tests; written by
//! `TUTOR_WRITE_SERVED=1 cargo test --test it served::`, which fails when it is not current.

/// See the module's documentation.
pub const SERVED: &[(u32, &[(u8, u8)])] = &[
    (1, &[(1, 0b01101), (16, 0b00001)]),
    (2, &[(7, 0b01101), (16, 0b00001)]),
    (3, &[(3, 0b10000), (16, 0b00001)]),
    (4, &[(16, 0b01101)]),
    (5, &[(2, 0b00010), (16, 0b00001), (17, 0b01111)]),
];
