//! placeholder
pub use tutor_kit;
tutor_kit::protocol!(tutor_grade::client!(pub mod subject));
