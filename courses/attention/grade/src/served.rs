//! Which of the learner's functions and methods each exercise's graded program serves, in which
//! element types: `(todo, [(tag, bits)])`, bits `1 << element` (f32 0, f64 1, f16 2, bf16 3; 4: a
//! call that is not generic). Recorded over every learner file of the tests; written by
//! `TUTOR_WRITE_SERVED=1 cargo test --test it served::`, which fails when it is not current.

/// See the module's documentation.
pub const SERVED: &[(u32, &[(u8, u8)])] = &[
    (1, &[(1, 0b10000), (2, 0b01101)]),
    (2, &[(3, 0b01101), (4, 0b01101)]),
    (3, &[(5, 0b01101)]),
    (4, &[(6, 0b00001), (14, 0b01101)]),
    (5, &[(15, 0b01101)]),
    (6, &[(16, 0b10000), (17, 0b10000)]),
];
