//! The `leontief` command line: parse the flags, run the subcommand (`leontief::commands`),
//! write its output once. See `leontief --help`.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use leontief::commands::{Cli, Printed};

fn main() -> ExitCode {
    let outcome = Cli::parse().command.run();
    let mut code = 0;
    if let Some(err) = &outcome.error {
        eprintln!("error: {err}");
        code = err.exit_code();
    }
    // Output is produced whole and written once, so a failure never leaves half an answer;
    // a streamed answer's work is done, only writing remains.
    let mut out = std::io::stdout().lock();
    let written = match outcome.stdout {
        Printed::Text(text) if text.is_empty() => Ok(()),
        Printed::Text(text) => out.write_all(text.as_bytes()).and_then(|()| out.flush()),
        Printed::Stream(mut stream) => {
            let written = stream(&mut out);
            // The process ends here: the answer's structures (a million exact numbers for a
            // large instance) go back to the system at exit, not freed one allocation at a time.
            std::mem::forget(stream);
            written
        }
    };
    if written.is_err() {
        return ExitCode::from(1);
    }
    ExitCode::from(code as u8)
}
