//! `folio-desktop [FOLDER]`: opens Folio's window, on FOLDER when one is given.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() -> std::process::ExitCode {
    match folio_desktop::run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("folio-desktop: {message}");
            std::process::ExitCode::FAILURE
        }
    }
}
