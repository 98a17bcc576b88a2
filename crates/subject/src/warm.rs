//! Instantiates, once, inside this crate, the generic wire code every graded program runs: the
//! encoding and decoding of arrays of the four element types, of parameters of rank 1 and 2, and
//! of the common scalars and lists. Debug builds share generic instances across crates, so a
//! graded program (compiled at every check) reuses these instead of compiling its own (see
//! `bench/speed.sh`, "first check after init"). Never called.

use half::{bf16, f16};
use ndarray::{Array1, Array2, ArrayD, Ix1, Ix2};

use crate::param::Param;
use crate::wire::{decode_all, encode_one, Decode, Encode, Reader, WireElement};

fn round<T: Encode + Decode>() {
    let _ = decode_all::<T>(&[]).map(|v| encode_one(&v));
    let _ = T::decode(&mut Reader(&[]));
    let _ = decode_all::<Option<T>>(&[]).map(|v| encode_one(&v));
}

fn arrays<T: WireElement>() {
    round::<ArrayD<T>>();
    round::<Array1<T>>();
    round::<Array2<T>>();
}

/// Referenced by nothing; its body makes the compiler instantiate the code above in this crate.
#[doc(hidden)]
pub fn instantiate() {
    arrays::<f32>();
    arrays::<f64>();
    arrays::<f16>();
    arrays::<bf16>();
    round::<Param<Ix1>>();
    round::<Param<Ix2>>();
    round::<Vec<usize>>();
    round::<usize>();
    round::<u64>();
    round::<f32>();
    round::<f64>();
    round::<u32>();
    round::<String>();
}
