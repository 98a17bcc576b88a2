//! Written by `tests/it/served.rs`: see `tutor_grade::Course::served`.

/// What each exercise's graded program serves.
pub const SERVED: &[(u32, &[(u8, u8)])] = &[
    (1, &[(1, 0b10000), (2, 0b01101)]),
    (2, &[(3, 0b01101), (4, 0b01101)]),
    (3, &[(5, 0b01101)]),
    (4, &[(6, 0b00001), (14, 0b01101)]),
    (5, &[(15, 0b01101)]),
    (6, &[(16, 0b10000), (17, 0b10000)]),
];
