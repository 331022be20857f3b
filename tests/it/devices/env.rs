//! Device selection through METAOPT_DEVICE and METAOPT_CL_DIR (in a process of its own: it changes
//! the process environment and the default device).

use crate::common::child::own_process;
use metaopt::device::*;

#[test]
fn environment_selects_device_and_kernel_folder() {
    own_process!();
    let n = list_devices().unwrap().len();
    std::env::set_var(DEVICE_ENV, (n - 1).to_string());
    assert_eq!(get_device_number().unwrap(), n - 1);
    std::env::set_var(DEVICE_ENV, n.to_string());
    let e = get_device_number().unwrap_err().to_string();
    assert!(e.contains("METAOPT_DEVICE"), "{e}");
    std::env::set_var(DEVICE_ENV, "gpu");
    assert!(get_device_number()
        .unwrap_err()
        .to_string()
        .contains("not a device number"));
    std::env::remove_var(DEVICE_ENV);
    // the API's choice wins over the default
    set_device_number((n - 1) as i32).unwrap();
    assert_eq!(get_device_number().unwrap(), n - 1);
    set_device_number(0).unwrap();

    // METAOPT_CL_DIR overrides the source tree; a file missing there is an error, not a fallback
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("common.cl"), "// replaced\n").unwrap();
    std::env::set_var("METAOPT_CL_DIR", dir.path());
    assert_eq!(kernel_source("common.cl").unwrap(), "// replaced\n");
    assert!(kernel_source("qap.cl").is_err());
    std::env::remove_var("METAOPT_CL_DIR");
    assert!(kernel_source("qap.cl").unwrap().contains("qap_eval"));
}
