//! Instantiates, once, inside this crate, the generic wire code every graded program runs: the
//! encoding and decoding of arrays of the four element types, of parameters of rank 1 and 2, and
//! of the common scalars and lists; and the ndarray operations exercises are written with (sums and
//! means along an axis, an axis put back, broadcasting arithmetic, lanes). Debug builds share generic instances across crates, so a
//! graded program (compiled at every check) reuses these instead of compiling its own (see
//! `bench/speed.sh`, "first check after init"). Never called.

use half::{bf16, f16};
use ndarray::{Array1, Array2, ArrayD, Axis, Ix1, Ix2, IxDyn};

use crate::param::Param;
use crate::wire::{decode_all, encode_one, Decode, Encode, Reader, WireElement};
use crate::Float;

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

/// The ndarray arithmetic of exercise code, for an element type.
fn arithmetic<T: Float + ndarray::ScalarOperand + std::ops::MulAssign + num_traits::FromPrimitive>() {
    let a = ArrayD::<T>::zeros(IxDyn(&[2, 2]));
    let axis = Axis(1);
    let row = Array1::<T>::ones(2);
    let sums = a.sum_axis(axis);
    let _ = a.mean_axis(axis);
    let keep = sums.clone().insert_axis(axis);
    let _ = &a / &keep;
    let _ = &a * &keep;
    let _ = &a * &row;
    let _ = &a - &keep;
    let _ = &keep + T::one();
    let _ = keep.clone() + T::one();
    let _ = keep / T::one();
    let _ = sums.into_shape_with_order(IxDyn(&[2]));
    for lane in a.lanes(axis) {
        let _ = lane.iter().fold(T::zero(), |s, &v| s + v);
    }
    let mut b = a.clone();
    for mut lane in b.lanes_mut(axis) {
        lane *= T::one();
    }
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
    arithmetic::<f32>();
    arithmetic::<f64>();
}
