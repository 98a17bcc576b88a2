//! The kit's side of a declaration: `course_protocol!` also writes, in the kit, a function that
//! instantiates [`answer`](crate::answer::answer) for every declared call and element type. The
//! kit is compiled once; a graded program, compiled at every check, then reuses those instances
//! (debug builds share generic instances across crates) instead of compiling its own.

/// The kit's `__instantiate_answers`: referenced by nothing, it makes the compiler instantiate
/// [`answer`](crate::answer::answer) for every declared call (and element type) in the kit, so
/// that a graded program, compiled at every check, reuses those instances (debug builds share
/// generic instances across crates) instead of compiling its own.
#[doc(hidden)]
#[macro_export]
macro_rules! __instantiate_answers {
    ([$kit:ident] handles { $($handle:ident),* $(,)? } calls { $($calls:tt)* }) => {
        /// Referenced by nothing; see `tutor_subject::__instantiate_answers!`.
        #[doc(hidden)]
        #[allow(unused_imports, clippy::let_unit_value)]
        pub fn __instantiate_answers() {
            use $kit::*;
            $crate::__instantiate_calls! { $($calls)* }
        }
    };
}

/// One instance of [`answer`](crate::answer::answer) per declared call, per element type.
#[doc(hidden)]
#[macro_export]
macro_rules! __instantiate_calls {
    () => {};
    ($(#[grades($todo:literal)])? $n:literal => fn $name:ident $(<$g:ident>)? ($($a:ident : $t:ty),* $(,)?) $(-> $ret:ty)?; $($rest:tt)*) => {
        $crate::__for_dtypes!([$($g)?] { $crate::__instantiate_answer!([$($t),*] [$($ret)?]); });
        $crate::__instantiate_calls! { $($rest)* }
    };
    ($(#[grades($todo:literal)])? $n:literal => $ty:ident :: $ctor:ident ($($a:ident : $t:ty),* $(,)?) -> Result<Self, $e:ty>; $($rest:tt)*) => {
        $crate::__instantiate_answer!([$($t),*] [::std::result::Result<u32, $e>]);
        $crate::__instantiate_calls! { $($rest)* }
    };
    ($(#[grades($todo:literal)])? $n:literal => $ty:ident :: $ctor:ident ($($a:ident : $t:ty),* $(,)?) -> Self; $($rest:tt)*) => {
        $crate::__instantiate_answer!([$($t),*] [u32]);
        $crate::__instantiate_calls! { $($rest)* }
    };
    ($(#[grades($todo:literal)])? $n:literal => $ty:ident . $method:ident $(<$g:ident>)? (& $(mut)? self $(, $a:ident : $t:ty)* $(,)?) $(-> $ret:ty)?; $($rest:tt)*) => {
        $crate::__for_dtypes!([$($g)?] { $crate::__instantiate_answer!([$($t),*] [$($ret)?]); });
        $crate::__instantiate_calls! { $($rest)* }
    };
    ($n:literal => $ty:ident . $name:ident -> $ret:ty = get $($field:ident).+; $($rest:tt)*) => {
        $crate::__instantiate_answer!([] [$ret]);
        $crate::__instantiate_calls! { $($rest)* }
    };
    ($n:literal => $ty:ident . $name:ident ($v:ident : $t:ty) = set $($field:ident).+; $($rest:tt)*) => {
        $crate::__instantiate_answer!([$t] []);
        $crate::__instantiate_calls! { $($rest)* }
    };
    ($n:literal => $ty:ident . $name:ident () = call $($($field:ident).+),+; $($rest:tt)*) => {
        $crate::__instantiate_answer!([] []);
        $crate::__instantiate_calls! { $($rest)* }
    };
}

/// Instantiates [`answer`](crate::answer::answer) for arguments of types `$t` and a result of
/// type `$ret` (none: `()`).
#[doc(hidden)]
#[macro_export]
macro_rules! __instantiate_answer {
    ([$($t:ty),*] []) => {
        $crate::__instantiate_answer!([$($t),*] [()]);
    };
    ([$($t:ty),*] [$ret:ty]) => {
        $(let _ = $crate::answer::lender::<$t>();)*
        let _ = $crate::answer::answer::<($(<$t as $crate::wire::Arg<'_>>::Owned,)*), $ret>(
            &mut $crate::wire::Reader(&[]),
            0,
            &mut |_| ::std::unreachable!(),
        );
    };
}

/// `$body` once for each element type with `$g` standing for it, or once as it is.
#[doc(hidden)]
#[macro_export]
macro_rules! __for_dtypes {
    ([] $body:block) => {
        $body
    };
    ([$g:ident] $body:block) => {{
        #[allow(dead_code)]
        type $g = f32;
        $body
    }
    {
        #[allow(dead_code)]
        type $g = f64;
        $body
    }
    {
        #[allow(dead_code)]
        type $g = $crate::half::f16;
        $body
    }
    {
        #[allow(dead_code)]
        type $g = $crate::half::bf16;
        $body
    }};
}
