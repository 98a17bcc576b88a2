//! The tensor errors every course's API has, written once: [`TensorError`] with its sentences,
//! and [`tensor_error!`], which declares a course's error type as its own variants plus these.

use crate::text::Bi;

/// What goes wrong with arrays whatever the layer: a course's error type has these variants
/// besides its own ([`tensor_error!`]), and says them in these words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TensorError {
    /// A 0-d input: there is no feature axis.
    NoAxis,
    /// A size that must be positive was 0; `what` names it.
    ZeroSize {
        /// The size's name (`in_features`, `n_heads`, …).
        what: String,
    },
    /// Two arrays that must have one shape do not.
    ShapeMismatch {
        /// The shape required.
        expected: Vec<usize>,
        /// The shape given.
        found: Vec<usize>,
    },
}

impl TensorError {
    /// What went wrong, in each language.
    pub fn text(&self) -> Bi {
        match self {
            TensorError::NoAxis => Bi::new(
                "输入至少需要一个特征维（收到零维数组）",
                "the input needs at least one (feature) axis; got a 0-d array",
            ),
            TensorError::ZeroSize { what } => {
                Bi::new(format!("{what} 必须为正数，收到 0"), format!("{what} must be positive, got 0"))
            }
            TensorError::ShapeMismatch { expected, found } => Bi::new(
                format!("形状不一致：期望 {expected:?}，收到 {found:?}"),
                format!("shape mismatch: expected {expected:?}, found {found:?}"),
            ),
        }
    }
}

/// The sentence for an input whose last (feature) axis is not the layer's width, `name` being
/// the width's name in the course's API (`hidden_size`, `in_features`).
pub fn last_axis_mismatch(name: &str, expected: usize, found: usize) -> Bi {
    Bi::new(
        format!("输入最后一维的长度为 {found}，应等于 {name} = {expected}"),
        format!("the input's last axis has {found} elements, expected {name} = {expected}"),
    )
}

/// A course's error type: its own variants, each with its wire tag (below 100), and the shared
/// ones of [`TensorError`] (`NoAxis`, `ZeroSize { what }`, `ShapeMismatch { expected, found }`,
/// tags 100 to 102), with its wire encoding ([`wire_enum!`](crate::wire_enum)),
/// `From<GradShapeMismatch>`, `tensor()` (the shared error a value is, if it is one), and what
/// [`course_error!`](crate::course_error) writes. The course writes `text(&self) -> Bi` for its
/// own variants and ends its match with `shared => shared.tensor_text()`.
#[macro_export]
macro_rules! tensor_error {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $(
                $(#[$vmeta:meta])*
                $variant:ident $(($one:ty))? $({ $($field:ident : $ftype:ty),* $(,)? })? = $tag:literal
            ),* $(,)?
        }
    ) => {
        $crate::wire_enum! {
            $(#[$meta])*
            $vis enum $name {
                $(
                    $(#[$vmeta])*
                    $variant $(($one))? $({ $($field : $ftype),* })? = $tag,
                )*
                /// A 0-d input: there is no feature axis.
                NoAxis = 100,
                /// A size that must be positive was 0; `what` names it.
                ZeroSize { what: ::std::string::String } = 101,
                /// Two arrays that must have one shape (an input and its upstream gradient, a
                /// weight and its gradient) do not.
                ShapeMismatch { expected: ::std::vec::Vec<usize>, found: ::std::vec::Vec<usize> } = 102,
            }
        }

        impl ::std::convert::From<$crate::GradShapeMismatch> for $name {
            fn from(e: $crate::GradShapeMismatch) -> Self {
                $name::ShapeMismatch { expected: e.expected, found: e.found }
            }
        }

        impl $name {
            /// The shared tensor error this is, if it is one.
            pub fn tensor(&self) -> ::std::option::Option<$crate::TensorError> {
                match self {
                    $name::NoAxis => ::std::option::Option::Some($crate::TensorError::NoAxis),
                    $name::ZeroSize { what } => {
                        ::std::option::Option::Some($crate::TensorError::ZeroSize { what: what.clone() })
                    }
                    $name::ShapeMismatch { expected, found } => {
                        ::std::option::Option::Some($crate::TensorError::ShapeMismatch {
                            expected: expected.clone(),
                            found: found.clone(),
                        })
                    }
                    #[allow(unreachable_patterns)]
                    _ => ::std::option::Option::None,
                }
            }

            /// The shared error's sentence (empty for a course's own variant, which its own
            /// `text` says).
            pub fn tensor_text(&self) -> $crate::text::Bi {
                self.tensor().map(|e| e.text()).unwrap_or_default()
            }
        }

        $crate::course_error!($name);
    };
}

#[cfg(test)]
mod tests {
    crate::tensor_error! {
        /// A course's error, for the test.
        #[derive(Debug, Clone, PartialEq)]
        pub enum DemoError {
            /// Its own.
            BadScale(f32) = 0,
        }
    }

    impl DemoError {
        fn text(&self) -> crate::text::Bi {
            match self {
                DemoError::BadScale(s) => crate::text::Bi::new(format!("比例 {s}"), format!("scale {s}")),
                shared => shared.tensor_text(),
            }
        }
    }

    #[test]
    fn a_course_error_has_the_shared_variants_their_words_and_its_own() {
        use crate::wire::{decode_all, encode_one};
        let e = DemoError::from(crate::GradShapeMismatch { expected: vec![4], found: vec![5] });
        assert_eq!(e, DemoError::ShapeMismatch { expected: vec![4], found: vec![5] });
        assert_eq!(e.to_string(), "shape mismatch: expected [4], found [5] / 形状不一致：期望 [4]，收到 [5]");
        assert_eq!(DemoError::BadScale(2.0).to_string(), "scale 2 / 比例 2");
        assert_eq!(DemoError::BadScale(2.0).tensor(), None);
        for e in [DemoError::NoAxis, DemoError::ZeroSize { what: "dim".into() }, DemoError::BadScale(0.5), e] {
            assert_eq!(decode_all::<DemoError>(&encode_one(&e)), Ok(e));
        }
    }
}
