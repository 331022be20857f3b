//! Without any OpenCL driver the library still loads and says so clearly (in a process of its
//! own: the device list is made once per process).

use crate::common::child::own_process;
use metaopt::hc12::qap::*;
use metaopt::problem::qap::{QapMatrices, QapProblem};
use std::sync::Arc;

#[test]
fn no_driver_gives_a_clear_error_and_the_cpu_backend_still_works() {
    own_process!();
    let empty = tempfile::tempdir().unwrap();
    // ocl-icd reads its vendor folder from here when the loader initialises
    std::env::set_var("OCL_ICD_VENDORS", empty.path());
    let devs = metaopt::device::list_devices();
    assert!(devs.as_ref().map(|d| d.is_empty()).unwrap_or(true));
    let e = metaopt::device::DeviceContext::current()
        .err()
        .expect("no device");
    assert_eq!(e.code(), 6, "{e}");
    assert!(e.to_string().contains("no OpenCL"), "{e}");
    let p = Arc::new(
        QapProblem::new(
            "t",
            3,
            1,
            QapMatrices::I32(
                vec![0, 1, 2, 1, 0, 3, 2, 3, 0],
                vec![0, 5, 1, 5, 0, 2, 1, 2, 0],
            ),
        )
        .unwrap(),
    );
    assert_eq!(
        QapHc12::new(
            p.clone(),
            1,
            2,
            0,
            0,
            Backend::Device(None),
            CostForm::Delta
        )
        .err()
        .map(|e| e.code()),
        Some(6)
    );
    let mut cpu = QapHc12::new(p, 1, 2, 0, 0, Backend::Cpu, CostForm::Delta).unwrap();
    cpu.run(None, None).unwrap();
}
