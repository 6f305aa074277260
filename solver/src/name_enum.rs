//! [`name_enum!`](crate::name_enum): the one declaration of the enums whose variants are
//! names (mechanisms, policies, rules, properties, metrics, ...).

/// Declares an enum whose variants are names: parsed from, displayed as and listed by their
/// kebab-case names (strum's `EnumString`, `Display`, `IntoStaticStr`, `VariantArray` and
/// `VariantNames`), and `Debug`, `Clone`, `Copy`, `PartialEq`, `Eq`, `Hash`.
///
/// The attributes written before `enum` are kept: docs, further derives, `#[non_exhaustive]`,
/// and `#[strum(parse_err_ty = …, parse_err_fn = …)]` for an error of its own when a name is
/// unknown; so are the variants' (docs, `#[default]`, `#[strum(serialize = …)]` for a name
/// of another form). The crate using it depends on `strum`, whose derives it names.
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
/// assert_eq!(Colour::VARIANTS, ["light-red", "blue"]);
/// ```
#[macro_export]
macro_rules! name_enum {
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
    };
}
