//! The `zaochka` binary: see [`zaochka::cli`].

fn main() -> std::process::ExitCode {
    zaochka::cli::main()
}
