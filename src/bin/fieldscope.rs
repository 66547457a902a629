//! The `fieldscope` command-line tool. All logic lives in `fieldscope::cli`.

fn main() {
    let code = fieldscope::cli::run(
        std::env::args_os(),
        &mut std::io::stdout(),
        &mut std::io::stderr(),
    );
    std::process::exit(code);
}
