//! [`name_enum!`](crate::name_enum): the one declaration of the enums whose variants are
//! names (mechanisms, policies, rules, properties, metrics, ...).

/// Declares an enum whose variants are names: parsed from, displayed as and listed by their
/// kebab-case names (strum's `EnumString`, `Display`, `IntoStaticStr`, `VariantArray` and
/// `VariantNames`), and `Debug`, `Clone`, `Copy`, `PartialEq`, `Eq`, `Hash`.
///
/// Each enum gets `name(self) -> &'static str`, its variant's name.
///
/// The attributes written before `enum` are kept: docs, further derives, `#[non_exhaustive]`,
/// and `#[strum(parse_err_ty = …, parse_err_fn = …)]` for an error of its own when a name is
/// unknown; so are the variants' (docs, `#[default]`, `#[strum(serialize = …)]` for a name
/// of another form). A first attribute `#[unknown(field, what)]` makes an unknown name the
/// [`SolverError`](crate::SolverError) `field: unknown what "x" (expected a, b or c)`
/// ([`registry::unknown_name`](crate::registry::unknown_name)). The crate using it depends on
/// `strum`, whose derives it names.
///
/// ```
/// leontief_solver::name_enum! {
///     /// A colour.
///     pub enum Colour {
///         /// Light red.
///         LightRed,
///         /// Blue.
///         Blue,
///     }
/// }
/// use strum::VariantNames;
/// assert_eq!("light-red".parse::<Colour>(), Ok(Colour::LightRed));
/// assert_eq!(Colour::Blue.to_string(), "blue");
/// assert_eq!(Colour::Blue.name(), "blue");
/// assert_eq!(Colour::VARIANTS, ["light-red", "blue"]);
///
/// leontief_solver::name_enum! {
///     #[unknown("--shape", "shape")]
///     /// A shape.
///     pub enum Shape {
///         /// A circle.
///         Circle,
///         /// A square.
///         Square,
///     }
/// }
/// assert_eq!(
///     "cube".parse::<Shape>().unwrap_err().to_string(),
///     "--shape: unknown shape \"cube\" (expected circle or square)"
/// );
/// ```
#[macro_export]
macro_rules! name_enum {
    (
        #[unknown($field:expr, $what:expr)]
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $($(#[$variant_meta:meta])* $variant:ident),* $(,)?
        }
    ) => {
        $crate::name_enum! {
            #[strum(parse_err_ty = $crate::SolverError, parse_err_fn = Self::unknown)]
            $(#[$meta])*
            $vis enum $name {
                $($(#[$variant_meta])* $variant,)*
            }
        }

        impl $name {
            /// The error of parsing an unknown name.
            fn unknown(text: &str) -> $crate::SolverError {
                $crate::registry::unknown_name::<Self>($field, $what, text)
            }
        }
    };
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $($(#[$variant_meta:meta])* $variant:ident),* $(,)?
        }
    ) => {
        // The derives first: the strum attributes below are their helpers.
        #[derive(
            Debug,
            Clone,
            Copy,
            PartialEq,
            Eq,
            Hash,
            ::strum::EnumString,
            ::strum::Display,
            ::strum::IntoStaticStr,
            ::strum::VariantArray,
            ::strum::VariantNames,
        )]
        #[strum(serialize_all = "kebab-case")]
        $(#[$meta])*
        $vis enum $name {
            $($(#[$variant_meta])* $variant,)*
        }

        impl $name {
            /// The name: the variant's, in kebab case (or as its `#[strum(serialize)]` gives).
            $vis fn name(self) -> &'static str {
                self.into()
            }
        }
    };
}
