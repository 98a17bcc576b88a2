//! tutor's side of a course's declared calls: [`client!`](crate::client!) writes, from the
//! declaration in the course's kit, one typed caller per call (free functions on a `Subject`,
//! constructors and methods on a handle type per learner type), all over one [`Channel`]. Checks
//! reach a graded program through tutor's runner; tests reach an exercise compiled into them
//! through [`InProcess`], which serves the same generated code in the same process: one call path.

use std::cell::RefCell;

use tutor_subject::serve::{respond, Server};
use tutor_subject::wire::{decode_all, Decode, Writer};

use crate::fault::{call_described, Channel};

/// A value the learner's code built in the graded program (a layer), as tutor holds it: which
/// table entry, in which program.
#[derive(Clone, Copy)]
pub struct Handle<'c> {
    /// The channel to the program that holds it.
    pub channel: &'c dyn Channel,
    /// Its index in its type's table there.
    pub id: u32,
    /// The program that built it: a call on it after that program ended raises
    /// [`Fault::Ended`](crate::Fault::Ended) instead of asking a fresh one.
    pub generation: u64,
}

impl Handle<'_> {
    /// Sends a request about this value and decodes the reply as an `R`.
    pub fn call<R: Decode>(&self, request: &Writer) -> R {
        call(self.channel, Some(self.generation), request).0
    }

    /// [`Handle::call`], where a panic of the learner's code names the call ([`described`]).
    pub fn call_described<R: Decode>(&self, request: &Writer, describe: &dyn Fn() -> String) -> R {
        described(self.channel, Some(self.generation), request, describe).0
    }

    /// Sends a request about this value whose answer is `()`, without waiting for the reply
    /// ([`Channel::defer`]).
    pub fn defer(&self, request: &Writer) {
        self.channel.defer(Some(self.generation), &request.0);
    }
}

/// Sends `request` over `channel` and decodes the reply as an `R` (see [`call_decoded`] for what
/// a panic, a refusal or an unreadable reply raise), with the generation of the program that
/// answered.
pub fn call<R: Decode>(channel: &dyn Channel, owner: Option<u64>, request: &Writer) -> (R, u64) {
    call_described(channel, owner, &request.0, decode_all::<R>, None)
}

/// [`call`], where a panic of the learner's code says which call it was in: `describe` writes the
/// call and its arguments' shapes ([`crate::shown::describe`]), only when it panicked.
pub fn described<R: Decode>(
    channel: &dyn Channel,
    owner: Option<u64>,
    request: &Writer,
    describe: &dyn Fn() -> String,
) -> (R, u64) {
    call_described(channel, owner, &request.0, decode_all::<R>, Some(describe))
}

/// A graded program in this very process: a declared protocol's server (a kit's
/// `graded_server!(module)`) behind a [`Channel`]. A panic of the learner's code comes back as it
/// does from a graded program; nothing is confined, and no TODO is under test (a kit's own
/// answers run), so tests use it for what the code computes, and the built binary for the rest.
pub struct InProcess {
    server: RefCell<Box<dyn Server>>,
}

impl InProcess {
    /// A channel to `server`.
    pub fn new(server: impl Server + 'static) -> Self {
        InProcess { server: RefCell::new(Box::new(server)) }
    }

    /// A channel to a boxed `server` (a table of fixtures of several courses holds them so).
    pub fn boxed(server: Box<dyn Server>) -> Self {
        InProcess { server: RefCell::new(server) }
    }
}

impl Channel for InProcess {
    fn call(&self, _owner: Option<u64>, request: &[u8]) -> (Vec<u8>, u64) {
        let envelope = respond(&mut **self.server.borrow_mut(), request);
        (envelope.encode(), 0)
    }

    fn discard(&self) {}
}

/// The client of a course's declared calls, in a module of the course's grading crate:
/// `tutor_kit::protocol!(tutor_grade::client!(pub mod subject));` writes `subject::Subject` (the
/// free functions, as methods) and one handle type per declared handle (its constructors and
/// methods), named as the learner's types are. See `docs/protocol.md`.
#[macro_export]
macro_rules! client {
    ([$kit:tt] [$vis:vis mod $module:ident] handles { $($handle:ident),* $(,)? } calls { $($calls:tt)* }) => {
        /// The learner's code as tutor calls it (generated from the course's declared calls).
        $vis mod $module {
            // Its constructors take what the learner's take, however many.
            #![allow(unused_imports, clippy::needless_lifetimes, clippy::unused_unit, clippy::too_many_arguments)]
            use $kit::*;

            /// The graded program: its free functions, and where its values are built.
            #[derive(Clone, Copy)]
            pub struct Subject<'c> {
                /// The channel to the program.
                pub channel: &'c dyn $crate::Channel,
            }

            impl<'c> Subject<'c> {
                /// The program behind `channel`.
                pub fn new(channel: &'c dyn $crate::Channel) -> Self {
                    Subject { channel }
                }
            }

            $(
                /// A value of the learner's type of this name, held by the graded program.
                #[derive(Clone, Copy)]
                pub struct $handle<'c> {
                    /// Where it is.
                    pub handle: $crate::client::Handle<'c>,
                }
            )*

            $crate::__client_calls! { $($calls)* }
        }
    };
}

/// One caller per declared call.
#[doc(hidden)]
#[macro_export]
macro_rules! __client_calls {
    () => {};
    (
        $(#[grades($todo:literal)])? $n:literal => fn $name:ident $(<$g:ident>)? ($($a:ident : $t:ty),* $(,)?) $(-> $ret:ty)?;
        $($rest:tt)*
    ) => {
        impl<'c> Subject<'c> {
            #[doc = concat!("`", stringify!($name), "` in the learner's code (call ", stringify!($n), ").")]
            pub fn $name $(<$g: $crate::tutor_subject::wire::Dtype>)? (&self, $($a: $t),*) $(-> $ret)? {
                $crate::served::note($n, $crate::__element_tag!($($g)?));
                let mut w = $crate::tutor_subject::wire::Writer::default();
                w.u8($n);
                $(w.u8(<$g as $crate::tutor_subject::wire::WireElement>::TAG);)?
                $($crate::tutor_subject::wire::Encode::encode(&$a, &mut w);)*
                let describe = || $crate::__client_describe!((stringify!($name)) $($a)*);
                $crate::client::described(self.channel, None, &w, &describe).0
            }
        }
        $crate::__client_calls! { $($rest)* }
    };
    (
        $(#[grades($todo:literal)])? $n:literal => $ty:ident :: $ctor:ident ($($a:ident : $t:ty),* $(,)?) -> Result<Self, $e:ty>;
        $($rest:tt)*
    ) => {
        impl<'c> $ty<'c> {
            #[doc = concat!("`", stringify!($ty), "::", stringify!($ctor), "` in the learner's code (call ", stringify!($n), ").")]
            pub fn $ctor(subject: &Subject<'c>, $($a: $t),*) -> ::std::result::Result<Self, $e> {
                let mut w = $crate::tutor_subject::wire::Writer::default();
                w.u8($n);
                $($crate::tutor_subject::wire::Encode::encode(&$a, &mut w);)*
                let channel = subject.channel;
                let describe = || $crate::__client_describe!((concat!(stringify!($ty), "::", stringify!($ctor))) $($a)*);
                let (reply, generation) =
                    $crate::client::described::<::std::result::Result<u32, $e>>(channel, None, &w, &describe);
                reply.map(|id| $ty { handle: $crate::client::Handle { channel, id, generation } })
            }
        }
        $crate::__client_calls! { $($rest)* }
    };
    (
        $(#[grades($todo:literal)])? $n:literal => $ty:ident :: $ctor:ident ($($a:ident : $t:ty),* $(,)?) -> Self;
        $($rest:tt)*
    ) => {
        impl<'c> $ty<'c> {
            #[doc = concat!("`", stringify!($ty), "::", stringify!($ctor), "` in the learner's code (call ", stringify!($n), ").")]
            pub fn $ctor(subject: &Subject<'c>, $($a: $t),*) -> Self {
                let mut w = $crate::tutor_subject::wire::Writer::default();
                w.u8($n);
                $($crate::tutor_subject::wire::Encode::encode(&$a, &mut w);)*
                let channel = subject.channel;
                let describe = || $crate::__client_describe!((concat!(stringify!($ty), "::", stringify!($ctor))) $($a)*);
                let (id, generation) = $crate::client::described::<u32>(channel, None, &w, &describe);
                $ty { handle: $crate::client::Handle { channel, id, generation } }
            }
        }
        $crate::__client_calls! { $($rest)* }
    };
    (
        $(#[grades($todo:literal)])? $n:literal => $ty:ident . $method:ident $(<$g:ident>)? (&mut self $(, $a:ident : $t:ty)* $(,)?) $(-> $ret:ty)?;
        $($rest:tt)*
    ) => {
        impl<'c> $ty<'c> {
            #[doc = concat!("`", stringify!($method), "` on the learner's value (call ", stringify!($n), ").")]
            pub fn $method $(<$g: $crate::tutor_subject::wire::Dtype>)? (&mut self, $($a: $t),*) $(-> $ret)? {
                $crate::served::note($n, $crate::__element_tag!($($g)?));
                $crate::__client_method!(self $n [$($g)?] $($a)* => (concat!(stringify!($ty), "::", stringify!($method))))
            }
        }
        $crate::__client_calls! { $($rest)* }
    };
    (
        $(#[grades($todo:literal)])? $n:literal => $ty:ident . $method:ident $(<$g:ident>)? (&self $(, $a:ident : $t:ty)* $(,)?) $(-> $ret:ty)?;
        $($rest:tt)*
    ) => {
        impl<'c> $ty<'c> {
            #[doc = concat!("`", stringify!($method), "` on the learner's value (call ", stringify!($n), ").")]
            pub fn $method $(<$g: $crate::tutor_subject::wire::Dtype>)? (&self, $($a: $t),*) $(-> $ret)? {
                $crate::served::note($n, $crate::__element_tag!($($g)?));
                $crate::__client_method!(self $n [$($g)?] $($a)* => (concat!(stringify!($ty), "::", stringify!($method))))
            }
        }
        $crate::__client_calls! { $($rest)* }
    };
    (
        $n:literal => $ty:ident . $name:ident -> $ret:ty = get $($field:ident).+;
        $($rest:tt)*
    ) => {
        impl<'c> $ty<'c> {
            #[doc = concat!("A copy of the learner's `", stringify!($($field).+), "` (call ", stringify!($n), ").")]
            pub fn $name(&self) -> $ret {
                $crate::__client_method!(self $n [])
            }
        }
        $crate::__client_calls! { $($rest)* }
    };
    (
        $n:literal => $ty:ident . $name:ident ($v:ident : $t:ty) = set $($field:ident).+;
        $($rest:tt)*
    ) => {
        impl<'c> $ty<'c> {
            #[doc = concat!("Sets the learner's `", stringify!($($field).+), "` (call ", stringify!($n), ").")]
            pub fn $name(&mut self, $v: $t) {
                $crate::__client_method!(self $n [] $v => defer)
            }
        }
        $crate::__client_calls! { $($rest)* }
    };
    (
        $n:literal => $ty:ident . $name:ident () = call $($($field:ident).+),+;
        $($rest:tt)*
    ) => {
        impl<'c> $ty<'c> {
            #[doc = concat!("Calls the learner's ", $("`", stringify!($($field).+), "()` ",)+ "(call ", stringify!($n), ").")]
            pub fn $name(&mut self) {
                $crate::__client_method!(self $n [] => defer)
            }
        }
        $crate::__client_calls! { $($rest)* }
    };
}

/// The body of a call on a handle: tag, handle, element type, arguments; `=> defer` for a call
/// whose answer is `()` (a setter), sent without waiting for its reply; `=> (name)` for a call
/// of the learner's method, whose panic names it with its arguments.
#[doc(hidden)]
#[macro_export]
macro_rules! __client_method {
    ($self:ident $n:literal [$($g:ident)?] $($a:ident)* $(=> $send:tt)?) => {{
        let mut w = $crate::tutor_subject::wire::Writer::default();
        w.u8($n);
        w.u32($self.handle.id);
        $(w.u8(<$g as $crate::tutor_subject::wire::WireElement>::TAG);)?
        $($crate::tutor_subject::wire::Encode::encode(&$a, &mut w);)*
        $crate::__client_send!($self w [$($a)*] $($send)?)
    }};
}

/// A call that waits for its reply, one deferred, or one whose panic names it.
#[doc(hidden)]
#[macro_export]
macro_rules! __client_send {
    ($self:ident $w:ident [$($a:ident)*]) => {
        $self.handle.call(&$w)
    };
    ($self:ident $w:ident [$($a:ident)*] defer) => {
        $self.handle.defer(&$w)
    };
    ($self:ident $w:ident [$($a:ident)*] ($name:expr)) => {{
        let describe = || $crate::__client_describe!(($name) $($a)*);
        $self.handle.call_described(&$w, &describe)
    }};
}

/// A call's description, from its name and its arguments (see [`crate::shown`]).
#[doc(hidden)]
#[macro_export]
macro_rules! __client_describe {
    (($name:expr) $($a:ident)*) => {
        $crate::shown::describe($name, &[$((stringify!($a), &$a as &dyn $crate::shown::Shown)),*])
    };
}

/// The element tag a call notes ([`crate::served::note`]): its type parameter's wire tag, or
/// [`UNTYPED`](crate::served::UNTYPED) for a call that is not generic.
#[doc(hidden)]
#[macro_export]
macro_rules! __element_tag {
    () => {
        $crate::served::UNTYPED
    };
    ($g:ident) => {
        <$g as $crate::tutor_subject::wire::WireElement>::TAG
    };
}
