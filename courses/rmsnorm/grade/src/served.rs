//! Which of the learner's functions and methods each exercise's graded program serves, in which
//! element types: `(todo, [(tag, bits)])`, bits `1 << element` (f32 0, f64 1, f16 2, bf16 3; 4: a
//! call that is not generic). Recorded over every learner file of the tests; written by
//! `TUTOR_WRITE_SERVED=1 cargo test --test it served::`, which fails when it is not current.

/// See the module's documentation.
pub const SERVED: &[(u32, &[(u8, u8)])] = &[
    (1, &[(2, 0b00001), (3, 0b00001), (4, 0b00001)]),
    (2, &[(2, 0b01101), (3, 0b00001), (4, 0b00001)]),
    (3, &[(2, 0b00001), (3, 0b01111), (4, 0b00001)]),
    (4, &[(2, 0b00001), (3, 0b00011), (4, 0b01111)]),
];
