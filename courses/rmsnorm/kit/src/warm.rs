//! Instantiates, once, inside the kit, the generic code that every exercise file uses: the array
//! operations the given pieces use for each element type (never the pieces themselves: an exercise's
//! program holds only the pieces it is given, see `reference`), and the replies of its calls (the ndarray operations every
//! course's exercises use are instantiated in `tutor_subject`). Debug
//! builds share generic instances across crates, so a re-check then compiles only the learner's
//! own code (measured: a warm build 0.25 s without this, see `bench/speed.sh`). Never called.

use half::{bf16, f16};
use ndarray::{Array1, ArrayD, Axis, IxDyn};

use crate::{Float, NormError};

fn given<T: Float>() {
    let x = ArrayD::<T>::zeros(IxDyn(&[1, 1]));
    let _ = Array1::<f32>::ones(1);
    let _ = x.mapv(T::to_f32);
    let _ = ArrayD::<f32>::zeros(IxDyn(&[1])).mapv(T::from_f32);
    let _ = x.len_of(Axis(0));
}

/// The replies of the course's generic calls, for each element type.
fn replies<T: tutor_subject::wire::Dtype>() {
    use tutor_subject::wire::{decode_all, encode_one};
    let _ = decode_all::<Result<ArrayD<T>, NormError>>(&[]).map(|v| encode_one(&v));
}

/// Referenced by nothing; its body makes the compiler instantiate the code above in this crate.
#[doc(hidden)]
pub fn instantiate() {
    given::<f32>();
    given::<f64>();
    given::<f16>();
    given::<bf16>();
    replies::<f32>();
    replies::<f64>();
    replies::<f16>();
    replies::<bf16>();
}
