//! Values on the wire: [`Encode`] and [`Decode`] for the primitives, texts, lists, options,
//! results, tuples, arrays of every supported element type and [`Param`]s, so that a course's
//! declared calls (see [`course_protocol!`](crate::course_protocol)) need no encoding of their
//! own. Arrays travel as raw little-endian bits in logical order; every read is bounded by the
//! bytes left, so a malformed reply is an error, never a panic or a huge allocation.

use half::{bf16, f16};
use ndarray::{Array, ArrayD, Dimension};

pub use crate::frame::{AnyArray, Reader, WireElement, WireError, Writer};
use crate::param::Param;
use crate::Float;

/// A value that can be written on the wire.
pub trait Encode {
    /// Appends the value's wire form.
    fn encode(&self, w: &mut Writer);
}

/// A value that can be read from the wire.
pub trait Decode: Sized {
    /// Reads one value, or says why the bytes are not one.
    fn decode(r: &mut Reader) -> Result<Self, WireError>;
}

/// An element type a declared call can be generic over (`<T>` in the declaration): `f32`, `f64`,
/// `f16` or `bf16`. Its [`WireElement::TAG`] picks the instance the graded program runs.
pub trait Dtype: Float + WireElement {}

impl Dtype for f32 {}
impl Dtype for f64 {}
impl Dtype for f16 {}
impl Dtype for bf16 {}

/// Reads a whole message as one value: every byte must belong to it.
pub fn decode_all<T: Decode>(bytes: &[u8]) -> Result<T, WireError> {
    let mut r = Reader(bytes);
    let value = T::decode(&mut r)?;
    r.end()?;
    Ok(value)
}

/// The wire form of one value.
pub fn encode_one<T: Encode + ?Sized>(value: &T) -> Vec<u8> {
    let mut w = Writer::default();
    value.encode(&mut w);
    w.0
}

impl<T: Encode + ?Sized> Encode for &T {
    fn encode(&self, w: &mut Writer) {
        (**self).encode(w)
    }
}

impl<T: Encode + ?Sized> Encode for &mut T {
    fn encode(&self, w: &mut Writer) {
        (**self).encode(w)
    }
}

macro_rules! bits {
    ($($t:ty),*) => {$(
        impl Encode for $t {
            fn encode(&self, w: &mut Writer) {
                w.0.extend_from_slice(&self.to_le_bytes());
            }
        }
        impl Decode for $t {
            fn decode(r: &mut Reader) -> Result<Self, WireError> {
                let mut raw = [0u8; std::mem::size_of::<$t>()];
                raw.copy_from_slice(r.take(std::mem::size_of::<$t>())?);
                Ok(<$t>::from_le_bytes(raw))
            }
        }
    )*};
}

bits!(u8, u16, u32, u64, i8, i16, i32, i64, f32, f64);

macro_rules! halves {
    ($($t:ty),*) => {$(
        impl Encode for $t {
            fn encode(&self, w: &mut Writer) {
                self.to_bits().encode(w)
            }
        }
        impl Decode for $t {
            fn decode(r: &mut Reader) -> Result<Self, WireError> {
                u16::decode(r).map(<$t>::from_bits)
            }
        }
    )*};
}

halves!(f16, bf16);

impl Encode for usize {
    fn encode(&self, w: &mut Writer) {
        (*self as u64).encode(w)
    }
}

impl Decode for usize {
    fn decode(r: &mut Reader) -> Result<Self, WireError> {
        let v = u64::decode(r)?;
        usize::try_from(v).map_err(|_| WireError(format!("{v} does not fit a usize")))
    }
}

impl Encode for bool {
    fn encode(&self, w: &mut Writer) {
        w.u8(u8::from(*self))
    }
}

impl Decode for bool {
    fn decode(r: &mut Reader) -> Result<Self, WireError> {
        match r.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            other => Err(WireError(format!("a bool of {other}"))),
        }
    }
}

impl Encode for () {
    fn encode(&self, _: &mut Writer) {}
}

impl Decode for () {
    fn decode(_: &mut Reader) -> Result<Self, WireError> {
        Ok(())
    }
}

impl Encode for str {
    fn encode(&self, w: &mut Writer) {
        w.text(self)
    }
}

impl Encode for String {
    fn encode(&self, w: &mut Writer) {
        w.text(self)
    }
}

impl Decode for String {
    fn decode(r: &mut Reader) -> Result<Self, WireError> {
        r.text()
    }
}

impl<T: Encode> Encode for [T] {
    fn encode(&self, w: &mut Writer) {
        w.len(self.len());
        self.iter().for_each(|v| v.encode(w));
    }
}

impl<T: Encode> Encode for Vec<T> {
    fn encode(&self, w: &mut Writer) {
        self.as_slice().encode(w)
    }
}

impl<T: Decode> Decode for Vec<T> {
    fn decode(r: &mut Reader) -> Result<Self, WireError> {
        // Every value takes at least one byte except `()`: bounding the count by the bytes left
        // keeps a forged length from allocating more than the frame holds.
        let n = r.len()?;
        let mut out = Vec::with_capacity(n.min(r.0.len()));
        for _ in 0..n {
            out.push(T::decode(r)?);
        }
        Ok(out)
    }
}

impl<T: Encode> Encode for Option<T> {
    fn encode(&self, w: &mut Writer) {
        match self {
            None => w.u8(0),
            Some(v) => {
                w.u8(1);
                v.encode(w);
            }
        }
    }
}

impl<T: Decode> Decode for Option<T> {
    fn decode(r: &mut Reader) -> Result<Self, WireError> {
        match r.u8()? {
            0 => Ok(None),
            1 => T::decode(r).map(Some),
            other => Err(WireError(format!("an option tagged {other}"))),
        }
    }
}

impl<T: Encode, E: Encode> Encode for Result<T, E> {
    fn encode(&self, w: &mut Writer) {
        match self {
            Ok(v) => {
                w.u8(0);
                v.encode(w);
            }
            Err(e) => {
                w.u8(1);
                e.encode(w);
            }
        }
    }
}

impl<T: Decode, E: Decode> Decode for Result<T, E> {
    fn decode(r: &mut Reader) -> Result<Self, WireError> {
        match r.u8()? {
            0 => T::decode(r).map(Ok),
            1 => E::decode(r).map(Err),
            other => Err(WireError(format!("a result tagged {other}"))),
        }
    }
}

macro_rules! tuples {
    ($(($($name:ident),+)),*) => {$(
        impl<$($name: Encode),+> Encode for ($($name,)+) {
            #[allow(non_snake_case)]
            fn encode(&self, w: &mut Writer) {
                let ($($name,)+) = self;
                $($name.encode(w);)+
            }
        }
        impl<$($name: Decode),+> Decode for ($($name,)+) {
            fn decode(r: &mut Reader) -> Result<Self, WireError> {
                Ok(($($name::decode(r)?,)+))
            }
        }
    )*};
}

tuples!(
    (A),
    (A, B),
    (A, B, C),
    (A, B, C, D),
    (A, B, C, D, E),
    (A, B, C, D, E, F),
    (A, B, C, D, E, F, G),
    (A, B, C, D, E, F, G, H)
);

impl<T: WireElement, D: Dimension> Encode for Array<T, D> {
    fn encode(&self, w: &mut Writer) {
        w.u8(T::TAG);
        w.shape(self.shape());
        // `iter` walks in logical (row-major) order whatever the memory layout.
        self.iter().for_each(|v| v.put(&mut w.0));
    }
}

impl<T: WireElement, D: Dimension> Decode for Array<T, D> {
    fn decode(r: &mut Reader) -> Result<Self, WireError> {
        let tag = r.u8()?;
        if tag != T::TAG {
            return Err(WireError(format!("an array of element type {tag}, expected {}", T::TAG)));
        }
        let shape = r.shape()?;
        let array: ArrayD<T> = r.typed(shape)?;
        array.into_dimensionality::<D>().map_err(|e| WireError(format!("an array of another rank: {e}")))
    }
}

impl Encode for AnyArray {
    fn encode(&self, w: &mut Writer) {
        w.array(self)
    }
}

impl Decode for AnyArray {
    fn decode(r: &mut Reader) -> Result<Self, WireError> {
        r.array()
    }
}

impl<D: Dimension> Encode for Param<D> {
    fn encode(&self, w: &mut Writer) {
        self.value.encode(w);
        self.grad.encode(w);
        self.requires_grad.encode(w);
    }
}

impl<D: Dimension> Decode for Param<D> {
    fn decode(r: &mut Reader) -> Result<Self, WireError> {
        Ok(Param { value: Decode::decode(r)?, grad: Decode::decode(r)?, requires_grad: Decode::decode(r)? })
    }
}

/// How a declared argument is handed to the learner's code: decoded into an owned value first,
/// then lent (`&ArrayD<T>` in the declaration borrows the decoded array) or copied (`usize`).
pub trait Arg<'a>: Sized {
    /// What travels on the wire.
    type Owned: Decode;
    /// The argument, from the decoded value.
    fn lend(owned: &'a mut Self::Owned) -> Self;
}

impl<'a, X: Decode> Arg<'a> for &'a X {
    type Owned = X;
    fn lend(owned: &'a mut X) -> Self {
        owned
    }
}

impl<'a, X: Decode> Arg<'a> for &'a mut X {
    type Owned = X;
    fn lend(owned: &'a mut X) -> Self {
        owned
    }
}

/// Arguments passed by value: decoded, then moved out (a clone for the few that are not `Copy`).
macro_rules! by_value {
    ($($t:ty),*) => {$(
        impl<'a> Arg<'a> for $t {
            type Owned = $t;
            fn lend(owned: &'a mut $t) -> Self {
                owned.clone()
            }
        }
    )*};
}

by_value!(u8, u16, u32, u64, usize, i8, i16, i32, i64, f32, f64, f16, bf16, bool, String);

impl<'a, X: Decode + Clone> Arg<'a> for Option<X> {
    type Owned = Option<X>;
    fn lend(owned: &'a mut Self) -> Self {
        owned.clone()
    }
}

impl<'a, X: Decode + Clone> Arg<'a> for Vec<X> {
    type Owned = Vec<X>;
    fn lend(owned: &'a mut Self) -> Self {
        std::mem::take(owned)
    }
}

impl<'a, T: WireElement, D: Dimension> Arg<'a> for Array<T, D> {
    type Owned = Array<T, D>;
    fn lend(owned: &'a mut Self) -> Self {
        owned.clone()
    }
}

impl<'a, D: Dimension> Arg<'a> for Param<D> {
    type Owned = Param<D>;
    fn lend(owned: &'a mut Self) -> Self {
        owned.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{array, Array1, Array2, Ix2};

    fn round_trip<T: Encode + Decode + PartialEq + std::fmt::Debug>(value: T) {
        assert_eq!(decode_all::<T>(&encode_one(&value)), Ok(value));
    }

    #[test]
    fn every_value_round_trips() {
        round_trip(7u8);
        round_trip(u64::MAX);
        round_trip(-3i64);
        round_trip(4096usize);
        round_trip(true);
        round_trip(String::from("π ≈ 3.14 · 圆周率"));
        round_trip(vec![1.5f32, -0.0, f32::INFINITY]);
        round_trip(Some(1.3f64));
        round_trip(None::<f64>);
        round_trip(Ok::<usize, String>(11008));
        round_trip(Err::<usize, String>("no".into()));
        round_trip((1u32, vec![2usize, 3], Some(false)));
        round_trip(());
        round_trip(array![[1.0f32, 2.0], [3.0, 4.0]]);
        round_trip(array![1.0f64, 2.0].into_dyn());
        round_trip(array![half::f16::from_f32(0.5)].into_dyn());
        round_trip(array![half::bf16::from_f32(-2.0)]);
        round_trip(Param::trainable(Array2::<f32>::ones((2, 3))));
        let mut with_grad = Param::trainable(array![1.0f32, 2.0]);
        with_grad.grad = Some(array![0.5, 0.25]);
        round_trip(with_grad);
        // NaN payloads travel bit for bit.
        let nan = f32::from_bits(0x7fc0_0001);
        // Integer and bool arrays (positions, token ids, masks) travel as the float ones do.
        round_trip(array![[3i64, -1], [i64::MAX, 0]].into_dyn());
        round_trip(array![7i32, -8]);
        round_trip(array![0u32, u32::MAX]);
        round_trip(array![[true, false], [false, true]].into_dyn());
        assert!(decode_all::<Array1<i64>>(&encode_one(&array![1.0f64])).is_err(), "the element type is checked");
        let back: Array1<f32> = decode_all(&encode_one(&array![nan])).unwrap();
        assert_eq!(back[0].to_bits(), nan.to_bits());
        // A transposed view travels in logical order.
        let t = array![[1.0f32, 2.0], [3.0, 4.0]].reversed_axes();
        assert_eq!(decode_all::<Array2<f32>>(&encode_one(&t)), Ok(t));
    }

    #[test]
    fn malformed_bytes_are_errors_never_panics_or_huge_allocations() {
        // A list claiming 2⁶² elements, with nothing behind the count.
        let forged = encode_one(&(1u64 << 62));
        assert!(decode_all::<Vec<u64>>(&forged).is_err());
        assert!(decode_all::<Vec<()>>(&encode_one(&3u64)).is_ok(), "units take no bytes");
        // An array of another element type, or another rank, than the one asked for.
        let floats = encode_one(&array![1.0f32, 2.0]);
        assert!(decode_all::<Array1<f64>>(&floats).is_err());
        assert!(decode_all::<ndarray::Array<f32, Ix2>>(&floats).is_err());
        // Tags out of range, values cut short, bytes left over.
        assert!(decode_all::<bool>(&[2]).is_err());
        assert!(decode_all::<Option<u8>>(&[7, 1]).is_err());
        assert!(decode_all::<Result<u8, u8>>(&[9, 1]).is_err());
        assert!(decode_all::<u32>(&[1, 2]).is_err());
        assert!(decode_all::<u8>(&[1, 2]).is_err());
        // Text that is not UTF-8 is read with replacement characters (a message stays readable).
        let text = decode_all::<String>(&[3, 0, 0, 0, 0, 0, 0, 0, 0xff, b'o', b'k']).unwrap();
        assert_eq!(text, "\u{fffd}ok");
    }
}
