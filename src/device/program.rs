//! Device programs as data (the model is CLBlast's `InitProgram`): a solver describes a program
//! as a [`ProgramSpec`] (kernel files of `cl/`, extra source such as a user's objective, in
//! order, and the defines), and [`DeviceContext::build`] builds it once per device, source hash
//! and options, and caches it. No solver concatenates sources or formats `-D` flags itself.

use super::{kernel_source, DeviceContext};
use crate::error::Result;
use opencl3::program::Program;
use std::fmt::Display;
use std::sync::Arc;

/// One piece of a program's source.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    /// A kernel file of `cl/` (found as `device::kernel_source` finds it).
    File(&'static str),
    /// Source text (a user's objective, a catalogue objective's glue).
    Text(String),
}

/// What a program is made of: its sources in order and its preprocessor defines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProgramSpec {
    parts: Vec<Part>,
    defines: Vec<(String, String)>,
}

impl ProgramSpec {
    /// The kernel files of `cl/`, in order.
    pub fn files(files: &[&'static str]) -> Self {
        ProgramSpec {
            parts: files.iter().map(|f| Part::File(f)).collect(),
            defines: Vec::new(),
        }
    }

    /// Appends a kernel file of `cl/`.
    pub fn file(mut self, name: &'static str) -> Self {
        self.parts.push(Part::File(name));
        self
    }

    /// Appends source text.
    pub fn text(mut self, src: impl Into<String>) -> Self {
        self.parts.push(Part::Text(src.into()));
        self
    }

    /// `-D name=value`; a later define of the same name replaces the earlier one.
    pub fn define(mut self, name: &str, value: impl Display) -> Self {
        let value = value.to_string();
        match self.defines.iter_mut().find(|(n, _)| n == name) {
            Some(d) => d.1 = value,
            None => self.defines.push((name.to_string(), value)),
        }
        self
    }

    /// `-D name=value` with an unsigned literal (`123u`), for sizes compared with `uint`.
    pub fn define_u(self, name: &str, value: impl Display) -> Self {
        self.define(name, format!("{value}u"))
    }

    /// Defines given as `-DNAME=VALUE` flags (what an objective's `build_options` gives); a
    /// flag without `=` defines the name as 1.
    pub fn flags(mut self, flags: &str) -> Self {
        for f in flags.split_whitespace() {
            let d = f.strip_prefix("-D").unwrap_or(f);
            self = match d.split_once('=') {
                Some((n, v)) => self.define(n, v),
                None => self.define(d, 1),
            };
        }
        self
    }

    /// Every define of `other` added to (or replacing those of) this spec.
    pub fn defines_of(mut self, other: &ProgramSpec) -> Self {
        for (n, v) in &other.defines {
            self = self.define(n, v);
        }
        self
    }

    /// The value of define `name`, if any.
    pub fn define_value(&self, name: &str) -> Option<&str> {
        self.defines
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The whole source text, files read now.
    pub fn source(&self) -> Result<String> {
        let mut src = String::new();
        for p in &self.parts {
            match p {
                Part::File(f) => src.push_str(&kernel_source(f)?),
                Part::Text(t) => src.push_str(t),
            }
            src.push('\n');
        }
        Ok(src)
    }

    /// The build options: the defines as `-D` flags, in the order given.
    pub fn options(&self) -> String {
        self.defines
            .iter()
            .map(|(n, v)| format!("-D{n}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl DeviceContext {
    /// Builds `spec` on this device, once per (source, options): later calls return the cached
    /// program. A failed build's error carries the build log and the options.
    pub fn build(&self, spec: &ProgramSpec) -> Result<Arc<Program>> {
        self.program_from_source(&spec.source()?, &spec.options())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defines_render_in_order_and_replace() {
        let s = ProgramSpec::files(&["common.cl"])
            .define("FP", "float")
            .define_u("ROWS", 12)
            .flags("-DFP=double -DX");
        assert_eq!(s.options(), "-DFP=double -DROWS=12u -DX=1");
        assert_eq!(s.define_value("ROWS"), Some("12u"));
    }

    #[test]
    fn source_concatenates_files_and_text() {
        let s = ProgramSpec::files(&["common.cl"]).text("// user text");
        let src = s.source().unwrap();
        assert!(src.starts_with(&kernel_source("common.cl").unwrap()));
        assert!(src.ends_with("// user text\n"));
    }
}
