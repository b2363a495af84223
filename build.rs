//! Start-up time: with the `cadical` feature, link the C++ runtime statically.
//!
//! rustsat-cadical asks for `-lstdc++` as a shared library. Loading and relocating
//! libstdc++.so costs every command about half a millisecond before `main`, which is a third
//! of `sokuc --version` (issue 15 wants it under 2 ms in every build). A directory of our own
//! that holds only `libstdc++.a`, searched before the system's, makes the linker resolve that
//! same `-lstdc++` to the archive. Nothing else changes: the executable does not export the
//! archive's symbols, so CBC (opened at run time with its own libstdc++.so) is not affected.
//! Where the compiler has no static libstdc++ (or `SOKUC_SHARED_CXX` is set), the shared one
//! is linked as before.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=SOKUC_SHARED_CXX");
    println!("cargo:rerun-if-env-changed=CXX");
    let cadical = std::env::var_os("CARGO_FEATURE_CADICAL").is_some();
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    if !cadical || !linux || std::env::var_os("SOKUC_SHARED_CXX").is_some() {
        return;
    }
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".to_string());
    let Ok(out) = Command::new(&cxx).arg("-print-file-name=libstdc++.a").output() else {
        return;
    };
    let archive = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    // Without the archive the compiler prints the bare name back.
    if !out.status.success() || !archive.is_absolute() || !archive.is_file() {
        return;
    }
    let Some(out_dir) = std::env::var_os("OUT_DIR") else {
        return;
    };
    let dir = PathBuf::from(out_dir).join("static-cxx");
    let link = dir.join("libstdc++.a");
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::remove_file(&link);
    if std::os::unix::fs::symlink(&archive, &link).is_ok() {
        println!("cargo:rustc-link-search=native={}", dir.display());
    }
}
