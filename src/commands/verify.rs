//! `leontief verify`: properties of a mechanism on generated instances, in parallel,
//! deterministic per seed; every summary states the domain its instances were drawn from.

use std::io::Write;

use clap::Args;
use leontief_counterexamples::verify::{verify, VerifyConfig, VerifySummary};
use leontief_solver::properties::Property;
use leontief_solver::registry::Descriptor;
use serde::Serialize;

use crate::cli::CliError;
use crate::commands::flags::{
    Domain, GeneratorFlags, MechanismParser, NameParser, NumberFlags, RunFlags,
};
use crate::commands::{create, one_or_list, to_value, usage};
use crate::output::Numbers;
use crate::workers::{progress, thread_pool};

/// The flags of `leontief verify`.
#[derive(Debug, Clone, Args)]
pub struct VerifyArgs {
    /// The mechanism.
    #[arg(long, default_value = "drf", value_parser = MechanismParser)]
    pub mechanism: &'static Descriptor,
    /// Properties, comma-separated (each verified in turn on the same instances).
    #[arg(long, required = true, value_delimiter = ',', value_parser = NameParser::<Property>::new("property").with_help(Property::description))]
    pub property: Vec<Property>,
    /// Number of generated instances (at least 1).
    #[arg(long, default_value_t = 1000)]
    pub instances: u64,
    /// Witnesses to report per property.
    #[arg(long, default_value_t = 3)]
    pub witnesses: usize,
    /// How instances are drawn.
    #[command(flatten)]
    pub generator: GeneratorFlags,
    /// Threads and output.
    #[command(flatten)]
    pub run: RunFlags,
    /// How numbers are printed.
    #[command(flatten)]
    pub numbers: NumberFlags,
}

/// `verify`'s configuration, validated.
struct Config {
    numbers: Numbers,
    verify: VerifyConfig,
    domain: Domain,
}

fn config(args: &VerifyArgs) -> Result<Config, CliError> {
    if args.instances == 0 {
        return Err(usage("--instances: expected at least 1 instance, found 0"));
    }
    let numbers = args.numbers.numbers()?;
    let domain = args.generator.domain(false)?;
    args.run.check()?;
    let mut verify = VerifyConfig::new(
        args.instances,
        args.generator.seed,
        domain.generator.clone(),
    );
    verify.max_witnesses = args.witnesses;
    Ok(Config {
        numbers,
        verify,
        domain,
    })
}

/// A summary with the domain its instances were drawn from.
#[derive(Serialize)]
struct SummaryDoc<'a> {
    #[serde(flatten)]
    summary: &'a VerifySummary,
    domain: &'a Domain,
}

/// The work of `leontief verify`: what it prints on standard output (empty with `--out`) —
/// the summary as JSON, a list of summaries for several properties — and the one-line
/// tallies it prints on standard error, one per property. When
/// [`crate::workers::with_cancel`]'s flag is set during the run, the result is incomplete
/// (the caller discards it).
pub fn run_with(args: &VerifyArgs) -> Result<(String, Vec<String>), CliError> {
    let mut cfg = config(args)?;
    cfg.verify.cancel = crate::workers::cancel_flag();
    let pool = thread_pool(args.run.threads)?;
    // The output file is created once everything is validated, before the work.
    let file = args.run.out.as_deref().map(create).transpose()?;
    let mech = args.mechanism.build();
    let total = cfg.verify.instances * args.property.len() as u64;
    let bar = progress(Some(total));
    let tick = || bar.inc(1);
    let summaries: Vec<VerifySummary> = pool.install(|| {
        args.property
            .iter()
            .map(|&p| {
                bar.set_message(p.name());
                verify(mech.as_ref(), p, &cfg.verify, &tick)
            })
            .collect()
    });
    bar.finish_and_clear();
    let mut out = Vec::new();
    let mut tallies = Vec::new();
    for summary in &summaries {
        tallies.push(format!(
            "verify: {} of {} on {} instances, {} scenarios: {} violations{} ({})",
            summary.property,
            summary.mechanism,
            summary.instances,
            summary.scenarios,
            summary.violations,
            if summary.error_count > 0 {
                format!(", {} errors", summary.error_count)
            } else {
                String::new()
            },
            cfg.domain.summary(),
        ));
        let domain = &cfg.domain;
        out.push(to_value(&SummaryDoc { summary, domain }));
    }
    let text = one_or_list(out, cfg.numbers);
    if let (Some(mut file), Some(path)) = (file, &args.run.out) {
        file.write_all(text.as_bytes())
            .map_err(|e| CliError::read(path, e))?;
        return Ok((String::new(), tallies));
    }
    Ok((text, tallies))
}
