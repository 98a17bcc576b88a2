//! [`wire_enum!`]: a course's error type (or any enum) defined with its wire tags, so that it
//! travels in replies without an encoding written by hand.

/// Defines an enum and its [`Encode`](crate::wire::Encode) and [`Decode`](crate::wire::Decode),
/// each variant with an explicit tag. A variant is a unit, holds one value, or has named fields:
///
/// ```
/// tutor_subject::wire_enum! {
///     /// Why a layer could not be built or run.
///     #[derive(Debug, Clone, PartialEq)]
///     pub enum DemoError {
///         /// `dim` was 0.
///         ZeroDim = 0,
///         /// A bad scale.
///         BadScale(f32) = 1,
///         /// An input of the wrong width.
///         DimMismatch { expected: usize, found: usize } = 2,
///     }
/// }
/// use tutor_subject::wire::{decode_all, encode_one};
/// let e = DemoError::DimMismatch { expected: 4, found: 5 };
/// assert_eq!(decode_all::<DemoError>(&encode_one(&e)), Ok(e));
/// ```
#[macro_export]
macro_rules! wire_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $(
                $(#[$vmeta:meta])*
                $variant:ident $(($one:ty))? $({ $($field:ident : $ftype:ty),* $(,)? })? = $tag:literal
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $(
                $(#[$vmeta])*
                $variant $(($one))? $({ $($field: $ftype),* })?,
            )*
        }

        impl $crate::wire::Encode for $name {
            #[allow(unused_variables)]
            fn encode(&self, w: &mut $crate::wire::Writer) {
                match self {
                    $(
                        $name::$variant $(($crate::__bind!(value $one)))? $({ $($field),* })? => {
                            w.u8($tag);
                            $($crate::wire::Encode::encode($crate::__bind!(value $one), w);)?
                            $($($crate::wire::Encode::encode($field, w);)*)?
                        }
                    )*
                }
            }
        }

        impl $crate::wire::Decode for $name {
            fn decode(r: &mut $crate::wire::Reader) -> ::std::result::Result<Self, $crate::wire::WireError> {
                ::std::result::Result::Ok(match r.u8()? {
                    $(
                        $tag => $name::$variant
                            $((<$one as $crate::wire::Decode>::decode(r)?))?
                            $({ $($field: <$ftype as $crate::wire::Decode>::decode(r)?),* })?,
                    )*
                    other => {
                        return ::std::result::Result::Err($crate::wire::WireError(::std::format!(
                            "{} tagged {other}",
                            stringify!($name)
                        )))
                    }
                })
            }
        }
    };
}

/// `$name`, ignoring the type after it: lets a repetition over a variant's type write a binding.
#[doc(hidden)]
#[macro_export]
macro_rules! __bind {
    ($name:ident $ignored:ty) => {
        $name
    };
}

/// What every course's error type says about itself, from its bilingual `text(&self) -> Bi`:
/// `Display` ("English / 中文"), `std::error::Error`, and [`Explain`](crate::text::Explain) (so
/// that tutor's failure texts quote it). `tutor_subject::course_error!(NormError);`
#[macro_export]
macro_rules! course_error {
    ($name:ident) => {
        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                let message = self.text();
                write!(f, "{} / {}", message.en, message.zh)
            }
        }

        impl ::std::error::Error for $name {}

        impl $crate::text::Explain for $name {
            fn explain(&self) -> $crate::text::Bi {
                self.text()
            }
        }
    };
}
