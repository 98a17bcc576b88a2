//! Written by `tests/it/served.rs`: see `tutor_grade::Course::served`.

/// What each exercise's graded program serves.
pub const SERVED: &[(u32, &[(u8, u8)])] = &[
    (1, &[(2, 0b00001), (3, 0b00001), (4, 0b00001)]),
    (2, &[(2, 0b01101), (3, 0b00001), (4, 0b00001)]),
    (3, &[(2, 0b00001), (3, 0b01111), (4, 0b00001)]),
    (4, &[(2, 0b00001), (3, 0b00011), (4, 0b01111)]),
];
