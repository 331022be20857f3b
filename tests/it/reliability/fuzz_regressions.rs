//! Inputs that fuzzing (fuzz/README.md) found to break a reader, each kept as a focused test; the
//! same inputs are files `regression-*` of `fuzz/corpus/<target>/`.

use std::path::Path;

use metaopt::problem::functions::ReferenceFixture;

/// `count x dims` from the header overflowed (a panic in debug builds) or, where it did not,
/// reserved that many values up front: `count 1000000000000` asked for 8 TB and aborted the
/// process instead of returning an error.
#[test]
fn fixture_sizes_from_the_header_reserve_nothing_the_text_cannot_hold() {
    for text in [
        "dims 1\ncount 1000000000000\npoints\n",
        "dims 4294967296\ncount 4294967297\npoints\n1\n",
        "dims 18446744073709551615\ncount 18446744073709551615\npoints\n",
        "dims 1\ncount 1000000000000\npoints\n1\nfunction f 0 1\n",
    ] {
        let r = ReferenceFixture::parse(text, Path::new("fixture.txt"));
        assert!(r.is_err(), "{text:?} gave {r:?}");
    }
}
