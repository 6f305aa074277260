//! [`setters!`](crate::setters): the builder methods that set one field each.

use crate::Rational;

/// Declares builder methods, each setting one field and returning `self`:
/// `name(arg: Type) => field = value;` is `pub fn name(mut self, arg: Type) -> Self`, which
/// sets `self.field = value`. Doc comments written before a line are the method's.
///
/// ```
/// struct Job {
///     name: String,
///     cores: Option<u32>,
/// }
/// impl Job {
///     leontief_solver::setters! {
///         /// Sets the name.
///         name(name: impl Into<String>) => name = name.into();
///         /// Sets the cores.
///         cores(cores: u32) => cores = Some(cores);
///     }
/// }
/// let job = Job { name: String::new(), cores: None }.name("build").cores(4);
/// assert_eq!((job.name.as_str(), job.cores), ("build", Some(4)));
/// ```
#[macro_export]
macro_rules! setters {
    ($($(#[$meta:meta])* $name:ident($arg:ident: $ty:ty) => $field:ident = $value:expr;)*) => {
        $(
            $(#[$meta])*
            pub fn $name(mut self, $arg: $ty) -> Self {
                self.$field = $value;
                self
            }
        )*
    };
}

/// The rationals of a list of numbers, for the setters that take one.
pub(crate) fn rationals(xs: impl IntoIterator<Item = impl Into<Rational>>) -> Vec<Rational> {
    xs.into_iter().map(Into::into).collect()
}
