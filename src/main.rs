//! The `leontief` command line: parse the flags, run the subcommand (`leontief::commands`),
//! write its output once. See `leontief --help`.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use leontief::commands::Cli;

fn main() -> ExitCode {
    let outcome = Cli::parse().command.run();
    let mut code = 0;
    if let Some(err) = &outcome.error {
        eprintln!("error: {err}");
        code = err.exit_code();
    }
    // Output is produced whole and written once, so a failure never leaves half an answer.
    if !outcome.stdout.is_empty() {
        let mut out = std::io::stdout().lock();
        if out
            .write_all(outcome.stdout.as_bytes())
            .and_then(|()| out.flush())
            .is_err()
        {
            return ExitCode::from(1);
        }
    }
    // A streamed answer: its work is done, only writing remains.
    if let Some(mut stream) = outcome.stream {
        let mut out = std::io::stdout().lock();
        let written = stream(&mut out);
        // The process ends here: the answer's structures (a million exact numbers for a
        // large instance) go back to the system at exit, not freed one allocation at a time.
        std::mem::forget(stream);
        if written.is_err() {
            return ExitCode::from(1);
        }
    }
    ExitCode::from(code as u8)
}
