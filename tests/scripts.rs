//! The project's shell scripts, run for real with stand-ins for the system tools they change
//! (`systemctl`), so that a test never touches the machine's own boot.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A stand-in `systemctl` that keeps "enabled" units as files in `state`.
fn fake_systemctl(bin: &Path, state: &Path) {
    std::fs::create_dir_all(bin).unwrap();
    std::fs::create_dir_all(state).unwrap();
    let script = format!(
        "#!/bin/sh\nstate={}\nlast=\"\"; for a in \"$@\"; do last=\"$a\"; done\n\
         case \"$1\" in\n  is-enabled) [ -e \"$state/$last\" ] ;;\n  \
         disable) rm -f \"$state/$last\" ;;\n  *) exit 1 ;;\nesac\n",
        state.display()
    );
    let path = bin.join("systemctl");
    std::fs::write(&path, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn boot_units(bin: &Path, args: &[&str]) {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/mailstack/boot-units.sh");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("bash")
        .arg(script)
        .args(args)
        .env("PATH", path)
        .env("MAILSTACK_QUIET", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
}

#[test]
fn installing_the_mail_stack_leaves_the_services_disabled_at_boot_as_they_were() {
    let dir = tempfile::tempdir().unwrap();
    let (bin, state) = (dir.path().join("bin"), dir.path().join("enabled"));
    fake_systemctl(&bin, &state);
    let record = dir.path().join("before");
    let record = record.to_str().unwrap();

    // nothing enabled before; the packages' scripts enable both
    boot_units(&bin, &["record", record]);
    std::fs::write(state.join("postfix.service"), "").unwrap();
    std::fs::write(state.join("dovecot.service"), "").unwrap();
    boot_units(&bin, &["restore", record]);
    assert!(!state.join("postfix.service").exists());
    assert!(!state.join("dovecot.service").exists());

    // postfix was the admin's own, enabled before: it stays
    std::fs::write(state.join("postfix.service"), "").unwrap();
    boot_units(&bin, &["record", record]);
    std::fs::write(state.join("dovecot.service"), "").unwrap();
    boot_units(&bin, &["restore", record]);
    assert!(
        state.join("postfix.service").exists(),
        "the admin's unit is kept"
    );
    assert!(!state.join("dovecot.service").exists());
}
