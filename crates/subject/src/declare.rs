//! A course's calls, declared once: [`course_protocol!`] in the course's kit writes two macros
//! there, `protocol!` (the declaration, handed to a generator) and `graded_main!` (the graded
//! program's `main`). This crate's generator serves the calls in the graded program;
//! `tutor_grade::client!` calls them from tutor's side. No course writes an encoding, a request
//! loop, a handle table or a remote caller. The grammar and a worked example are in
//! `docs/protocol.md`.
//!
//! Every call has an explicit tag (a `u8`, unique within the course, never reused for another
//! meaning), so that a kit and a grader built from different sources fail loudly instead of
//! calling the wrong method. A request is the tag, then the handle (a `u32`) for a call on a
//! handle, then the element type's tag for a call generic over `<T>`, then the arguments in order;
//! the reply is the call's result.

/// Declares a course's calls (in its kit's `lib.rs`; see `docs/protocol.md`):
///
/// ```ignore
/// tutor_subject::course_protocol! {
///     crate;
///     handles { RMSNorm }
///     calls {
///         #[grades(1)] 1 => RMSNorm::new(hidden_size: usize, eps: f32) -> Result<Self, NormError>;
///         #[grades(2)] 2 => RMSNorm.norm<T>(&self, x: &ndarray::ArrayD<T>) -> Result<ndarray::ArrayD<f32>, NormError>;
///         5 => RMSNorm.weight -> Param = get weight;
///         6 => RMSNorm.set_weight(value: ndarray::Array1<f32>) = set weight.value;
///         7 => RMSNorm.clear_grad() = call weight.clear_grad;
///     }
/// }
/// ```
#[macro_export]
macro_rules! course_protocol {
    ($($declaration:tt)*) => {
        $crate::__course_protocol! { ($) $($declaration)* }
    };
}

/// [`course_protocol!`]'s body: `$d` is a `$`, so that the macros it writes can have variables.
#[doc(hidden)]
#[macro_export]
macro_rules! __course_protocol {
    (($d:tt) $kit:ident; $($declaration:tt)*) => {
        #[doc(hidden)]
        pub use $crate as __tutor_subject;

        /// This course's declared calls, handed to a generator: `protocol!(path::to::generator!(args))`
        /// expands to `generator! { [kit] [args] handles { … } calls { … } }`.
        #[macro_export]
        macro_rules! protocol {
            ($d($d generate:ident)::+ ! ($d($d arg:tt)*)) => {
                $d($d generate)::+! { [$d $kit] [$d($d arg)*] $($declaration)* }
            };
        }

        /// The graded program's `main` for one exercise (tutor's harness writes
        /// `tutor_kit::graded_main!(exercise, 2)`): serves this course's calls on the exercise
        /// module's items, with the kit's own answer to TODO `$todo` refusing to run.
        #[macro_export]
        macro_rules! graded_main {
            ($d exercise:ident, $d todo:expr) => {
                $d $kit::__tutor_subject::serve::serve(
                    $d todo,
                    $d $kit::protocol!($d $kit::__tutor_subject::__serve!($d exercise)),
                )
            };
        }

        /// This course's calls served in this process on a module's items (an exercise file
        /// compiled into a test), as a [`Server`](tutor_subject::serve::Server) for an in-process
        /// channel: the same code a graded program runs.
        #[macro_export]
        macro_rules! graded_server {
            ($d exercise:ident) => {
                $d $kit::protocol!($d $kit::__tutor_subject::__serve!($d exercise))
            };
        }
    };
}

/// The server of a declared protocol on an exercise module's items (see [`course_protocol!`]).
#[doc(hidden)]
#[macro_export]
macro_rules! __serve {
    ([$kit:tt] [$exercise:ident] handles { $($handle:ident),* $(,)? } calls { $($calls:tt)* }) => {{
        /// One table per handle type: the values the learner's constructors returned.
        #[allow(non_snake_case)]
        #[derive(Default)]
        struct Handles {
            $($handle: ::std::vec::Vec<$exercise::$handle>,)*
        }

        impl $crate::serve::Server for Handles {
            #[allow(unused_imports, unused_mut, unreachable_code, clippy::let_unit_value, clippy::unit_arg)]
            fn answer(&mut self, request: &[u8]) -> ::std::result::Result<::std::vec::Vec<u8>, $crate::wire::WireError> {
                use $kit::*;
                let handles = self;
                let mut reader = $crate::wire::Reader(request);
                let tag = reader.u8()?;
                let mut writer = $crate::wire::Writer::default();
                $crate::__serve_calls! { [$exercise] handles reader writer tag; $($calls)* }
                ::std::result::Result::Err($crate::wire::WireError(::std::format!("unknown call {tag}")))
            }
        }

        <Handles as ::std::default::Default>::default()
    }};
}

/// One `if tag == N { … }` per declared call.
#[doc(hidden)]
#[macro_export]
macro_rules! __serve_calls {
    ([$($ctx:tt)*] $handles:ident $r:ident $w:ident $tag:ident;) => {};
    // A free function: `exercise::name(args)`.
    ([$exercise:ident] $handles:ident $r:ident $w:ident $tag:ident;
        $(#[grades($todo:literal)])? $n:literal => fn $name:ident $(<$g:ident>)? ($($a:ident : $t:ty),* $(,)?) $(-> $ret:ty)?;
        $($rest:tt)*
    ) => {
        if $tag == $n {
            $crate::__with_dtype!([$($g)?] $r {
                let out $(: $ret)? = $crate::__call!($r [$($todo)?] [$($a: $t),*] $exercise::$name($($a),*));
                $crate::wire::Encode::encode(&out, &mut $w);
                return ::std::result::Result::Ok($w.0);
            })
        }
        $crate::__serve_calls! { [$exercise] $handles $r $w $tag; $($rest)* }
    };
    // A constructor that may fail: `Type::ctor(args) -> Result<Self, E>`; replies with a handle.
    ([$exercise:ident] $handles:ident $r:ident $w:ident $tag:ident;
        $(#[grades($todo:literal)])? $n:literal => $ty:ident :: $ctor:ident ($($a:ident : $t:ty),* $(,)?) -> Result<Self, $e:ty>;
        $($rest:tt)*
    ) => {
        if $tag == $n {
            let built: ::std::result::Result<$exercise::$ty, $e> =
                $crate::__call!($r [$($todo)?] [$($a: $t),*] $exercise::$ty::$ctor($($a),*));
            let out: ::std::result::Result<u32, $e> = built.map(|value| $crate::serve::keep(&mut $handles.$ty, value));
            $crate::wire::Encode::encode(&out, &mut $w);
            return ::std::result::Result::Ok($w.0);
        }
        $crate::__serve_calls! { [$exercise] $handles $r $w $tag; $($rest)* }
    };
    // A constructor: `Type::ctor(args) -> Self`; replies with a handle.
    ([$exercise:ident] $handles:ident $r:ident $w:ident $tag:ident;
        $(#[grades($todo:literal)])? $n:literal => $ty:ident :: $ctor:ident ($($a:ident : $t:ty),* $(,)?) -> Self;
        $($rest:tt)*
    ) => {
        if $tag == $n {
            let built: $exercise::$ty = $crate::__call!($r [$($todo)?] [$($a: $t),*] $exercise::$ty::$ctor($($a),*));
            let out: u32 = $crate::serve::keep(&mut $handles.$ty, built);
            $crate::wire::Encode::encode(&out, &mut $w);
            return ::std::result::Result::Ok($w.0);
        }
        $crate::__serve_calls! { [$exercise] $handles $r $w $tag; $($rest)* }
    };
    // A method, `&self` or `&mut self`: `Type::method(handle, args)`.
    ([$exercise:ident] $handles:ident $r:ident $w:ident $tag:ident;
        $(#[grades($todo:literal)])? $n:literal => $ty:ident . $method:ident $(<$g:ident>)? (& $(mut)? self $(, $a:ident : $t:ty)* $(,)?) $(-> $ret:ty)?;
        $($rest:tt)*
    ) => {
        if $tag == $n {
            let id: u32 = $crate::wire::Decode::decode(&mut $r)?;
            $crate::__with_dtype!([$($g)?] $r {
                let out $(: $ret)? = $crate::__call!($r [$($todo)?] [$($a: $t),*] $exercise::$ty::$method(
                    $crate::serve::handle(&mut $handles.$ty, id, stringify!($ty))?,
                    $($a),*
                ));
                $crate::wire::Encode::encode(&out, &mut $w);
                return ::std::result::Result::Ok($w.0);
            })
        }
        $crate::__serve_calls! { [$exercise] $handles $r $w $tag; $($rest)* }
    };
    // A field read: a clone of `handle.path`.
    ([$exercise:ident] $handles:ident $r:ident $w:ident $tag:ident;
        $n:literal => $ty:ident . $name:ident -> $ret:ty = get $($field:ident).+;
        $($rest:tt)*
    ) => {
        if $tag == $n {
            let id: u32 = $crate::wire::Decode::decode(&mut $r)?;
            $r.end()?;
            let handle = $crate::serve::handle(&mut $handles.$ty, id, stringify!($ty))?;
            let out: $ret = ::std::clone::Clone::clone(&handle $(.$field)+);
            $crate::wire::Encode::encode(&out, &mut $w);
            return ::std::result::Result::Ok($w.0);
        }
        $crate::__serve_calls! { [$exercise] $handles $r $w $tag; $($rest)* }
    };
    // A field write: `handle.path = value`.
    ([$exercise:ident] $handles:ident $r:ident $w:ident $tag:ident;
        $n:literal => $ty:ident . $name:ident ($v:ident : $t:ty) = set $($field:ident).+;
        $($rest:tt)*
    ) => {
        if $tag == $n {
            let id: u32 = $crate::wire::Decode::decode(&mut $r)?;
            let $v: $t = $crate::wire::Decode::decode(&mut $r)?;
            $r.end()?;
            let handle = $crate::serve::handle(&mut $handles.$ty, id, stringify!($ty))?;
            handle $(.$field)+ = $v;
            return ::std::result::Result::Ok($w.0);
        }
        $crate::__serve_calls! { [$exercise] $handles $r $w $tag; $($rest)* }
    };
    // Methods of fields, without arguments, in order: `handle.path.method()` for each path
    // (`weight.clear_grad`, or `gate.weight.clear_grad, up.weight.clear_grad`).
    ([$exercise:ident] $handles:ident $r:ident $w:ident $tag:ident;
        $n:literal => $ty:ident . $name:ident () = call $($($field:ident).+),+;
        $($rest:tt)*
    ) => {
        if $tag == $n {
            let id: u32 = $crate::wire::Decode::decode(&mut $r)?;
            $r.end()?;
            let handle = $crate::serve::handle(&mut $handles.$ty, id, stringify!($ty))?;
            $(handle $(.$field)+ ();)+
            return ::std::result::Result::Ok($w.0);
        }
        $crate::__serve_calls! { [$exercise] $handles $r $w $tag; $($rest)* }
    };
}

/// Decodes a call's arguments (the rest of the request), then runs `$call` on them, marked as
/// grading `$todo` while it runs.
#[doc(hidden)]
#[macro_export]
macro_rules! __call {
    ($r:ident [$($todo:literal)?] [$($a:ident : $t:ty),*] $call:expr) => {{
        $(let mut $a = <<$t as $crate::wire::Arg<'_>>::Owned as $crate::wire::Decode>::decode(&mut $r)?;)*
        $r.end()?;
        $(let $a: $t = $crate::wire::Arg::lend(&mut $a);)*
        let serving = $crate::serve::Serving::start($crate::__or_zero!($($todo)?));
        let out = $call;
        drop(serving);
        out
    }};
}

/// Runs `$body` with `$g` standing for the element type the request names (the next byte), or
/// as it is for a call that is not generic.
#[doc(hidden)]
#[macro_export]
macro_rules! __with_dtype {
    ([] $r:ident $body:block) => {
        $body
    };
    ([$g:ident] $r:ident $body:block) => {
        match $r.u8()? {
            0 => {
                #[allow(dead_code)]
                type $g = f32;
                $body
            }
            1 => {
                #[allow(dead_code)]
                type $g = f64;
                $body
            }
            2 => {
                #[allow(dead_code)]
                type $g = $crate::half::f16;
                $body
            }
            3 => {
                #[allow(dead_code)]
                type $g = $crate::half::bf16;
                $body
            }
            other => {
                return ::std::result::Result::Err($crate::wire::WireError(::std::format!("element type {other}")));
            }
        }
    };
}

/// The TODO a call grades, or 0.
#[doc(hidden)]
#[macro_export]
macro_rules! __or_zero {
    () => {
        0
    };
    ($todo:literal) => {
        $todo
    };
}
