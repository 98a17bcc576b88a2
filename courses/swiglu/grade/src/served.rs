//! Written by `tests/it/served.rs`: see `tutor_grade::Course::served`.

/// What each exercise's graded program serves.
pub const SERVED: &[(u32, &[(u8, u8)])] = &[
    (1, &[(1, 0b01101), (16, 0b00001)]),
    (2, &[(7, 0b01101), (16, 0b00001)]),
    (3, &[(3, 0b10000), (16, 0b00001)]),
    (4, &[(16, 0b01101)]),
    (5, &[(2, 0b00010), (16, 0b00001), (17, 0b01111)]),
];
