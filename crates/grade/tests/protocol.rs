//! A course's declared calls end to end: the declaration (as a kit writes it), the server the
//! graded program runs (here in process), and the client tutor's checks call, over every shape of
//! call the grammar has: free functions generic over the element type and of plain scalars,
//! constructors that may fail, `&self` / `&mut self` methods, field reads and writes, a field's
//! method, the course's error, and panics, refusals and dtype dispatch.

use ndarray::{array, Array2, ArrayD, Ix2};
use tutor_grade::{run_guarded, Fault, InProcess};
use tutor_subject::half::{bf16, f16};
use tutor_subject::{Float, Param};

tutor_subject::wire_enum! {
    /// The demo course's error.
    #[derive(Debug, Clone, PartialEq)]
    pub enum DemoError {
        /// A zero width.
        ZeroWidth = 0,
        /// A bad scale, with the value.
        BadScale(f32) = 1,
        /// An input of another width.
        WidthMismatch { expected: usize, found: usize } = 2,
    }
}

impl From<tutor_subject::GradShapeMismatch> for DemoError {
    fn from(e: tutor_subject::GradShapeMismatch) -> Self {
        DemoError::WidthMismatch { expected: e.expected.iter().product(), found: e.found.iter().product() }
    }
}

tutor_subject::course_protocol! {
    crate;
    handles { Linear }
    calls {
        #[grades(1)] 1 => fn double<T>(x: &ndarray::ArrayD<T>) -> ndarray::ArrayD<T>;
        2 => fn round_up(n: usize, multiple: usize, factor: Option<f32>) -> usize;
        3 => fn boom() -> u8;
        #[grades(2)] 4 => Linear::new(in_features: usize, out_features: usize) -> Result<Self, DemoError>;
        5 => Linear::square(width: usize) -> Self;
        6 => Linear.forward<T>(&self, x: &ndarray::ArrayD<T>) -> Result<ndarray::ArrayD<T>, DemoError>;
        7 => Linear.backward(&mut self, x: &ndarray::Array2<f32>, g: &ndarray::Array2<f32>) -> Result<(), DemoError>;
        8 => Linear.weight -> tutor_subject::Param<ndarray::Ix2> = get weight;
        9 => Linear.set_weight(value: ndarray::Array2<f32>) = set weight.value;
        10 => Linear.clear_grad() = call weight.clear_grad, weight.clear_grad;
        11 => Linear.scale -> f32 = get scale;
        12 => fn digits(a: u8, b: u16, c: u32, d: u64, e: bool, f: String) -> String;
    }
}

/// What a learner's exercise file would hold.
mod learner {
    use super::DemoError;
    use ndarray::{Array2, ArrayD, Ix2};
    use tutor_subject::{Float, Param};

    pub fn double<T: Float>(x: &ArrayD<T>) -> ArrayD<T> {
        x.mapv(|v| T::from_f32(v.to_f32() * 2.0))
    }

    pub fn round_up(n: usize, multiple: usize, factor: Option<f32>) -> usize {
        let n = factor.map_or(n, |f| (f * n as f32) as usize);
        n.div_ceil(multiple) * multiple
    }

    pub fn digits(a: u8, b: u16, c: u32, d: u64, e: bool, f: String) -> String {
        format!("{a}{b}{c}{d}{}{f}", u8::from(e))
    }

    pub fn boom() -> u8 {
        panic!("boom at the learner's")
    }

    pub struct Linear {
        pub weight: Param<Ix2>,
        pub scale: f32,
    }

    impl Linear {
        pub fn new(in_features: usize, out_features: usize) -> Result<Self, DemoError> {
            if in_features == 0 {
                return Err(DemoError::ZeroWidth);
            }
            Ok(Linear { weight: Param::trainable(Array2::ones((out_features, in_features))), scale: 0.5 })
        }

        pub fn square(width: usize) -> Self {
            Linear { weight: Param::frozen(Array2::eye(width)), scale: 1.0 }
        }

        pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, DemoError> {
            let x = x.mapv(T::to_f32).into_dimensionality::<Ix2>().map_err(|_| DemoError::BadScale(-1.0))?;
            if x.ncols() != self.weight.shape()[1] {
                return Err(DemoError::WidthMismatch { expected: self.weight.shape()[1], found: x.ncols() });
            }
            Ok(x.dot(&self.weight.value.t()).mapv(T::from_f32).into_dyn())
        }

        pub fn backward(&mut self, x: &Array2<f32>, g: &Array2<f32>) -> Result<(), DemoError> {
            Ok(self.weight.accumulate_grad(&g.t().dot(x))?)
        }
    }
}

// The client, from the same declaration, as a course's grading crate writes it.
protocol!(tutor_grade::client!(mod subject));

fn channel() -> InProcess {
    // What a kit's `graded_server!(learner)` expands to (a crate may not name its own generated
    // macros by path; a kit's dependents do).
    InProcess::new(protocol!(tutor_subject::__serve!(learner)))
}

#[test]
fn generic_calls_run_the_instance_of_the_arrays_element_type() {
    let channel = channel();
    let subject = subject::Subject::new(&channel);
    let x = array![[1.5f32, -2.0]].into_dyn();
    assert_eq!(subject.double(&x), array![[3.0f32, -4.0]].into_dyn());
    let halves = x.mapv(f16::from_f32);
    assert_eq!(subject.double(&halves), array![[3.0f32, -4.0]].into_dyn().mapv(f16::from_f32));
    let brains = x.mapv(bf16::from_f32);
    assert_eq!(subject.double(&brains).mapv(bf16::to_f32), array![[3.0f32, -4.0]].into_dyn());
    assert_eq!(subject.double(&x.mapv(f64::from)), array![[3.0, -4.0]].into_dyn());
    assert_eq!(subject.round_up(11, 4, None), 12);
    assert_eq!(subject.round_up(10, 8, Some(1.3)), 16);
}

#[test]
fn a_call_gets_its_six_arguments_in_order() {
    let channel = channel();
    let subject = subject::Subject::new(&channel);
    assert_eq!(subject.digits(1, 2, 3, 4, true, "6".into()), "123416");
}

#[test]
fn handles_hold_the_learners_values_and_errors_come_back_typed() {
    let channel = channel();
    let subject = subject::Subject::new(&channel);
    assert_eq!(subject::Linear::new(&subject, 0, 3).err(), Some(DemoError::ZeroWidth));
    let mut linear = subject::Linear::new(&subject, 2, 3).expect("built");
    let eye = subject::Linear::square(&subject, 2);
    // A failed constructor keeps nothing: handles count the values built.
    assert_eq!((linear.handle.id, eye.handle.id), (0, 1));
    assert_eq!(linear.scale(), 0.5);
    let weight: Param<Ix2> = linear.weight();
    assert_eq!((weight.shape(), weight.requires_grad, weight.grad.is_none()), (&[3, 2][..], true, true));
    assert!(!eye.weight().requires_grad);
    linear.set_weight(array![[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]);
    let x = array![[2.0f32, 3.0]].into_dyn();
    assert_eq!(linear.forward(&x), Ok(array![[2.0f32, 3.0, 5.0]].into_dyn()));
    let wide = ArrayD::<f32>::zeros(ndarray::IxDyn(&[1, 5]));
    assert_eq!(linear.forward(&wide), Err(DemoError::WidthMismatch { expected: 2, found: 5 }));
    let (x2, g): (Array2<f32>, Array2<f32>) = (array![[1.0, 2.0]], array![[1.0, 0.0, -1.0]]);
    linear.backward(&x2, &g).expect("accumulated");
    linear.backward(&x2, &g).expect("accumulated");
    assert_eq!(linear.weight().grad, Some(array![[2.0, 4.0], [0.0, 0.0], [-2.0, -4.0]]));
    assert_eq!(linear.backward(&x2, &array![[1.0]]), Err(DemoError::WidthMismatch { expected: 6, found: 2 }));
    linear.clear_grad();
    assert_eq!(linear.weight().grad, None);
}

#[test]
fn a_panic_a_refusal_and_an_unknown_handle_are_faults_not_answers() {
    tutor_grade::outcome::install_quiet_panic_hook();
    let channel = channel();
    let subject = subject::Subject::new(&channel);
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| subject.boom()));
    let fault = caught.expect_err("a panic").downcast::<Fault>().expect("a fault");
    assert!(matches!(*fault, Fault::Panicked { ref message, .. } if message == "boom at the learner's"), "{fault:?}");
    assert!(matches!(*fault, Fault::Panicked { call: Some(ref call), .. } if call == "boom()"), "{fault:?}");
    // A panic says which call it was in, with its arguments' shapes (issue 32: a `grad_out` of a
    // shape the code mishandles).
    let mut linear = subject::Linear::new(&subject, 2, 3).expect("built");
    let (x, g): (Array2<f32>, Array2<f32>) = (Array2::zeros((2, 2)), Array2::zeros((1, 3)));
    let (status, failure) = run_guarded(|| {
        let _ = linear.backward(&x, &g);
        Ok(())
    });
    assert_eq!(status, tutor_grade::report::Status::Failed);
    let message = failure.expect("a failure").message;
    assert!(message.en.contains("\nin the call Linear::backward(x: f32 [2, 2], g: f32 [1, 3])"), "{}", message.en);
    assert!(message.zh.contains("\n出错的调用：Linear::backward(x: f32 [2, 2], g: f32 [1, 3])"), "{}", message.zh);
    let (status, failure) = run_guarded(|| {
        let forged = subject::Linear { handle: tutor_grade::Handle { channel: &channel, id: 9, generation: 0 } };
        forged.scale();
        Ok(())
    });
    assert_eq!(status, tutor_grade::report::Status::Failed);
    assert!(failure.expect("a failure").message.en.contains("there is no Linear 9"));
    // A request the server does not know.
    let (reply, _) = tutor_grade::Channel::call(&channel, None, &[200]);
    let envelope = tutor_subject::serve::Envelope::decode(&reply).expect("an envelope");
    assert_eq!(envelope, tutor_subject::serve::Envelope::Refused("malformed message: unknown call 200".into()));
    // An array of another element type than asked for is unreadable, not a wrong answer.
    let (reply, _) = tutor_grade::Channel::call(&channel, None, &[1, 9]);
    assert!(matches!(tutor_subject::serve::Envelope::decode(&reply), Ok(tutor_subject::serve::Envelope::Refused(_))));
    let _ = <f32 as Float>::NAME;
}
