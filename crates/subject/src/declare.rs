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

        $crate::__instantiate_answers! { [$kit] $($declaration)* }

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
/// It only picks the call: each arm hands [`answer`](crate::answer::answer) a closure that lends
/// the decoded arguments to the learner's item, so that the code compiled in the learner's crate
/// at every check stays small.
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
                let tag = $crate::__try!(reader.u8());
                $crate::__serve_calls! { [$exercise] handles reader tag; $($calls)* }
                ::std::result::Result::Err($crate::answer::unknown_call(tag))
            }
        }

        <Handles as ::std::default::Default>::default()
    }};
}

/// One `if tag == N { … }` per declared call.
#[doc(hidden)]
#[macro_export]
macro_rules! __serve_calls {
    ([$($ctx:tt)*] $handles:ident $r:ident $tag:ident;) => {};
    // A free function: `exercise::name(args)`.
    ([$exercise:ident] $handles:ident $r:ident $tag:ident;
        $(#[grades($todo:literal)])? $n:literal => fn $name:ident $(<$g:ident $(in [$($element:ident)*])?>)? ($($a:ident : $t:ty),* $(,)?) $(-> $ret:ty)?;
        $($rest:tt)*
    ) => {
        if $tag == $n {
            $crate::__with_dtype!([$($g $([$($element)*])?)?] $r {
                return $crate::__answer!($r [$($todo)?] [$($a: $t),*] {
                    let out $(: $ret)? = $exercise::$name($($a),*);
                    out
                });
            })
        }
        $crate::__serve_calls! { [$exercise] $handles $r $tag; $($rest)* }
    };
    // A constructor that may fail: `Type::ctor(args) -> Result<Self, E>`; replies with a handle.
    ([$exercise:ident] $handles:ident $r:ident $tag:ident;
        $(#[grades($todo:literal)])? $n:literal => $ty:ident :: $ctor:ident ($($a:ident : $t:ty),* $(,)?) -> Result<Self, $e:ty>;
        $($rest:tt)*
    ) => {
        if $tag == $n {
            return $crate::__answer!($r [$($todo)?] [$($a: $t),*] {
                let built: ::std::result::Result<$exercise::$ty, $e> = $exercise::$ty::$ctor($($a),*);
                let out: ::std::result::Result<u32, $e> = match built {
                    ::std::result::Result::Ok(value) => ::std::result::Result::Ok($crate::answer::keep(&mut $handles.$ty, value)),
                    ::std::result::Result::Err(error) => ::std::result::Result::Err(error),
                };
                out
            });
        }
        $crate::__serve_calls! { [$exercise] $handles $r $tag; $($rest)* }
    };
    // A constructor: `Type::ctor(args) -> Self`; replies with a handle.
    ([$exercise:ident] $handles:ident $r:ident $tag:ident;
        $(#[grades($todo:literal)])? $n:literal => $ty:ident :: $ctor:ident ($($a:ident : $t:ty),* $(,)?) -> Self;
        $($rest:tt)*
    ) => {
        if $tag == $n {
            return $crate::__answer!($r [$($todo)?] [$($a: $t),*] {
                let built: $exercise::$ty = $exercise::$ty::$ctor($($a),*);
                let out: u32 = $crate::answer::keep(&mut $handles.$ty, built);
                out
            });
        }
        $crate::__serve_calls! { [$exercise] $handles $r $tag; $($rest)* }
    };
    // A method, `&self` or `&mut self`: `Type::method(handle, args)`.
    ([$exercise:ident] $handles:ident $r:ident $tag:ident;
        $(#[grades($todo:literal)])? $n:literal => $ty:ident . $method:ident $(<$g:ident $(in [$($element:ident)*])?>)? (& $(mut)? self $(, $a:ident : $t:ty)* $(,)?) $(-> $ret:ty)?;
        $($rest:tt)*
    ) => {
        if $tag == $n {
            let index = $crate::__try!($crate::answer::handle(&mut $r, $handles.$ty.len(), stringify!($ty)));
            let value = &mut $handles.$ty[index];
            $crate::__with_dtype!([$($g $([$($element)*])?)?] $r {
                return $crate::__answer!($r [$($todo)?] [$($a: $t),*] {
                    let out $(: $ret)? = $exercise::$ty::$method(value, $($a),*);
                    out
                });
            })
        }
        $crate::__serve_calls! { [$exercise] $handles $r $tag; $($rest)* }
    };
    // A field read: a clone of `handle.path`.
    ([$exercise:ident] $handles:ident $r:ident $tag:ident;
        $n:literal => $ty:ident . $name:ident -> $ret:ty = get $($field:ident).+;
        $($rest:tt)*
    ) => {
        if $tag == $n {
            let index = $crate::__try!($crate::answer::handle(&mut $r, $handles.$ty.len(), stringify!($ty)));
            let value = &mut $handles.$ty[index];
            return $crate::__answer!($r [] [] {
                let out: $ret = ::std::clone::Clone::clone(&value $(.$field)+);
                out
            });
        }
        $crate::__serve_calls! { [$exercise] $handles $r $tag; $($rest)* }
    };
    // A field write: `handle.path = value`.
    ([$exercise:ident] $handles:ident $r:ident $tag:ident;
        $n:literal => $ty:ident . $name:ident ($v:ident : $t:ty) = set $($field:ident).+;
        $($rest:tt)*
    ) => {
        if $tag == $n {
            let index = $crate::__try!($crate::answer::handle(&mut $r, $handles.$ty.len(), stringify!($ty)));
            let value = &mut $handles.$ty[index];
            return $crate::__answer!($r [] [$v: $t] {
                value $(.$field)+ = $v;
            });
        }
        $crate::__serve_calls! { [$exercise] $handles $r $tag; $($rest)* }
    };
    // Methods of fields, without arguments, in order: `handle.path.method()` for each path
    // (`weight.clear_grad`, or `gate.weight.clear_grad, up.weight.clear_grad`).
    ([$exercise:ident] $handles:ident $r:ident $tag:ident;
        $n:literal => $ty:ident . $name:ident () = call $($($field:ident).+),+;
        $($rest:tt)*
    ) => {
        if $tag == $n {
            let index = $crate::__try!($crate::answer::handle(&mut $r, $handles.$ty.len(), stringify!($ty)));
            let value = &mut $handles.$ty[index];
            return $crate::__answer!($r [] [] {
                $(value $(.$field)+ ();)+
            });
        }
        $crate::__serve_calls! { [$exercise] $handles $r $tag; $($rest)* }
    };
}

/// Answers a call (see [`answer`](crate::answer::answer)): `$body` runs on the arguments decoded
/// from the rest of the request (`&X` lent, the rest by value), marked as grading `$todo`.
#[doc(hidden)]
#[macro_export]
macro_rules! __answer {
    ($r:ident [$($todo:literal)?] [$($a:ident : $t:ty),*] $body:block) => {
        $crate::answer::answer::<($(<$t as $crate::wire::Arg<'_>>::Owned,)*), _>(
            &mut $r,
            $crate::__or_zero!($($todo)?),
            &mut |arguments| {
                let ($($a,)*) = arguments;
                $(let $a: $t = $crate::wire::Arg::lend($a);)*
                $body
            },
        )
    };
}

/// Runs `$body` with `$g` standing for the element type the request names (the next byte), or
/// as it is for a call that is not generic. A call declared `<T in [f32 f16]>` (as tutor's
/// harness writes an exercise's server: see `src/runner/served.rs`) is answered for those element
/// types alone, so that the learner's item is compiled for no other; another is refused.
#[doc(hidden)]
#[macro_export]
macro_rules! __with_dtype {
    ([] $r:ident $body:block) => {
        $body
    };
    ([$g:ident [$($element:ident)*]] $r:ident $body:block) => {
        match $crate::__try!($r.u8()) {
            $(
                $crate::__element!(tag $element) => {
                    #[allow(dead_code)]
                    type $g = $crate::__element!(type $element);
                    $body
                }
            )*
            other => {
                return ::std::result::Result::Err($crate::answer::unknown_element(other));
            }
        }
    };
    ([$g:ident] $r:ident $body:block) => {
        match $crate::__try!($r.u8()) {
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
                return ::std::result::Result::Err($crate::answer::unknown_element(other));
            }
        }
    };
}

/// An element type named in a declaration's `<T in [...]>`: its wire tag (a pattern) or its type.
#[doc(hidden)]
#[macro_export]
macro_rules! __element {
    (tag f32) => {
        0
    };
    (tag f64) => {
        1
    };
    (tag f16) => {
        2
    };
    (tag bf16) => {
        3
    };
    (type f32) => {
        f32
    };
    (type f64) => {
        f64
    };
    (type f16) => {
        $crate::half::f16
    };
    (type bf16) => {
        $crate::half::bf16
    };
}

/// `$result`'s value, or a return with its error: a `?` without the conversion, which is less code
/// to compile in every graded program.
#[doc(hidden)]
#[macro_export]
macro_rules! __try {
    ($result:expr) => {
        match $result {
            ::std::result::Result::Ok(value) => value,
            ::std::result::Result::Err(error) => return ::std::result::Result::Err(error),
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
