//! `metaopt devices`: the numbered device list of the library (GPUs first).

use crate::args::JsonArg;
use crate::out::{self, CliResult, Failure};
use clap::Args;
use metaopt::device::{get_device_number, list_devices, DeviceInfo, DEVICE_ENV};
use serde::Serialize;

#[derive(Args)]
pub struct DevicesArgs {
    #[command(flatten)]
    json: JsonArg,
}

#[derive(Serialize)]
struct JsonDevice<'a> {
    index: usize,
    platform: &'a str,
    name: &'a str,
    vendor: &'a str,
    #[serde(rename = "type")]
    kind: metaopt::device::DeviceKind,
    version: &'a str,
    global_mem_bytes: u64,
    local_mem_bytes: u64,
    max_alloc_bytes: u64,
    compute_units: u32,
    max_work_group_size: usize,
    fp64: bool,
    in_use: bool,
}

#[derive(Serialize)]
struct JsonList<'a> {
    /// The device solvers use now (`METAOPT_DEVICE`, else 0); null when that setting is invalid.
    in_use: Option<usize>,
    /// The library's default without any setting: the first GPU, else the first device.
    default: usize,
    devices: Vec<JsonDevice<'a>>,
}

pub fn run(a: &DevicesArgs) -> CliResult {
    let devs = list_devices()?;
    if devs.is_empty() {
        return Err(Failure(
            "no OpenCL device found: the OpenCL loader works but no platform reports a device; \
             install a driver (e.g. pocl-opencl-icd for the CPU, or your GPU vendor's OpenCL driver)"
                .into(),
        ));
    }
    // An invalid METAOPT_DEVICE must not hide the list that helps to fix it.
    let in_use = match get_device_number() {
        Ok(i) => Some(i),
        Err(e) => {
            eprintln!("warning: {e}");
            None
        }
    };
    if a.json.json {
        let list = JsonList {
            in_use,
            default: 0,
            devices: devs
                .iter()
                .map(|d| json_device(d, in_use == Some(d.index)))
                .collect(),
        };
        return out::print_json(&list);
    }
    out::print(&table(&devs, in_use))
}

fn json_device(d: &DeviceInfo, in_use: bool) -> JsonDevice<'_> {
    JsonDevice {
        index: d.index,
        platform: &d.platform,
        name: &d.name,
        vendor: &d.vendor,
        kind: d.kind,
        version: &d.version,
        global_mem_bytes: d.global_mem_bytes,
        local_mem_bytes: d.local_mem_bytes,
        max_alloc_bytes: d.max_alloc_bytes,
        compute_units: d.compute_units,
        max_work_group_size: d.max_work_group_size,
        fp64: d.fp64,
        in_use,
    }
}

fn table(devs: &[DeviceInfo], in_use: Option<usize>) -> String {
    let header = ["#", "type", "name", "platform", "memory", "CUs", "fp64"];
    let rows: Vec<[String; 7]> = devs
        .iter()
        .map(|d| {
            [
                d.index.to_string(),
                d.kind.as_str().to_string(),
                d.name.clone(),
                d.platform.clone(),
                out::bytes(d.global_mem_bytes),
                d.compute_units.to_string(),
                if d.fp64 { "yes" } else { "no" }.to_string(),
            ]
        })
        .collect();
    let mut width = header.map(str::len);
    for r in &rows {
        for (w, c) in width.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |mark: &str, cells: &[String]| {
        let mut s = format!("{mark} ");
        for (i, (c, w)) in cells.iter().zip(width).enumerate() {
            // numbers right-aligned, text left-aligned
            if matches!(i, 0 | 5) {
                s.push_str(&format!("{c:>w$}  "));
            } else {
                s.push_str(&format!("{c:<w$}  "));
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut s = line(" ", &header.map(String::from));
    for (d, r) in devs.iter().zip(&rows) {
        s.push_str(&line(if in_use == Some(d.index) { "*" } else { " " }, r));
    }
    let why = match (in_use, std::env::var(DEVICE_ENV)) {
        (Some(_), Ok(v)) => format!("chosen by {DEVICE_ENV}={}", v.trim()),
        (Some(_), Err(_)) => "the default: the first GPU, else the first device".to_string(),
        (None, _) => format!("none: {DEVICE_ENV} is invalid"),
    };
    s.push_str(&format!(
        "\n* = device in use ({why}); choose with --device N or {DEVICE_ENV}=N\n"
    ));
    s
}
